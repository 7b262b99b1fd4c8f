import Foundation
import HogwartsKernel

/// JSON text back into an `APIValue`, read by hand: a pull reads back every change's stored
/// payload (a teacher's new device, tens of thousands), and `JSONDecoder` through `APIValue`'s
/// `Decodable` (which tries each kind of container in turn, throwing on each miss) cost most of
/// the pull. Gives what `JSONDecoder` gives for the same text, numbers included: a number with
/// a whole value that fits an `Int` is an `.int`, as `1.0` and `1e2` decode as `Int` there.
/// Stricter than Foundation's parser, which also takes a trailing comma or a NUL before a value.
package struct APIValueParser {
    /// Deeper than any payload: hostile text cannot exhaust the stack.
    package static let maximumDepth = 512

    private let bytes: [UInt8]
    private var index = 0

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The value `text` holds; `DecodingError.dataCorrupted` naming the byte where it is not JSON.
    package static func parse(_ text: String) throws -> APIValue {
        try parse(bytes: Array(text.utf8))
    }

    /// The value in `data` (an encoder's output), read without first making it a `String`.
    static func parse(_ data: Data) throws -> APIValue {
        try parse(bytes: [UInt8](data))
    }

    private static func parse(bytes: [UInt8]) throws -> APIValue {
        var parser = APIValueParser(bytes)
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == parser.bytes.count else { throw parser.corrupted("text after the value") }
        return value
    }

    private mutating func value(depth: Int) throws -> APIValue {
        guard depth < Self.maximumDepth else { throw corrupted("nested too deeply") }
        skipWhitespace()
        guard let byte = peek() else { throw corrupted("a value is missing") }
        switch byte {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default: return try number()
        }
    }

    private mutating func object(depth: Int) throws -> APIValue {
        index += 1
        // Room for a typical stored row (and the version the pull adds) without growing.
        var members = [String: APIValue](minimumCapacity: 12)
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw corrupted("a key is missing") }
            let key = try string()
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw corrupted("':' is missing") }
            index += 1
            // A repeated key keeps its first value, as JSONDecoder does (one hash when it is not repeated).
            if let first = members.updateValue(try value(depth: depth + 1), forKey: key) { members[key] = first }
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .object(members)
            default: throw corrupted("',' or '}' is missing")
            }
        }
    }

    private mutating func array(depth: Int) throws -> APIValue {
        index += 1
        var values: [APIValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            return .array(values)
        }
        while true {
            values.append(try value(depth: depth + 1))
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(values)
            default: throw corrupted("',' or ']' is missing")
            }
        }
    }

    /// A quoted string; runs without escapes are copied as they are.
    private mutating func string() throws -> String {
        index += 1
        var result = ""
        var runStart = index
        while let byte = peek() {
            switch byte {
            case UInt8(ascii: "\""):
                result += String(decoding: bytes[runStart..<index], as: UTF8.self)
                index += 1
                return result
            case UInt8(ascii: "\\"):
                result += String(decoding: bytes[runStart..<index], as: UTF8.self)
                index += 1
                result.unicodeScalars.append(try escape())
                runStart = index
            case 0..<0x20:
                throw corrupted("a control character in a string")
            default:
                index += 1
            }
        }
        throw corrupted("a string is not closed")
    }

    /// The character after a backslash (and its four hex digits, with a second `\u` for a surrogate pair).
    private mutating func escape() throws -> Unicode.Scalar {
        guard let byte = peek() else { throw corrupted("an escape is cut off") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let unit = try hexUnit()
            if (0xD800..<0xDC00).contains(unit) {
                guard peek() == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                    throw corrupted("a lone surrogate")
                }
                index += 2
                let low = try hexUnit()
                guard (0xDC00..<0xE000).contains(low) else { throw corrupted("a lone surrogate") }
                let combined = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                guard let scalar = Unicode.Scalar(combined) else { throw corrupted("a lone surrogate") }
                return scalar
            }
            guard let scalar = Unicode.Scalar(unit) else { throw corrupted("a lone surrogate") }
            return scalar
        default:
            throw corrupted("an unknown escape")
        }
    }

    private mutating func hexUnit() throws -> UInt32 {
        guard index + 4 <= bytes.count else { throw corrupted("an escape is cut off") }
        var unit: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            guard let digit = Self.hexDigit(byte) else { throw corrupted("an escape's hex digits") }
            unit = unit << 4 | digit
        }
        index += 4
        return unit
    }

    private static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`, checked before it is converted.
    private mutating func number() throws -> APIValue {
        let start = index
        if peek() == UInt8(ascii: "-") { index += 1 }
        if peek() == UInt8(ascii: "0") {
            index += 1
        } else {
            guard digits() > 0 else { throw corrupted("not a JSON value") }
        }
        var whole = true
        if peek() == UInt8(ascii: ".") {
            index += 1
            whole = false
            guard digits() > 0 else { throw corrupted("a digit after '.' is missing") }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            index += 1
            whole = false
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw corrupted("an exponent's digits are missing") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if whole, let integer = Int(text) { return .int(integer) }
        guard let double = Double(text), double.isFinite else { throw corrupted("a number out of range") }
        // As JSONDecoder: a whole number that fits is an Int, however it was written.
        if double == double.rounded(), double >= -0x1p63, double < 0x1p63 { return .int(Int(double)) }
        return .double(double)
    }

    private mutating func digits() -> Int {
        let start = index
        while let byte = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
        return index - start
    }

    private mutating func literal(_ word: String) throws {
        let count = word.utf8.count
        guard index + count <= bytes.count, bytes[index..<index + count].elementsEqual(word.utf8) else { throw corrupted("not a JSON value") }
        index += count
    }

    private mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    private func peek() -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    private func corrupted(_ problem: String) -> DecodingError {
        DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "Not valid JSON at byte \(index): \(problem)."))
    }
}
