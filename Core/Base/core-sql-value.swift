import Foundation

/// A value bound to, or read from, an SQL statement. Plain SQL types only, so the same module
/// code runs on SQLite today and on PostgreSQL later.
public enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
}

extension SQLValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .text(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .real(value) }
    public init(booleanLiteral value: Bool) { self = .integer(value ? 1 : 0) }
    public init(nilLiteral: ()) { self = .null }
}

/// A Swift value that converts to and from an `SQLValue`.
public protocol SQLValueConvertible: Sendable {
    var sqlValue: SQLValue { get }
    init?(sqlValue: SQLValue)
}

extension SQLValue {
    /// Wraps any convertible value, `nil` becoming `.null`.
    public init(_ value: (some SQLValueConvertible)?) {
        self = value?.sqlValue ?? .null
    }
}

extension String: SQLValueConvertible {
    public var sqlValue: SQLValue { .text(self) }
    public init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .text(let text): self = text
        case .integer(let number): self = String(number)
        case .real(let number): self = String(number)
        default: return nil
        }
    }
}

extension Int: SQLValueConvertible {
    public var sqlValue: SQLValue { .integer(Int64(self)) }
    public init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .integer(let number): self = Int(number)
        case .real(let number): self = Int(number)
        case .text(let text): guard let number = Int(text) else { return nil }; self = number
        default: return nil
        }
    }
}

extension Int64: SQLValueConvertible {
    public var sqlValue: SQLValue { .integer(self) }
    public init?(sqlValue: SQLValue) {
        guard let number = Int(sqlValue: sqlValue) else { return nil }
        self = Int64(number)
    }
}

extension Double: SQLValueConvertible {
    public var sqlValue: SQLValue { .real(self) }
    public init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .real(let number): self = number
        case .integer(let number): self = Double(number)
        case .text(let text): guard let number = Double(text) else { return nil }; self = number
        default: return nil
        }
    }
}

extension Bool: SQLValueConvertible {
    public var sqlValue: SQLValue { .integer(self ? 1 : 0) }
    public init?(sqlValue: SQLValue) {
        guard let number = Int(sqlValue: sqlValue) else { return nil }
        self = number != 0
    }
}

extension Data: SQLValueConvertible {
    public var sqlValue: SQLValue { .blob(self) }
    public init?(sqlValue: SQLValue) {
        guard case .blob(let data) = sqlValue else { return nil }
        self = data
    }
}

/// Dates are stored as ISO 8601 text in UTC (`2026-11-22T08:15:00.000Z`): portable, sortable, readable.
extension Date: SQLValueConvertible {
    public var sqlValue: SQLValue { .text(SQLDateFormat.string(from: self)) }
    public init?(sqlValue: SQLValue) {
        guard case .text(let text) = sqlValue, let date = SQLDateFormat.date(from: text) else { return nil }
        self = date
    }
}

/// Times as stored: `2026-11-23T20:38:40.123Z`, UTC, milliseconds rounded down, so text order is
/// time order. Written and read by hand because every write stamps times (the audit record,
/// who marked a register when): Foundation's ISO 8601 style costs several times more per value.
/// Anything else ISO 8601 still parses through Foundation.
package enum SQLDateFormat {
    package static func string(from date: Date) -> String {
        // Whole microseconds first, so a time read back from its text (x / 1000) is not a hair
        // below itself and printed one millisecond early.
        let micros = (date.timeIntervalSince1970 * 1_000_000).rounded()
        let millis = Int64((micros / 1000).rounded(.down))
        let day = millis >= 0 ? millis / 86_400_000 : (millis - 86_399_999) / 86_400_000
        let inDay = millis - day * 86_400_000
        let (year, month, dayOfMonth) = CivilDate.components(Int(day))
        var text = ""
        text.reserveCapacity(24)
        func append(_ value: Int64, digits: Int) {
            let number = String(value)
            text += String(repeating: "0", count: max(0, digits - number.count)) + number
        }
        append(Int64(year), digits: 4); text += "-"; append(Int64(month), digits: 2); text += "-"; append(Int64(dayOfMonth), digits: 2)
        text += "T"; append(inDay / 3_600_000, digits: 2); text += ":"; append(inDay / 60_000 % 60, digits: 2); text += ":"
        append(inDay / 1000 % 60, digits: 2); text += "."; append(inDay % 1000, digits: 3); text += "Z"
        return text
    }

    package static func date(from text: String) -> Date? {
        let bytes = Array(text.utf8)
        if bytes.count == 24, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
           bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "."), bytes[23] == UInt8(ascii: "Z") {
            return canonicalDate(bytes)
        }
        return (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text))
            ?? (try? Date.ISO8601FormatStyle().parse(text))
    }

    /// The digits of `YYYY-MM-DDTHH:MM:SS.sssZ` as a time, nil when one is not a digit or the day does not exist.
    private static func canonicalDate(_ bytes: [UInt8]) -> Date? {
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), let hour = number(11..<13),
              let minute = number(14..<16), let second = number(17..<19), let millis = number(20..<23),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60
        else { return nil }
        let days = CivilDate.days(year: year, month: month, day: day)
        guard CivilDate.components(days) == (year, month, day) else { return nil }
        let total = Int64(days) * 86_400_000 + Int64(hour * 3_600_000 + minute * 60_000 + second * 1000 + millis)
        return Date(timeIntervalSince1970: Double(total) / 1000)
    }
}

/// Named statement arguments: `["title": "Maths"]` binds `:title`.
public typealias SQLArguments = [String: SQLValue]

/// One result row, read by column name.
public struct SQLRow: Sendable, Hashable {
    public let columns: [String: SQLValue]

    public init(columns: [String: SQLValue]) { self.columns = columns }

    /// The column converted to `T`; nil when it is NULL, absent or not convertible.
    public subscript<T: SQLValueConvertible>(_ column: String) -> T? {
        columns[column].flatMap { T(sqlValue: $0) }
    }

    public func string(_ column: String) -> String { self[column] ?? "" }
    public func int(_ column: String) -> Int { self[column] ?? 0 }
}
