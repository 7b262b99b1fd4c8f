import Foundation

/// Reads a flat JSON object of strings (`{"key": "text", ...}`), the string catalogs' format.
///
/// Every command reads nine catalogs at start; Foundation's `JSONSerialization` builds an
/// `NSDictionary` and bridges each value, several times the cost of this one pass over the bytes.
package enum FlatJSON {
    /// The object's keys and texts, or nil when the bytes are not a flat object of strings (a
    /// number, a nested object, a bad escape, text after the closing brace). Bytes that are not
    /// UTF-8 become U+FFFD, as `String(decoding:)` makes them.
    package static func strings(_ data: Data) -> [String: String]? {
        data.withUnsafeBytes { raw in
            var reader = Reader(bytes: raw.bindMemory(to: UInt8.self))
            return reader.object()
        }
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        mutating func object() -> [String: String]? {
            skipSpace()
            guard take(UInt8(ascii: "{")) else { return nil }
            var table: [String: String] = [:]
            skipSpace()
            if take(UInt8(ascii: "}")) { return finished(table) }
            while true {
                skipSpace()
                guard let key = string() else { return nil }
                skipSpace()
                guard take(UInt8(ascii: ":")) else { return nil }
                skipSpace()
                guard let value = string() else { return nil }
                table[key] = value
                skipSpace()
                if take(UInt8(ascii: ",")) { continue }
                guard take(UInt8(ascii: "}")) else { return nil }
                return finished(table)
            }
        }

        private mutating func finished(_ table: [String: String]) -> [String: String]? {
            skipSpace()
            return index == bytes.count ? table : nil
        }

        private mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        private mutating func skipSpace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x0A, 0x0D, 0x09: index += 1
                default: return
                }
            }
        }

        /// A string: decoded straight from the bytes when it has no escape (the file is UTF-8),
        /// else copied run by run with each escape replaced.
        private mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let first = index
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    index += 1
                    return String(decoding: UnsafeBufferPointer(rebasing: bytes[first..<index - 1]), as: UTF8.self)
                }
                if byte == UInt8(ascii: "\\") { return escapedString(from: first) }
                if byte < 0x20 { return nil }
                index += 1
            }
            return nil
        }

        private mutating func escapedString(from first: Int) -> String? {
            var utf8 = Array(bytes[first..<index])
            var start = index
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    utf8.append(contentsOf: bytes[start..<index])
                    index += 1
                    return String(decoding: utf8, as: UTF8.self)
                }
                if byte < 0x20 { return nil }
                guard byte == UInt8(ascii: "\\") else { index += 1; continue }
                utf8.append(contentsOf: bytes[start..<index])
                index += 1
                guard index < bytes.count else { return nil }
                let escaped = bytes[index]
                index += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escaped)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"):
                    guard let scalar = unicodeEscape() else { return nil }
                    utf8.append(contentsOf: Array(String(Character(scalar)).utf8))
                default: return nil
                }
                start = index
            }
            return nil
        }

        /// `\uXXXX` after the `u`, a surrogate pair as two escapes.
        private mutating func unicodeEscape() -> Unicode.Scalar? {
            guard let high = hex4() else { return nil }
            guard (0xD800..<0xDC00).contains(high) else { return Unicode.Scalar(high) }
            guard take(UInt8(ascii: "\\")), take(UInt8(ascii: "u")), let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
            return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
        }

        private mutating func hex4() -> UInt32? {
            guard index + 4 <= bytes.count else { return nil }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: return nil
                }
                value = value << 4 | UInt32(digit)
                index += 1
            }
            return value
        }
    }
}
