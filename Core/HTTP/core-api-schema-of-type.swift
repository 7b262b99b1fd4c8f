import Foundation
import HogwartsBase
import HogwartsKernel

extension APISchema {
    /// The shape of a body's JSON read from its own type: the keys its `Decodable` conformance
    /// asks for, in order, each with the type it asks for, named as the route writes them. A
    /// route that answers with a type says `response: .of(TheBody.self)` and its OpenAPI schema
    /// cannot drift from what it sends.
    ///
    /// An optional property (`decodeIfPresent`) may be absent; `Nullable` is present and may be
    /// null; an enum of strings lists its values; `Date` and `APIInstant` are date-times, `CivilDate` and `APIDate` dates,
    /// `Decimal` and floating point numbers a number, `APIValue` any object.
    public static func of<T: Decodable>(_ type: T.Type, keys: APIKeyStyle = .snakeCase) -> APISchema {
        let reader = ShapeReader(keys: keys)
        do {
            return try reader.sample(T.self).schema
        } catch {
            // Only a type whose decoding refuses every value ends here; `DerivedSchemaTests` names it.
            return .unreadable(String(describing: T.self))
        }
    }

    /// A type `of` could not read: a string whose format names the type, which `DerivedSchemaTests` refuses.
    static func unreadable(_ type: String) -> APISchema {
        .string(format: "unreadable:\(type)")
    }
}

/// Reads a `Decodable` type's shape by decoding it from nothing: every question its decoding asks
/// is answered with a sample value of the type asked for, and recorded.
private struct ShapeReader {
    let keys: APIKeyStyle

    func name(_ key: any CodingKey) -> String {
        keys == .snakeCase ? SnakeCaseKeys.convert(key.stringValue) : key.stringValue
    }

    /// A value of `T` and its schema.
    func sample<T: Decodable>(_ type: T.Type) throws -> (value: T, schema: APISchema) {
        if let (value, schema) = scalar(T.self) { return (value, schema) }
        if let strings = T.self as? any (CaseIterable & RawRepresentable & Decodable).Type,
           let (value, values) = Self.cases(of: strings), let typed = value as? T {
            return (typed, .string(values: values))
        }
        let decoder = ShapeDecoder(reader: self)
        let value = try T(from: decoder)
        return (value, decoder.recorded.schema)
    }

    private func scalar<T>(_ type: T.Type) -> (T, APISchema)? {
        let sample: (Any, APISchema)? = switch type {
        case is String.Type: ("", .text)
        case is Bool.Type: (false, .boolean)
        case is Int.Type: (0, .integer())
        case is Int64.Type: (Int64(0), .integer())
        case is Int32.Type: (Int32(0), .integer())
        case is Double.Type: (0.0, .number)
        case is Float.Type: (Float(0), .number)
        case is Decimal.Type: (Decimal(0), .number)
        case is Date.Type: (Date(timeIntervalSince1970: 0), .dateTime)
        case is CivilDate.Type: (CivilDate(dayNumber: 0), .date)
        case is APIDate.Type: (APIDate("2000-01-01"), .date)
        case is APIInstant.Type: (APIInstant("2000-01-01T00:00:00.000Z"), .dateTime)
        case is APIValue.Type: (APIValue.object([:]), .anyObject)
        default: nil
        }
        guard let (value, schema) = sample, let typed = value as? T else { return nil }
        return (typed, schema)
    }

    /// The first case and every raw value of an enum of strings.
    private static func cases<E: CaseIterable & RawRepresentable>(of type: E.Type) -> (Any, [String])? {
        let values = E.allCases.compactMap { $0.rawValue as? String }
        guard let first = E.allCases.first, values.count == E.allCases.count else { return nil }
        return (first, values)
    }
}

/// What one decoding asked of its decoder.
private final class RecordedShape {
    var fields: [(String, APISchema)] = []
    var keyed = false
    var element: APISchema?
    var single: APISchema?
    var nullable = false

    var schema: APISchema {
        if keyed { return fields.isEmpty ? .anyObject : .object(fields) }
        if let element { return .array(element) }
        let value = single ?? .anyObject
        return nullable ? .nullable(value) : value
    }

    func add(_ name: String, _ schema: APISchema) {
        if !fields.contains(where: { $0.0 == name }) { fields.append((name, schema)) }
    }
}

private final class ShapeDecoder: Decoder {
    let reader: ShapeReader
    let recorded = RecordedShape()
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]

    init(reader: ShapeReader) {
        self.reader = reader
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        recorded.keyed = true
        return KeyedDecodingContainer(ShapeKeyedContainer<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        ShapeUnkeyedContainer(decoder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        ShapeSingleValue(decoder: self)
    }

    /// A container asked for without a type (a hand-written `init(from:)` nesting by key) has no
    /// shape to record: the type is reported unreadable rather than guessed.
    static func nestedContainer(_ codingPath: [any CodingKey]) -> DecodingError {
        .dataCorrupted(.init(codingPath: codingPath, debugDescription: "a nested container has no type to name its shape"))
    }
}

private struct ShapeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: ShapeDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool { false }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let (value, schema) = try decoder.reader.sample(T.self)
        decoder.recorded.add(decoder.reader.name(key), schema)
        return value
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try optional(type, key)
    }

    // The protocol's own `decodeIfPresent` for each primitive would call `decode` and say the key
    // is always there: each is answered here.
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try optional(type, key) }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try optional(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try optional(type, key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try optional(type, key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try optional(type, key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try optional(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try optional(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try optional(type, key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try optional(type, key) }

    private func optional<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
        let (value, schema) = try decoder.reader.sample(T.self)
        decoder.recorded.add(decoder.reader.name(key), .optional(schema))
        return value
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        throw ShapeDecoder.nestedContainer(codingPath)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw ShapeDecoder.nestedContainer(codingPath)
    }

    func superDecoder() throws -> any Decoder { decoder }
    func superDecoder(forKey key: Key) throws -> any Decoder { decoder }
}

/// An array: one element is read, for its shape.
private struct ShapeUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: ShapeDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { 1 }
    var currentIndex = 0
    var isAtEnd: Bool { currentIndex > 0 }

    mutating func decodeNil() throws -> Bool { false }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, schema) = try decoder.reader.sample(T.self)
        decoder.recorded.element = schema
        currentIndex += 1
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        throw ShapeDecoder.nestedContainer(codingPath)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw ShapeDecoder.nestedContainer(codingPath)
    }

    mutating func superDecoder() throws -> any Decoder { decoder }
}

/// One value; asked first whether it is null, it is a `Nullable`.
private struct ShapeSingleValue: SingleValueDecodingContainer {
    let decoder: ShapeDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool {
        decoder.recorded.nullable = true
        return false
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, schema) = try decoder.reader.sample(T.self)
        decoder.recorded.single = schema
        return value
    }
}
