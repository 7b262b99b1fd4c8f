import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP exchange as the client sees it. Tests put a fake server or a nemesis behind the
/// same protocol; apps use `URLSessionTransport`.
public struct TransportRequest: Sendable, Equatable {
    public var method: String
    /// Path and query, e.g. `/api/v1/sync/pull?clientId=...`.
    public var path: String
    public var headers: [String: String]
    public var body: Data?

    public init(method: String, path: String, headers: [String: String] = [:], body: Data? = nil) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
    }
}

public struct TransportResponse: Sendable {
    public var status: Int
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

/// Sends requests to a server. A thrown error means no answer arrived (offline, timeout,
/// connection reset): the client treats it as transient.
public protocol SyncTransport: Sendable {
    func send(_ request: TransportRequest) async throws -> TransportResponse
}

/// The real network: Foundation's URLSession (FoundationNetworking on Linux).
public struct URLSessionTransport: SyncTransport {
    public let baseURL: URL
    let session: URLSession

    public init(baseURL: URL, timeout: TimeInterval = 30) {
        self.baseURL = baseURL
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout * 2
        session = URLSession(configuration: configuration)
    }

    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        guard let url = URL(string: request.path, relativeTo: baseURL) else { throw ClientError.invalidServer(baseURL.absoluteString) }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        urlRequest.httpBody = request.body
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: urlRequest)
        } catch {
            // One readable line ("Couldn't connect to server"), not the whole NSError dump.
            let nsError = error as NSError
            let text = (nsError.userInfo[NSLocalizedDescriptionKey] as? String) ?? "\(nsError.domain) \(nsError.code)"
            throw ClientError.network(text)
        }
        guard let http = response as? HTTPURLResponse else { throw ClientError.network("no HTTP response") }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return TransportResponse(status: http.statusCode, headers: headers, body: data)
    }
}
