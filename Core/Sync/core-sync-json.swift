import Foundation
import HogwartsKernel
import HogwartsHTTP

/// JSON values read back: mutation args, stored payloads and results. Whole numbers stay
/// integers, so a payload read from the change log is written out exactly as it went in.
extension APIValue: Decodable {
    public init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var values: [APIValue] = []
            while !array.isAtEnd { values.append(try array.decode(APIValue.self)) }
            self = .array(values)
            return
        }
        if let object = try? decoder.container(keyedBy: APIValueKey.self) {
            var members: [String: APIValue] = [:]
            for key in object.allKeys { members[key.stringValue] = try object.decode(APIValue.self, forKey: key) }
            self = .object(members)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let value = try? single.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? single.decode(Int.self) {
            self = .int(value)
        } else if let value = try? single.decode(Double.self) {
            self = .double(value)
        } else {
            self = .string(try single.decode(String.self))
        }
    }
}

/// The sync wire's JSON: camelCase keys, the API's date format, keys sorted so the same value
/// always gives the same text (the change recorder compares payloads by their text).
enum SyncJSON {
    static func encoder() -> JSONEncoder {
        let encoder = APIJSON.encoder(.camelCase)
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    static func text(_ value: some Encodable) throws -> String {
        String(decoding: try encoder().encode(value), as: UTF8.self)
    }

    static func value(of encodable: some Encodable) throws -> APIValue {
        try APIValueParser.parse(try encoder().encode(encodable))
    }

    static func value(text: String) throws -> APIValue {
        try APIValueParser.parse(text)
    }

    /// A mutation's args as the action's input: a wrong field is a rejection naming it.
    static func decode<T: Decodable>(_ type: T.Type, from value: APIValue) throws -> T {
        do {
            return try APIJSON.decoder(.camelCase).decode(T.self, from: try encoder().encode(value))
        } catch let error as DecodingError {
            throw APIError.from(error)
        }
    }
}
