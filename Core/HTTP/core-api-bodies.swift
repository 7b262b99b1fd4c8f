import HogwartsBase
import HogwartsKernel

// Shapes many routes answer with, so each route's schema is still read from the type it encodes
// (`APISchema.of`) without each module writing its own copy.

/// `{"data": [...]}`, the contract's unpaged lists.
public struct APIList<Item: Codable & Sendable>: Codable, Sendable {
    public let data: [Item]

    public init(_ data: [Item]) {
        self.data = data
    }
}

/// One JSON object with the keys of `Base` followed by those of `Extra`: a detail body is its
/// list item's keys and some more. Both are written to, and read from, the same object, so the
/// schema read from this type is the two types' keys in that order, each written once.
public struct APIMerged<Base: Codable & Sendable, Extra: Codable & Sendable>: Codable, Sendable {
    public let base: Base
    public let extra: Extra

    public init(_ base: Base, _ extra: Extra) {
        self.base = base
        self.extra = extra
    }

    public init(from decoder: any Decoder) throws {
        base = try Base(from: decoder)
        extra = try Extra(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        try base.encode(to: encoder)
        try extra.encode(to: encoder)
    }
}

/// An instant kept as the text the contract writes (`2026-11-23T08:00:00.000Z`, a lesson's
/// `1970-01-01T07:45:00.000Z`): written as that text, and a `date-time` in the schema, where a
/// `String` would be any text.
public struct APIInstant: Codable, Sendable, Hashable {
    public let text: String

    public init(_ text: String) {
        self.text = text
    }

    /// A day kept as `YYYY-MM-DD`, as the contract writes every date: its midnight UTC,
    /// `2013-01-26T00:00:00.000Z`, the value the web app's date columns give (the apps decode
    /// every date as ISO 8601 and fail the whole answer on a date-only text). A stored text that
    /// is not a day is sent as it is, never replaced by a guessed time.
    public static func midnight(of day: String) -> APIInstant {
        APIInstant(CivilDate(day) == nil ? day : day + "T00:00:00.000Z")
    }

    public init(from decoder: any Decoder) throws {
        text = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
