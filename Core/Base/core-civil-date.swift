// Shared by every module that reasons about school days (timetable, attendance, grades).
import Foundation

/// A calendar date with no time or zone, as schools write them (`2026-09-06`). Day arithmetic
/// works on a plain day number, so no daylight-saving or zone rule can shift a week.
public struct CivilDate: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// Days since 1970-01-01.
    public let dayNumber: Int

    public init(dayNumber: Int) { self.dayNumber = dayNumber }

    /// Parses `YYYY-MM-DD` for a real day between 1900 and 2199: a school has no business with
    /// 0001-01-01, and a bounded year keeps day arithmetic far from overflow.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.utf8.count == 10, parts.count == 3, parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              parts[0].count == 4, parts[1].count == 2, let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              (1900...2199).contains(year), (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        let number = Self.days(year: year, month: month, day: day)
        guard Self.components(number) == (year, month, day) else { return nil }
        dayNumber = number
    }

    /// Today (or `date`) in a time zone.
    public init(_ date: Date, in zone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        dayNumber = Self.days(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)
    }

    /// 0 = Sunday ... 6 = Saturday, as the web app numbers days.
    public var weekday: Int { ((dayNumber % 7) + 7 + 4) % 7 }

    public func adding(days: Int) -> CivilDate { CivilDate(dayNumber: dayNumber + days) }

    /// `YYYY-MM-DD`, built by hand: a register names its date for every record it writes, and
    /// `String(format:)` costs about thirty times more.
    public var description: String {
        let (year, month, day) = Self.components(dayNumber)
        guard (0...9999).contains(year) else { return String(format: "%04d-%02d-%02d", year, month, day) }
        let zero = UInt8(ascii: "0")
        let bytes: [UInt8] = [
            zero + UInt8(year / 1000), zero + UInt8(year / 100 % 10), zero + UInt8(year / 10 % 10), zero + UInt8(year % 10), UInt8(ascii: "-"),
            zero + UInt8(month / 10), zero + UInt8(month % 10), UInt8(ascii: "-"), zero + UInt8(day / 10), zero + UInt8(day % 10),
        ]
        return String(decoding: bytes, as: UTF8.self)
    }

    public static func < (lhs: CivilDate, rhs: CivilDate) -> Bool { lhs.dayNumber < rhs.dayNumber }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let date = CivilDate(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a date: \(text)"))
        }
        self = date
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    // Howard Hinnant's days-from-civil and civil-from-days algorithms.
    package static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    package static func components(_ number: Int) -> (Int, Int, Int) {
        let z = number + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

/// A closed range of dates (a term, a holiday).
public struct DateSpan: Hashable, Sendable, Codable {
    public let start: CivilDate
    public let end: CivilDate

    public init(_ start: CivilDate, _ end: CivilDate) {
        self.start = start
        self.end = end
    }

    public func contains(_ date: CivilDate) -> Bool { start <= date && date <= end }
}
