import Foundation
import HogwartsKernel

/// A record form's fields made into the action's typed input, decoded as the API decodes a body
/// (snake-case names), and the field a problem belongs to.
enum ConsoleRecordInput {
    /// A value typed into a form, ready to encode.
    indirect enum Value: Encodable, Sendable {
        case text(String), decimal(Double), integer(Int), bool(Bool), object([String: Value])

        func encode(to encoder: any Encoder) throws {
            var single = encoder.singleValueContainer()
            switch self {
            case .text(let text): try single.encode(text)
            case .decimal(let number): try single.encode(number)
            case .integer(let number): try single.encode(number)
            case .bool(let value): try single.encode(value)
            case .object(let object): try single.encode(object)
            }
        }
    }

    /// The field's problem when it was typed wrong, else nothing; `values` gets the typed value
    /// under its dotted name, or nothing when it was left empty and may be.
    static func read(_ field: ConsoleRecordField, _ text: String?, into values: inout [String: Value]) -> LocalizedText? {
        let typed = (text ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        if case .checkbox = field.kind {
            values[field.name] = .bool(text == "on")
            return nil
        }
        guard !typed.isEmpty else { return field.required ? ConsoleRecordWords.fillIn : nil }
        switch field.kind {
        case .decimal:
            guard let number = StrictNumber.decimal(typed) else { return ConsoleRecordWords.number }
            values[field.name] = .decimal(number)
        case .integer:
            guard let number = StrictNumber.integer(typed) else { return ConsoleRecordWords.wholeNumber }
            values[field.name] = .integer(number)
        default:
            values[field.name] = .text(typed)
        }
        return nil
    }

    /// The input from dotted names (`name.ar`) and their values.
    static func decode<Input: Decodable>(_ type: Input.Type, from values: [String: Value]) throws -> Input {
        var root: [String: Value] = [:]
        for (name, value) in values { insert(value, at: name.split(separator: ".").map(String.init)[...], into: &root) }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(Input.self, from: JSONEncoder().encode(root))
    }

    private static func insert(_ value: Value, at path: ArraySlice<String>, into object: inout [String: Value]) {
        guard let first = path.first else { return }
        guard path.count > 1 else {
            object[first] = value
            return
        }
        var inner: [String: Value] = [:]
        if case .object(let existing) = object[first] { inner = existing }
        insert(value, at: path.dropFirst(), into: &inner)
        object[first] = .object(inner)
    }

    /// The dotted snake-case name of the value a decoding error is about (`name.ar`).
    static func fieldName(of error: DecodingError) -> String? {
        let path: [any CodingKey]
        switch error {
        case .keyNotFound(let key, let context): path = context.codingPath + [key]
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context): path = context.codingPath
        @unknown default: return nil
        }
        guard !path.isEmpty else { return nil }
        return path.map { snakeCase($0.stringValue) }.joined(separator: ".")
    }

    /// `startsAt` → `starts_at`, as the API's key strategy spells it.
    static func snakeCase(_ name: String) -> String {
        var out = ""
        for character in name {
            if character.isUppercase {
                if !out.isEmpty { out += "_" }
                out += character.lowercased()
            } else {
                out.append(character)
            }
        }
        return out
    }

    /// Whether an error's field argument (`starts_on`, `name-ar`, `<code>`) names this form field.
    static func names(_ argument: String, _ field: String) -> Bool {
        func plain(_ text: String) -> String {
            text.lowercased().filter { $0.isLetter || $0.isNumber }
        }
        return plain(argument) == plain(field)
    }
}
