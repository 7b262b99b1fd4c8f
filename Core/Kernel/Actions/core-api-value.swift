/// A JSON value built at run time: dashboard fields contributed by several modules, the
/// OpenAPI document. Encodes as plain JSON (never as Swift's enum internals).
public enum APIValue: Sendable, Equatable, Encodable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
                      ExpressibleByBooleanLiteral, ExpressibleByDictionaryLiteral, ExpressibleByArrayLiteral {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([APIValue])
    case object([String: APIValue])

    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: APIValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, APIValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }

    /// A text, or null when there is none.
    public static func optional(_ value: String?) -> APIValue { value.map(APIValue.string) ?? .null }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .int(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .double(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .string(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .array(let values):
            var container = encoder.unkeyedContainer()
            for value in values { try container.encode(value) }
        case .object(let members):
            var container = encoder.container(keyedBy: APIValueKey.self)
            for (key, value) in members.sorted(by: { $0.key < $1.key }) {
                try container.encode(value, forKey: APIValueKey(stringValue: key))
            }
        }
    }
}

package struct APIValueKey: CodingKey {
    package let stringValue: String
    package var intValue: Int? { nil }
    package init(stringValue: String) { self.stringValue = stringValue }
    package init?(intValue: Int) { nil }
}

/// A value the contract always writes, as `null` when there is none: JSONEncoder leaves a nil
/// Optional out, and a client that decodes the key strictly (Android's kotlinx) then fails.
public struct Nullable<Value: Encodable & Sendable>: Encodable, Sendable {
    public let value: Value?

    public init(_ value: Value?) { self.value = value }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let value { try container.encode(value) } else { try container.encodeNil() }
    }
}

extension Nullable: Decodable where Value: Decodable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        value = container.decodeNil() ? nil : try container.decode(Value.self)
    }
}
