import Core
import Foundation

/// iCalendar (RFC 5545) for a feed: CRLF line ends, lines folded at 75 octets, text escaped.
/// Timed entries are written in UTC (no VTIMEZONE needed); all-day ones as dates, the end day
/// exclusive as the standard has it.
enum ICalendar {
    static func document(_ entries: [CalendarEntry], school: School, now: Date) -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Hogwarts//School calendar//EN", "CALSCALE:GREGORIAN", "METHOD:PUBLISH",
                     "X-WR-CALNAME:" + escape(school.name.text(in: school.language)), "X-WR-TIMEZONE:" + school.timeZone]
        let zone = TimeZone(identifier: school.timeZone) ?? .gmt
        for entry in entries {
            lines.append("BEGIN:VEVENT")
            lines.append("UID:\(entry.id)@\(school.id).hogwarts")
            lines.append("DTSTAMP:" + utc(now))
            if let start = entry.startTime, let first = instant(entry.startsOn, start, zone) {
                lines.append("DTSTART:" + utc(first))
                let end = entry.endTime.flatMap { instant(entry.endsOn, $0, zone) } ?? first.addingTimeInterval(3600)
                lines.append("DTEND:" + utc(max(end, first)))
            } else {
                lines.append("DTSTART;VALUE=DATE:" + entry.startsOn.replacingOccurrences(of: "-", with: ""))
                let after = CivilDate(entry.endsOn).map { $0.adding(days: 1).description } ?? entry.endsOn
                lines.append("DTEND;VALUE=DATE:" + after.replacingOccurrences(of: "-", with: ""))
            }
            lines.append("SUMMARY:" + escape(entry.classCode.map { "\(entry.title) (\($0))" } ?? entry.title))
            if !entry.description.isEmpty { lines.append("DESCRIPTION:" + escape(entry.description)) }
            if !entry.location.isEmpty { lines.append("LOCATION:" + escape(entry.location)) }
            lines.append("CATEGORIES:" + entry.type.rawValue.uppercased())
            lines.append("STATUS:" + (entry.cancelled ? "CANCELLED" : "CONFIRMED"))
            lines.append("TRANSP:" + (entry.type == .holiday ? "TRANSPARENT" : "OPAQUE"))
            lines.append("END:VEVENT")
        }
        lines.append("END:VCALENDAR")
        return lines.map(fold).joined(separator: "\r\n") + "\r\n"
    }

    /// Backslash, semicolon, comma and line breaks, escaped as the standard's TEXT values are.
    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\n", "\r\n": out += "\\n"
            case "\r": continue
            default: out.append(character)
            }
        }
        return out
    }

    /// Lines longer than 75 octets go on as continuation lines (CRLF and a space), never inside a
    /// UTF-8 sequence, so Arabic text stays whole.
    static func fold(_ line: String) -> String {
        var out = ""
        var octets = 0
        for scalar in line.unicodeScalars {
            let size = String(scalar).utf8.count
            if octets + size > 75 {
                out += "\r\n "
                octets = 1
            }
            out.unicodeScalars.append(scalar)
            octets += size
        }
        return out
    }

    static func utc(_ date: Date) -> String {
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = .gmt
        format.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return format.string(from: date)
    }

    static func instant(_ day: String, _ time: String, _ zone: TimeZone) -> Date? {
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = zone
        format.dateFormat = "yyyy-MM-dd HH:mm"
        return format.date(from: "\(day) \(time)")
    }
}
