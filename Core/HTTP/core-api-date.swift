import HogwartsKernel

/// A day, `YYYY-MM-DD`, as a body carries it when it was read as text: written as that text, and
/// a `date` in the body's schema (`APISchema.of`), where a `String` would be any text.
public struct APIDate: Codable, Sendable, Hashable {
    public let text: String

    public init(_ text: String) {
        self.text = text
    }

    public init(from decoder: any Decoder) throws {
        text = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
