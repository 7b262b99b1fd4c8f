import Core
import Foundation
import Hummingbird
import HummingbirdTesting
import HTTPTypes
import Logging
import NIOPosix
import Synchronization

/// A page as a test reads it: status, headers (every `Set-Cookie`), the HTML, and where a redirect goes.
public struct ConsoleTestPage: Sendable {
    public let status: Int
    public let headers: [String: String]
    public let setCookies: [String]
    public let html: String
    public var location: String? { headers["location"] }

    /// The value of the first hidden `_csrf` field, as a browser would send it back.
    public var csrf: String? {
        guard let range = html.range(of: "name=\"_csrf\" value=\"") else { return nil }
        return String(html[range.upperBound...].prefix { $0 != "\"" })
    }
}

/// Drives the web console without a socket, the way a browser does: it keeps cookies, sends
/// forms with the CSRF token of the last page, and follows redirects after a form.
public final class ConsoleTestClient: Sendable {
    let client: any TestClientProtocol
    private let state = Mutex<(cookies: [String: String], last: ConsoleTestPage?)>(([:], nil))

    init(client: any TestClientProtocol) { self.client = client }

    public var cookies: [String: String] { state.withLock { $0.cookies } }

    /// Forgets a cookie, or sets one (a tampered session, a stale CSRF cookie).
    public func setCookie(_ name: String, _ value: String?) { state.withLock { $0.cookies[name] = value } }

    public func get(_ path: String, follow: Bool = true, headers: [String: String] = [:]) async throws -> ConsoleTestPage {
        let page = try await send(.get, path, body: nil, headers: headers)
        if follow, page.status == 303, let location = page.location { return try await get(location) }
        return page
    }

    /// Posts a form; `_csrf` is the last page's unless the fields name one.
    public func post(_ path: String, _ fields: [(String, String)], follow: Bool = true, headers: [String: String] = [:]) async throws -> ConsoleTestPage {
        var fields = fields
        if !fields.contains(where: { $0.0 == "_csrf" }), let csrf = state.withLock({ $0.last?.csrf }) { fields.append(("_csrf", csrf)) }
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let body = fields.map { "\($0.0.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }
            .joined(separator: "&")
        let page = try await send(.post, path, body: Array(body.utf8), headers: headers)
        if follow, page.status == 303, let location = page.location { return try await get(location) }
        return page
    }

    /// A file a multipart form sends.
    public struct UploadFile: Sendable {
        public let field: String
        public let name: String
        public let type: String
        public let data: Data
        public init(field: String = "file", name: String, type: String, data: Data) {
            self.field = field
            self.name = name
            self.type = type
            self.data = data
        }
    }

    /// Posts a `multipart/form-data` form as a browser sends a file; `_csrf` is the last page's unless the fields name one.
    public func post(_ path: String, multipart fields: [(String, String)], files: [UploadFile]) async throws -> ConsoleTestPage {
        var fields = fields
        if !fields.contains(where: { $0.0 == "_csrf" }), let csrf = state.withLock({ $0.last?.csrf }) { fields.append(("_csrf", csrf)) }
        let boundary = "----hogwarts-test-\(UUID().uuidString)"
        var body: [UInt8] = []
        for (name, value) in fields {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
        }
        for file in files {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(file.field)\"; filename=\"\(file.name)\"\r\nContent-Type: \(file.type)\r\n\r\n".utf8)
            body += Array(file.data) + Array("\r\n".utf8)
        }
        body += Array("--\(boundary)--\r\n".utf8)
        return try await post(path, body: body, contentType: "multipart/form-data; boundary=\(boundary)")
    }

    /// Posts any body with any `Content-Type` (a malformed upload), following no redirect.
    public func post(_ path: String, body: [UInt8], contentType: String) async throws -> ConsoleTestPage {
        try await send(.post, path, body: body, headers: ["Content-Type": contentType])
    }

    /// Signs in through the form (choosing `school` by id when the email is in several).
    @discardableResult
    public func signIn(_ email: String, _ password: String, school: SchoolID? = nil) async throws -> ConsoleTestPage {
        _ = try await get("/sign-in")
        var fields = [("email", email), ("password", password)]
        if let school { fields.append(("school", school)) }
        return try await post("/sign-in", fields)
    }

    private func send(_ method: HTTPRequest.Method, _ path: String, body: [UInt8]?, headers: [String: String]) async throws -> ConsoleTestPage {
        var fields = HTTPFields()
        let cookies = state.withLock { $0.cookies }
        if !cookies.isEmpty { fields[.cookie] = cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") }
        if body != nil { fields[.contentType] = "application/x-www-form-urlencoded" }
        for (name, value) in headers {
            if let field = HTTPField.Name(name) { fields[field] = value }
        }
        let page = try await client.execute(uri: path, method: method, headers: fields, body: body.map { ByteBuffer(bytes: $0) }) { response in
            var headers: [String: String] = [:]
            for field in response.headers { headers[field.name.canonicalName] = field.value }
            let setCookies = response.headers.filter { $0.name == .setCookie }.map(\.value)
            return ConsoleTestPage(status: response.status.code, headers: headers, setCookies: setCookies, html: String(buffer: response.body))
        }
        state.withLock { state in
            for cookie in page.setCookies {
                let pair = cookie.split(separator: ";").first.map(String.init) ?? ""
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                guard let name = parts.first else { continue }
                let value = parts.count > 1 ? parts[1] : ""
                state.cookies[name] = cookie.contains("Max-Age=0") || value.isEmpty ? nil : value
            }
            if page.status == 200 || page.html.contains("_csrf") { state.last = page }
        }
        return page
    }
}

extension TestHarness {
    /// Runs `body` against this harness's web console (its kernel, its modules), no socket; its
    /// kernel threads are `threadPool` (NIO's shared pool unless a test sizes its own).
    public func console<T: Sendable>(threadPool: NIOThreadPool = .singleton, _ body: @escaping @Sendable (ConsoleTestClient) async throws -> T) async throws -> T {
        let server = APIServer(kernel: kernel, threadPool: threadPool)
        let application = Application(router: server.router(), logger: Logger(label: "hogwarts-test") { _ in SwiftLogNoOpLogHandler() })
        return try await application.test(.router) { client in
            try await body(ConsoleTestClient(client: client))
        }
    }
}
