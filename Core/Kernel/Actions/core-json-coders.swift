import Foundation
import HogwartsBase

/// The contract writes snake_case keys, except for conversations and messages (camelCase).
public enum APIKeyStyle: Sendable {
    case snakeCase
    case camelCase
}

/// The JSON coders of the API: dates as `2026-11-23T08:00:00.000Z` (the web app's
/// `toISOString()`), keys in the route's style. Non-finite numbers are refused, never written.
public enum APIJSON {
    public static func encoder(_ keys: APIKeyStyle) -> JSONEncoder {
        let encoder = JSONEncoder()
        if keys == .snakeCase { encoder.keyEncodingStrategy = .convertToSnakeCase }
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(SQLDateFormat.string(from: date))
        }
        return encoder
    }

    public static func decoder(_ keys: APIKeyStyle) -> JSONDecoder {
        let decoder = JSONDecoder()
        if keys == .snakeCase { decoder.keyDecodingStrategy = .convertFromSnakeCase }
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = SQLDateFormat.date(from: text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an ISO 8601 time")
            }
            return date
        }
        return decoder
    }
}
