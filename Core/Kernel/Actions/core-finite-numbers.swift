import Foundation
import HogwartsBase

/// Refuses NaN and infinity anywhere in an action's input, naming the field, without encoding
/// it: an encoder that writes nothing and only looks at floating-point values. The JSON digest
/// (`Kernel.fingerprint`) refuses the same values, but costs a JSON encoding and a SHA-256 per
/// run, so it is made only when a request id needs it.
enum FiniteNumbers {
    static func check(_ value: some Encodable) throws {
        try value.encode(to: FiniteNumberEncoder(codingPath: []))
    }

    static func check(_ number: Double, at path: [any CodingKey]) throws {
        guard number.isFinite else {
            let field = path.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
            throw InputError("kernel.error.input-not-finite", ["field": field.isEmpty ? "input" : field])
        }
    }
}

private struct FiniteNumberEncoder: Encoder {
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedFiniteContainer<Key>(codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { UnkeyedFiniteContainer(codingPath: codingPath) }
    func singleValueContainer() -> any SingleValueEncodingContainer { SingleFiniteContainer(codingPath: codingPath) }
}

/// An index in an unkeyed container, as a coding key (JSONEncoder names array elements so too).
private struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { String(intValue ?? 0) }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

private struct KeyedFiniteContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws {}
    mutating func encode(_ value: Bool, forKey key: Key) throws {}
    mutating func encode(_ value: String, forKey key: Key) throws {}
    mutating func encode(_ value: Double, forKey key: Key) throws { try FiniteNumbers.check(value, at: codingPath + [key]) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try FiniteNumbers.check(Double(value), at: codingPath + [key]) }
    mutating func encode(_ value: Int, forKey key: Key) throws {}
    mutating func encode(_ value: Int8, forKey key: Key) throws {}
    mutating func encode(_ value: Int16, forKey key: Key) throws {}
    mutating func encode(_ value: Int32, forKey key: Key) throws {}
    mutating func encode(_ value: Int64, forKey key: Key) throws {}
    mutating func encode(_ value: UInt, forKey key: Key) throws {}
    mutating func encode(_ value: UInt8, forKey key: Key) throws {}
    mutating func encode(_ value: UInt16, forKey key: Key) throws {}
    mutating func encode(_ value: UInt32, forKey key: Key) throws {}
    mutating func encode(_ value: UInt64, forKey key: Key) throws {}
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try value.encode(to: FiniteNumberEncoder(codingPath: codingPath + [key]))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(KeyedFiniteContainer<NestedKey>(codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { UnkeyedFiniteContainer(codingPath: codingPath + [key]) }
    mutating func superEncoder() -> any Encoder { FiniteNumberEncoder(codingPath: codingPath) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { FiniteNumberEncoder(codingPath: codingPath + [key]) }
}

private struct UnkeyedFiniteContainer: UnkeyedEncodingContainer {
    let codingPath: [any CodingKey]
    var count = 0

    init(codingPath: [any CodingKey]) { self.codingPath = codingPath }

    /// The path of the next element, counting it.
    private mutating func next() -> [any CodingKey] {
        defer { count += 1 }
        return codingPath + [IndexKey(count)]
    }

    mutating func encodeNil() throws { count += 1 }
    mutating func encode(_ value: Bool) throws { count += 1 }
    mutating func encode(_ value: String) throws { count += 1 }
    mutating func encode(_ value: Double) throws { try FiniteNumbers.check(value, at: next()) }
    mutating func encode(_ value: Float) throws { try FiniteNumbers.check(Double(value), at: next()) }
    mutating func encode(_ value: Int) throws { count += 1 }
    mutating func encode(_ value: Int8) throws { count += 1 }
    mutating func encode(_ value: Int16) throws { count += 1 }
    mutating func encode(_ value: Int32) throws { count += 1 }
    mutating func encode(_ value: Int64) throws { count += 1 }
    mutating func encode(_ value: UInt) throws { count += 1 }
    mutating func encode(_ value: UInt8) throws { count += 1 }
    mutating func encode(_ value: UInt16) throws { count += 1 }
    mutating func encode(_ value: UInt32) throws { count += 1 }
    mutating func encode(_ value: UInt64) throws { count += 1 }
    mutating func encode<T: Encodable>(_ value: T) throws { try value.encode(to: FiniteNumberEncoder(codingPath: next())) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(KeyedFiniteContainer<NestedKey>(codingPath: next()))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { UnkeyedFiniteContainer(codingPath: next()) }
    mutating func superEncoder() -> any Encoder { FiniteNumberEncoder(codingPath: next()) }
}

private struct SingleFiniteContainer: SingleValueEncodingContainer {
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws {}
    mutating func encode(_ value: Bool) throws {}
    mutating func encode(_ value: String) throws {}
    mutating func encode(_ value: Double) throws { try FiniteNumbers.check(value, at: codingPath) }
    mutating func encode(_ value: Float) throws { try FiniteNumbers.check(Double(value), at: codingPath) }
    mutating func encode(_ value: Int) throws {}
    mutating func encode(_ value: Int8) throws {}
    mutating func encode(_ value: Int16) throws {}
    mutating func encode(_ value: Int32) throws {}
    mutating func encode(_ value: Int64) throws {}
    mutating func encode(_ value: UInt) throws {}
    mutating func encode(_ value: UInt8) throws {}
    mutating func encode(_ value: UInt16) throws {}
    mutating func encode(_ value: UInt32) throws {}
    mutating func encode(_ value: UInt64) throws {}
    mutating func encode<T: Encodable>(_ value: T) throws { try value.encode(to: FiniteNumberEncoder(codingPath: codingPath)) }
}
