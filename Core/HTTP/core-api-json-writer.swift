import Foundation
import HogwartsBase
import HogwartsKernel

/// The API's JSON encoder: any `Encodable` written straight into bytes as it is encoded.
///
/// Foundation's `JSONEncoder` builds a tree of boxed values first, then converts every key of
/// every object to snake_case and serializes the tree: on the class register route that was a
/// fifth of the server's CPU. This writer produces the same JSON (a test parses both and
/// compares them for every shape the API answers): keys in the route's style, converted once
/// per distinct key; dates as `SQLDateFormat` text; `Data` as base64; nil optionals left out as
/// the synthesized `Codable` leaves them; NaN and infinity refused. Differences that change no
/// meaning: keys stay in declaration order, and `/` is not escaped.
package struct APIJSONWriter {
    /// Encodes `value` as one JSON document.
    package static func encode(_ value: some Encodable, keys: APIKeyStyle) throws -> Data {
        let encoder = StreamingJSONEncoder(snakeCase: keys == .snakeCase)
        try encoder.value(value)
        return Data(encoder.bytes)
    }
}

/// JSON text written into bytes, for the API's writers (this file's encoder, and a module's
/// hand-written body on a hot route).
public enum JSONText {
    /// A JSON string: `"` and `\` escaped, control characters escaped, everything else as UTF-8.
    public static func append(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            guard utf8.contains(where: needsEscape) else {
                bytes.append(contentsOf: utf8)
                return
            }
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                    bytes.append(UInt8(ascii: "\\"))
                    bytes.append(byte)
                case UInt8(ascii: "\n"): bytes.append(contentsOf: #"\n"#.utf8)
                case UInt8(ascii: "\r"): bytes.append(contentsOf: #"\r"#.utf8)
                case UInt8(ascii: "\t"): bytes.append(contentsOf: #"\t"#.utf8)
                case ..<0x20:
                    bytes.append(contentsOf: #"\u00"#.utf8)
                    bytes.append(hexDigits[Int(byte >> 4)])
                    bytes.append(hexDigits[Int(byte & 0x0F)])
                default:
                    bytes.append(byte)
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}

/// The encoder a value's `encode(to:)` writes through. Containers are written as they are
/// opened: a container stays open until its parent writes its next element or the value that
/// opened it returns, which is the order every synthesized `Codable` encodes in.
final class StreamingJSONEncoder: Encoder {
    private(set) var bytes: [UInt8] = []
    var codingPath: [any CodingKey] = []
    let userInfo: [CodingUserInfoKey: Any] = [:]
    private let snakeCase: Bool
    /// Keys of containers a value nests itself are converted as a struct's are.
    var convertsKeys: Bool { snakeCase }
    /// Open objects and arrays, innermost last, with how many elements each has so far.
    private var open: [(isObject: Bool, count: Int)] = []
    /// Where the value being encoded begins: its own containers sit above this depth.
    private var valueDepth = 0
    /// The keyed container the current value opened, reused if it asks again (a class and its subclass).
    private var valueObject: Int?
    /// Whether the current value is a dictionary with text keys: JSONEncoder writes those keys as they are.
    private var valueKeysVerbatim = false

    init(snakeCase: Bool) {
        self.snakeCase = snakeCase
        bytes.reserveCapacity(4096)
    }

    // MARK: Values

    func value<T: Encodable>(_ value: T) throws {
        // Comparing types first: a cast on every value was a visible cost.
        if T.self == Date.self || T.self == Data.self || T.self == URL.self || T.self == Decimal.self {
            switch value {
            case let date as Date: string(SQLDateFormat.string(from: date))
            case let data as Data: string(data.base64EncodedString())
            case let url as URL: string(url.absoluteString)
            case let decimal as Decimal: raw(decimal.description)
            default: break
            }
        } else {
            let start = bytes.count
            let (outerDepth, outerObject, outerVerbatim) = (valueDepth, valueObject, valueKeysVerbatim)
            valueDepth = open.count
            valueObject = nil
            valueKeysVerbatim = T.self is any TextKeyedDictionary.Type
            defer { (valueDepth, valueObject, valueKeysVerbatim) = (outerDepth, outerObject, outerVerbatim) }
            try value.encode(to: self)
            close(above: valueDepth)
            // A value that encodes nothing is an empty object, as JSONEncoder writes it.
            if bytes.count == start { raw("{}") }
        }
    }

    func double(_ value: Double) throws {
        guard value.isFinite else { throw notFinite(value) }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        raw(text)
    }

    func float(_ value: Float) throws {
        guard value.isFinite else { throw notFinite(value) }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        raw(text)
    }

    func integer(_ value: some BinaryInteger) {
        raw(String(value))
    }

    func bool(_ value: Bool) {
        raw(value ? "true" : "false")
    }

    func null() {
        raw("null")
    }

    func string(_ text: String) {
        JSONText.append(text, to: &bytes)
    }

    private func raw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    private func notFinite(_ value: Any) -> EncodingError {
        EncodingError.invalidValue(value, EncodingError.Context(codingPath: codingPath, debugDescription: "not a finite number: \(value)"))
    }

    // MARK: Containers

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let convertsKeys = snakeCase && !valueKeysVerbatim
        if let valueObject, valueObject < open.count {
            return KeyedEncodingContainer(ObjectWriter(encoder: self, depth: valueObject, convertsKeys: convertsKeys, codingPath: codingPath))
        }
        let depth = openContainer(isObject: true)
        valueObject = depth
        return KeyedEncodingContainer(ObjectWriter(encoder: self, depth: depth, convertsKeys: convertsKeys, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        ArrayWriter(encoder: self, depth: openContainer(isObject: false), codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueWriter(encoder: self, codingPath: codingPath)
    }

    /// Writes `{` or `[` at the current position and returns the new container's depth.
    func openContainer(isObject: Bool) -> Int {
        bytes.append(UInt8(ascii: isObject ? "{" : "["))
        open.append((isObject, 0))
        return open.count - 1
    }

    /// Closes every container deeper than `depth` (a nested one its parent has moved past).
    func close(above depth: Int) {
        while open.count > depth {
            let container = open.removeLast()
            bytes.append(UInt8(ascii: container.isObject ? "}" : "]"))
        }
    }

    /// Before an element of the container at `depth`: closes what is nested in it and writes the comma.
    func startElement(at depth: Int) {
        close(above: depth + 1)
        if open[depth].count > 0 { bytes.append(UInt8(ascii: ",")) }
        open[depth].count += 1
    }

    /// `"key":`, in the route's style unless `converted` is false (a dictionary's own keys).
    func key(named name: String, converted: Bool) {
        string(converted ? SnakeCaseKeys.convert(name) : name)
        bytes.append(UInt8(ascii: ":"))
    }

    func elementCount(at depth: Int) -> Int {
        depth < open.count ? open[depth].count : 0
    }
}

/// A keyed container: each element is `"key":value` in the object at `depth`.
private struct ObjectWriter<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: StreamingJSONEncoder
    let depth: Int
    let convertsKeys: Bool
    var codingPath: [any CodingKey]

    private func element(_ key: Key, _ write: () throws -> Void) rethrows {
        encoder.startElement(at: depth)
        encoder.key(named: key.stringValue, converted: convertsKeys)
        try write()
    }

    mutating func encodeNil(forKey key: Key) throws { element(key) { encoder.null() } }
    mutating func encode(_ value: Bool, forKey key: Key) throws { element(key) { encoder.bool(value) } }
    mutating func encode(_ value: String, forKey key: Key) throws { element(key) { encoder.string(value) } }
    mutating func encode(_ value: Double, forKey key: Key) throws { try element(key) { try encoder.double(value) } }
    mutating func encode(_ value: Float, forKey key: Key) throws { try element(key) { try encoder.float(value) } }
    mutating func encode(_ value: Int, forKey key: Key) throws { element(key) { encoder.integer(value) } }
    mutating func encode(_ value: Int8, forKey key: Key) throws { element(key) { encoder.integer(value) } }
    mutating func encode(_ value: Int16, forKey key: Key) throws { element(key) { encoder.integer(value) } }
    mutating func encode(_ value: Int32, forKey key: Key) throws { element(key) { encoder.integer(value) } }
    mutating func encode(_ value: Int64, forKey key: Key) throws { element(key) { encoder.integer(value) } }
    mutating func encode(_ value: UInt, forKey key: Key) throws { element(key) { encoder.integer(value) } }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { element(key) { encoder.integer(value) } }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { element(key) { encoder.integer(value) } }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { element(key) { encoder.integer(value) } }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { element(key) { encoder.integer(value) } }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        encoder.codingPath = codingPath + [key]
        defer { encoder.codingPath = codingPath }
        try element(key) { try encoder.value(value) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        element(key) {}
        return KeyedEncodingContainer(ObjectWriter<NestedKey>(encoder: encoder, depth: encoder.openContainer(isObject: true), convertsKeys: convertsKeys, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        element(key) {}
        return ArrayWriter(encoder: encoder, depth: encoder.openContainer(isObject: false), codingPath: codingPath + [key])
    }

    /// Written in place: the caller encodes into it before its next key, as class hierarchies do.
    mutating func superEncoder() -> any Encoder {
        encoder.startElement(at: depth)
        encoder.key(named: "super", converted: false)
        return encoder
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        element(key) {}
        return encoder
    }
}

/// An unkeyed container: the array at `depth`.
private struct ArrayWriter: UnkeyedEncodingContainer {
    let encoder: StreamingJSONEncoder
    let depth: Int
    var codingPath: [any CodingKey]
    var count: Int { encoder.elementCount(at: depth) }

    private func element(_ write: () throws -> Void) rethrows {
        encoder.startElement(at: depth)
        try write()
    }

    mutating func encodeNil() throws { element { encoder.null() } }
    mutating func encode(_ value: Bool) throws { element { encoder.bool(value) } }
    mutating func encode(_ value: String) throws { element { encoder.string(value) } }
    mutating func encode(_ value: Double) throws { try element { try encoder.double(value) } }
    mutating func encode(_ value: Float) throws { try element { try encoder.float(value) } }
    mutating func encode(_ value: Int) throws { element { encoder.integer(value) } }
    mutating func encode(_ value: Int8) throws { element { encoder.integer(value) } }
    mutating func encode(_ value: Int16) throws { element { encoder.integer(value) } }
    mutating func encode(_ value: Int32) throws { element { encoder.integer(value) } }
    mutating func encode(_ value: Int64) throws { element { encoder.integer(value) } }
    mutating func encode(_ value: UInt) throws { element { encoder.integer(value) } }
    mutating func encode(_ value: UInt8) throws { element { encoder.integer(value) } }
    mutating func encode(_ value: UInt16) throws { element { encoder.integer(value) } }
    mutating func encode(_ value: UInt32) throws { element { encoder.integer(value) } }
    mutating func encode(_ value: UInt64) throws { element { encoder.integer(value) } }
    mutating func encode<T: Encodable>(_ value: T) throws { try element { try encoder.value(value) } }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        element {}
        return KeyedEncodingContainer(ObjectWriter<NestedKey>(encoder: encoder, depth: encoder.openContainer(isObject: true), convertsKeys: encoder.convertsKeys, codingPath: codingPath))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        element {}
        return ArrayWriter(encoder: encoder, depth: encoder.openContainer(isObject: false), codingPath: codingPath)
    }

    mutating func superEncoder() -> any Encoder {
        element {}
        return encoder
    }
}

/// A single value, written where the value stands.
private struct SingleValueWriter: SingleValueEncodingContainer {
    let encoder: StreamingJSONEncoder
    var codingPath: [any CodingKey]

    mutating func encodeNil() throws { encoder.null() }
    mutating func encode(_ value: Bool) throws { encoder.bool(value) }
    mutating func encode(_ value: String) throws { encoder.string(value) }
    mutating func encode(_ value: Double) throws { try encoder.double(value) }
    mutating func encode(_ value: Float) throws { try encoder.float(value) }
    mutating func encode(_ value: Int) throws { encoder.integer(value) }
    mutating func encode(_ value: Int8) throws { encoder.integer(value) }
    mutating func encode(_ value: Int16) throws { encoder.integer(value) }
    mutating func encode(_ value: Int32) throws { encoder.integer(value) }
    mutating func encode(_ value: Int64) throws { encoder.integer(value) }
    mutating func encode(_ value: UInt) throws { encoder.integer(value) }
    mutating func encode(_ value: UInt8) throws { encoder.integer(value) }
    mutating func encode(_ value: UInt16) throws { encoder.integer(value) }
    mutating func encode(_ value: UInt32) throws { encoder.integer(value) }
    mutating func encode(_ value: UInt64) throws { encoder.integer(value) }
    mutating func encode<T: Encodable>(_ value: T) throws { try encoder.value(value) }
}

/// `[String: V]`: JSONEncoder leaves its keys as they are, whatever the key strategy.
private protocol TextKeyedDictionary {}
extension Dictionary: TextKeyedDictionary where Key == String {}
