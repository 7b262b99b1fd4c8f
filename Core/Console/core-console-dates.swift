import Foundation
import HogwartsBase
import HogwartsKernel

/// Dates as the console prints them inside sentences. In Arabic text a date's digits would take
/// the direction of the letters before them ("يوم 29-11-2026" for 2026-11-29), so every date is
/// isolated left to right (Unicode's LRI ... PDI, what `<bdi dir="ltr">` does in markup, and it
/// works in escaped text, attributes and chart titles alike), and a range of dates is kept on one
/// line. Pages print dates through these helpers, never by hand.
public enum ConsoleDates {
    static let isolateStart = "\u{2066}"
    static let isolateEnd = "\u{2069}"
    static let noBreakSpace = "\u{00A0}"
    /// Chromium breaks a line after a dash even before a no-break space, and after a date's
    /// hyphens: a word joiner after each forbids those breaks and shows nothing.
    static let wordJoiner = "\u{2060}"
    static let dashJoined = noBreakSpace + "–" + wordJoiner + noBreakSpace

    /// `2026-09-01` that no line can break inside.
    static func unbreakable(_ date: String) -> String { date.replacingOccurrences(of: "-", with: "-" + wordJoiner) }

    /// Any left-to-right figure (a date, a time, a code) isolated from the text around it.
    public static func isolated(_ text: String) -> String { isolateStart + text + isolateEnd }

    /// `2026-11-29`, isolated.
    public static func day(_ date: CivilDate) -> String { isolated(date.description) }

    /// `2026-09-01 – 2026-12-20`, isolated and on one line (no-break spaces around the dash, and
    /// word joiners after it and the hyphens).
    public static func range(_ from: CivilDate, _ to: CivilDate) -> String {
        range(from.description, to.description)
    }

    /// The same for dates already written `YYYY-MM-DD` (a term's own fields); other text as given, isolated.
    public static func range(_ from: String, _ to: String) -> String {
        isolated(unbreakable(from) + dashJoined + unbreakable(to))
    }

    /// A short label that fits a chart's margin: `29 Nov`, `29 نوفمبر`.
    public static func short(_ date: CivilDate, language: Language) -> String {
        let parts = date.description.split(separator: "-")
        guard parts.count == 3, let month = Int(parts[1]), (1...12).contains(month), let day = Int(parts[2]) else { return day(date) }
        let names = language == .ar ? arabicMonths : englishMonths
        return isolated(String(day)) + noBreakSpace + names[month - 1]
    }

    /// `08:12`, the school's clock, isolated.
    public static func time(_ moment: Date, timeZone: String) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: timeZone) ?? .gmt
        let parts = calendar.dateComponents([.hour, .minute], from: moment)
        return isolated(String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0))
    }

    /// The month names of the Arab world's Gregorian calendar (as Sudan and Egypt write them).
    static let arabicMonths = ["يناير", "فبراير", "مارس", "أبريل", "مايو", "يونيو", "يوليو", "أغسطس", "سبتمبر", "أكتوبر", "نوفمبر", "ديسمبر"]
    static let englishMonths = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}

extension ConsoleRequest {
    /// A day in a sentence, isolated (see `ConsoleDates`).
    public func day(_ date: CivilDate) -> String { ConsoleDates.day(date) }

    /// A moment's time on the school's clock, `08:12`, isolated.
    public func clock(_ moment: Date) -> String { ConsoleDates.time(moment, timeZone: school.timeZone) }
}
