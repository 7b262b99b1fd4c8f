import Foundation
import HogwartsBase
import HogwartsKernel

/// One record as the records pages show it: an action's output encoded as the API encodes it
/// (snake case), with nested values reachable by dotted keys.
struct ConsoleRecordRow: Sendable {
    let id: String
    /// Flattened: `assessment.title`, `name.ar`; numbers and booleans as JSON writes them.
    let values: [String: String]

    /// The records in `output`: an array of them, or under `key` of an object.
    static func rows(of output: some Encodable, at key: String?) throws -> [ConsoleRecordRow] {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let json = try JSONDecoder().decode(JSONValue.self, from: encoder.encode(output))
        var list = json
        if let key {
            guard case .object(let object) = json, let inner = object[key] else { throw noList }
            list = inner
        }
        guard case .array(let records) = list else { throw noList }
        return records.map { record in
            var values: [String: String] = [:]
            record.flatten(into: &values, prefix: "")
            return ConsoleRecordRow(id: values["id"] ?? "", values: values)
        }
    }

    private static var noList: KernelError { KernelError.storage("a records page's list action answers no list") }

    /// JSON as an action's output encodes: what a record's values are read from.
    private indirect enum JSONValue: Decodable {
        case text(String), number(String), bool(Bool), array([JSONValue]), object([String: JSONValue]), null

        init(from decoder: any Decoder) throws {
            let single = try decoder.singleValueContainer()
            if single.decodeNil() { self = .null }
            else if let value = try? single.decode(Bool.self) { self = .bool(value) }
            else if let value = try? single.decode(Int64.self) { self = .number(String(value)) }
            else if let value = try? single.decode(Double.self) { self = .number(String(value)) }
            else if let value = try? single.decode(String.self) { self = .text(value) }
            else if let value = try? single.decode([JSONValue].self) { self = .array(value) }
            else { self = .object(try single.decode([String: JSONValue].self)) }
        }

        func flatten(into values: inout [String: String], prefix: String) {
            switch self {
            case .object(let object): for (key, value) in object { value.flatten(into: &values, prefix: prefix.isEmpty ? key : prefix + "." + key) }
            case .text(let text): values[prefix] = text
            case .number(let number): values[prefix] = number
            case .bool(let value): values[prefix] = value ? "true" : "false"
            case .array(let items): values[prefix] = items.compactMap { if case .text(let text) = $0 { text } else { nil } }.joined(separator: ", ")
            case .null: break
            }
        }
    }

    /// A column's value in words: a text in both languages in the page's language, a coded
    /// value in the column's words, yes or no for a boolean; nil when the record has none.
    func text(_ column: ConsoleRecordColumn, _ console: ConsoleRequest) -> String? {
        if let ar = values[column.key + ".ar"], let en = values[column.key + ".en"] {
            return LocalizedText(ar: ar, en: en).text(in: console.language)
        }
        guard let value = values[column.key], !value.isEmpty else { return nil }
        if let words = column.words[value] { return console.say(words) }
        if value == "true" || value == "false", column.words.isEmpty {
            return console.say(value == "true" ? ConsoleRecordWords.yes : ConsoleRecordWords.no)
        }
        return value
    }
}
