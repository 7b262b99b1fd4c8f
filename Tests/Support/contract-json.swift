import Foundation

/// Reads an answer as the mobile contract's clients do: dates are `toISOString()` instants
/// (`2026-11-28T05:00:00.000Z`), and anything else in a date field is an error.
public enum ContractJSON {
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            let reader = ISO8601DateFormatter()
            reader.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            guard let date = reader.date(from: text) else { throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: text)) }
            return date
        }
        return decoder
    }
}
