import HogwartsKernel

/// The shape of a request or response body, written next to its route, from which the
/// OpenAPI document is made. Object properties are required unless wrapped in `.optional`.
public indirect enum APISchema: Sendable {
    case string(format: String? = nil, values: [String]? = nil, maxLength: Int? = nil)
    case integer(minimum: Int? = nil, maximum: Int? = nil)
    case number
    case boolean
    case array(APISchema)
    case object([(String, APISchema)])
    /// A free-form object, such as a notification's metadata.
    case anyObject
    /// The value may be null (the key is still there).
    case nullable(APISchema)
    /// The key may be absent (request fields a client may leave out, fields only some roles get).
    case optional(APISchema)

    public static let id: APISchema = .string()
    public static let text: APISchema = .string()
    /// `YYYY-MM-DD`.
    public static let date: APISchema = .string(format: "date")
    /// `2026-11-23T08:00:00.000Z`.
    public static let dateTime: APISchema = .string(format: "date-time")

    public static func values(_ values: [String]) -> APISchema { .string(values: values) }

    /// One of an enum's raw values.
    public static func values<E: RawRepresentable & CaseIterable>(of type: E.Type) -> APISchema where E.RawValue == String {
        .string(values: E.allCases.map(\.rawValue))
    }

    /// `{data, total, page, per_page}`.
    public static func page(of item: APISchema) -> APISchema {
        .object([("data", .array(item)), ("total", .integer(minimum: 0)), ("page", .integer(minimum: 1)), ("per_page", .integer(minimum: 1))])
    }

    /// `{"data": [...]}`, the contract's unpaged lists.
    public static func list(of item: APISchema) -> APISchema { .object([("data", .array(item))]) }

    /// `{"success": true}`.
    public static let success: APISchema = .object([("success", .boolean)])

    /// The JSON Schema (OpenAPI 3.1) of this shape.
    package var json: APIValue {
        switch self {
        case .string(let format, let values, let maxLength):
            var object: [String: APIValue] = ["type": "string"]
            if let format { object["format"] = .string(format) }
            if let values { object["enum"] = .array(values.map(APIValue.string)) }
            if let maxLength { object["maxLength"] = .int(maxLength) }
            return .object(object)
        case .integer(let minimum, let maximum):
            var object: [String: APIValue] = ["type": "integer"]
            if let minimum { object["minimum"] = .int(minimum) }
            if let maximum { object["maximum"] = .int(maximum) }
            return .object(object)
        case .number: return ["type": "number"]
        case .boolean: return ["type": "boolean"]
        case .array(let item): return ["type": "array", "items": item.json]
        case .anyObject: return ["type": "object"]
        case .optional(let inner): return inner.json
        case .nullable(let inner):
            guard case .object(var object) = inner.json else { return inner.json }
            if let values = object["enum"], case .array(let list) = values { object["enum"] = .array(list + [.null]) }
            if let type = object["type"], case .string(let name) = type { object["type"] = .array([.string(name), "null"]) }
            return .object(object)
        case .object(let properties):
            let required = properties.filter { if case .optional = $0.1 { false } else { true } }.map { APIValue.string($0.0) }
            return .object([
                "type": "object",
                "properties": .object(Dictionary(properties.map { ($0.0, $0.1.json) }, uniquingKeysWith: { first, _ in first })),
                "required": .array(required),
            ])
        }
    }
}
