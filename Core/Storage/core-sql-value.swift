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

enum SQLDateFormat {
    static func string(from date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    static func date(from text: String) -> Date? {
        (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text))
            ?? (try? Date.ISO8601FormatStyle().parse(text))
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
