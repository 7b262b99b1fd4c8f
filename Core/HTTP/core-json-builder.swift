import Foundation
import HogwartsBase

/// JSON written by hand, piece by piece, for the body of a hot route (the student list, the
/// class register). Going through `Encodable` costs boxed containers, generic metadata look-ups
/// and exclusivity checks on every key: on the register route that was a seventh of the server's
/// CPU. A module that writes its body this way proves in a test that the JSON is what
/// `APIResponse.json` would answer; strings are escaped as every answer's (`JSONText`) and dates
/// written as every answer's.
public struct JSONBuilder {
    public private(set) var bytes: [UInt8] = []

    public init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    /// Punctuation and keys, written as they are: `{"id":`, `,`, `]}`.
    public mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    public mutating func string(_ text: String) {
        JSONText.append(text, to: &bytes)
    }

    /// A string, or `null`.
    public mutating func string(_ text: String?) {
        if let text { string(text) } else { raw("null") }
    }

    public mutating func integer(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)
    }

    /// A point in time as the API writes every date.
    public mutating func date(_ date: Date) {
        string(SQLDateFormat.string(from: date))
    }

    public var data: Data { Data(bytes) }
}
