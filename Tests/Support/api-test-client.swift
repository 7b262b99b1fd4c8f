import Core
import Foundation
import Hummingbird
import HummingbirdTesting
import HTTPTypes
import Logging
import NIOPosix

/// A response as a test reads it: status, headers, and the body as JSON.
public struct APITestResponse: Sendable {
    public let status: Int
    public let headers: [String: String]
    public let body: Data

    /// The body as a JSON object (empty when it is not one).
    public var object: [String: Any] {
        (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
    }

    /// The body as a JSON array (empty when it is not one).
    public var array: [[String: Any]] {
        (try? JSONSerialization.jsonObject(with: body)) as? [[String: Any]] ?? []
    }

    /// `data` of a list answer.
    public var data: [[String: Any]] { object["data"] as? [[String: Any]] ?? [] }

    /// The error code of an error answer.
    public var code: String? { object["code"] as? String }

    public var text: String { String(decoding: body, as: UTF8.self) }
}

/// Drives the API's router without a socket, the way a phone would: with a bearer token for a
/// principal, JSON bodies and `Accept-Language`.
public struct APITestClient: Sendable {
    let client: any TestClientProtocol
    public let server: APIServer

    /// An access token for `principal`, as a sign-in would give.
    public func token(for principal: Principal) async throws -> String {
        try await server.tokens.issue(for: principal, email: nil).accessToken
    }

    /// Sends a request as `principal` (nil: no token). `json` is any JSONSerialization value;
    /// `raw` sends text as is (malformed JSON tests).
    public func request(_ method: HTTPRequest.Method, _ path: String, as principal: Principal? = nil, json: Any? = nil, raw: String? = nil,
                        headers: [String: String] = [:]) async throws -> APITestResponse {
        var fields = HTTPFields()
        if let principal { fields[.authorization] = "Bearer " + (try await token(for: principal)) }
        for (name, value) in headers {
            if let field = HTTPField.Name(name) { fields[field] = value }
        }
        var body: ByteBuffer?
        if let json {
            body = ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: json))
            fields[.contentType] = "application/json"
        } else if let raw {
            body = ByteBuffer(string: raw)
            fields[.contentType] = "application/json"
        }
        return try await client.execute(uri: path, method: method, headers: fields, body: body) { response in
            var headers: [String: String] = [:]
            for field in response.headers { headers[field.name.canonicalName] = field.value }
            return APITestResponse(status: response.status.code, headers: headers, body: Data(buffer: response.body))
        }
    }

    public func get(_ path: String, as principal: Principal? = nil, headers: [String: String] = [:]) async throws -> APITestResponse {
        try await request(.get, path, as: principal, headers: headers)
    }

    public func post(_ path: String, as principal: Principal? = nil, json: Any = [String: Any](), headers: [String: String] = [:]) async throws -> APITestResponse {
        try await request(.post, path, as: principal, json: json, headers: headers)
    }

    public func put(_ path: String, as principal: Principal? = nil, json: Any = [String: Any](), headers: [String: String] = [:]) async throws -> APITestResponse {
        try await request(.put, path, as: principal, json: json, headers: headers)
    }

    public func patch(_ path: String, as principal: Principal? = nil, json: Any = [String: Any]()) async throws -> APITestResponse {
        try await request(.patch, path, as: principal, json: json)
    }

    public func delete(_ path: String, as principal: Principal? = nil) async throws -> APITestResponse {
        try await request(.delete, path, as: principal)
    }

    /// One request by method name, for tables of routes: the body goes with POST, PUT and PATCH.
    public func call(_ method: String, _ path: String, as principal: Principal?, _ body: [String: Any]) async throws -> APITestResponse {
        switch method {
        case "GET": try await get(path, as: principal)
        case "POST": try await post(path, as: principal, json: body)
        case "PUT": try await put(path, as: principal, json: body)
        case "PATCH": try await patch(path, as: principal, json: body)
        default: try await delete(path, as: principal)
        }
    }
}

extension TestHarness {
    /// Runs `body` against this harness's API (its kernel, every module it installed), no socket;
    /// its kernel threads are `threadPool` (NIO's shared pool unless a test sizes its own).
    public func api<T: Sendable>(threadPool: NIOThreadPool = .singleton, _ body: @escaping @Sendable (APITestClient) async throws -> T) async throws -> T {
        let server = APIServer(kernel: kernel, threadPool: threadPool)
        // Quiet: the request log line is the server's, tested on the real `hogwarts serve`.
        let application = Application(router: server.router(), logger: Logger(label: "hogwarts-test") { _ in SwiftLogNoOpLogHandler() })
        return try await application.test(.router) { client in
            try await body(APITestClient(client: client, server: server))
        }
    }
}
