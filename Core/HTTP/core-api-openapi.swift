import Foundation
import HogwartsBase
import HogwartsKernel

/// `GET /openapi.json`: one OpenAPI 3.1 document for every route, made from the routes'
/// own declarations, so a module that adds a route adds its documentation with it.
struct OpenAPIDocument {
    let server: APIServer

    func data() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(document)
    }

    var document: APIValue {
        var paths: [String: [String: APIValue]] = [:]
        for (module, route) in server.routes {
            paths[Self.openAPIPath(route.path), default: [:]][route.method.rawValue.lowercased()] = operation(route, module: module)
        }
        return .object([
            "openapi": "3.1.0",
            "info": .object(["title": "Hogwarts API", "version": .string(PlatformVersion.current.description),
                             "description": "The school platform's HTTP API: the mobile contract under /api/mobile, the kernel's own routes, errors as {error, code, details}."]),
            "paths": .object(paths.mapValues { .object($0) }),
            "components": .object([
                "securitySchemes": ["bearer": ["type": "http", "scheme": "bearer", "bearerFormat": "JWT"]],
                "schemas": ["Error": APISchema.object([("error", .text), ("code", .text),
                                                      ("details", .array(.object([("field", .text), ("reason", .text)])))]).json],
            ]),
            "security": [["bearer": []]],
        ])
    }

    private func operation(_ route: APIRoute, module: ModuleID?) -> APIValue {
        var parameters: [APIValue] = route.pathParameters.map { name in
            ["name": .string(name), "in": "path", "required": true, "schema": APISchema.text.json]
        }
        parameters += route.query.map { parameter in
            ["name": .string(parameter.name), "in": "query", "required": .bool(parameter.required), "schema": parameter.schema.json]
        }
        parameters += route.headers.map { header in
            ["name": .string(header.name), "in": "header", "required": .bool(header.required), "schema": header.schema.json]
        }
        if route.method != .get {
            parameters.append(["name": "Idempotency-Key", "in": "header", "required": false, "schema": APISchema.text.json,
                               "description": "A client's id for this write: a retry with the same key answers the first result and changes nothing again"])
        }
        // Any value is accepted: a language other than ar or en falls back to Arabic.
        parameters.append(["name": "Accept-Language", "in": "header", "required": false, "schema": APISchema.text.json,
                           "description": "ar (default) or en, with q-values"])
        let contentType = route.contentType
        var responses: [String: APIValue] = [
            "default": ["description": "An error", "content": ["application/json": ["schema": ["$ref": "#/components/schemas/Error"]]]],
        ]
        for status in [route.status] + route.otherStatuses {
            responses[String(status)] = ["description": "Success", "content": .object([contentType: ["schema": route.response.json]])]
        }
        var operation: [String: APIValue] = [
            "operationId": .string(Self.operationID(route)),
            "summary": .string(route.summary),
            "tags": [.string(module ?? "kernel")],
            "parameters": .array(parameters),
            "responses": .object(responses),
        ]
        if let body = route.body {
            operation["requestBody"] = ["required": true, "content": ["application/json": ["schema": body.json]]]
        }
        if route.access == .everyone { operation["security"] = [] }
        return .object(operation)
    }

    /// `/students/:studentId` → `/students/{studentId}`.
    static func openAPIPath(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { part in
            part.hasPrefix(":") ? "{\(part.dropFirst())}" : String(part)
        }.joined(separator: "/")
    }

    static func operationID(_ route: APIRoute) -> String {
        let words = route.path.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map { String($0) }
        return route.method.rawValue.lowercased() + words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}
