import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL

/// One answer from a push service.
struct PushAnswer {
    let status: Int
    let headers: HTTPHeaders
    let body: Data

    /// `Retry-After` in seconds, when the service gave one as a number.
    var retryAfter: TimeInterval? { headers.first(name: "retry-after").flatMap { TimeInterval($0.trimmingCharacters(in: .whitespaces)) } }
}

/// Requests to APNs and FCM, made from a sender's thread. AsyncHTTPClient speaks HTTP/2 over TLS
/// (APNs accepts nothing else) and keeps connections open between deliveries.
///
/// One client per process: `HTTPClient.shared`, which AsyncHTTPClient creates on first use and
/// never shuts down (it cannot be), so there is nothing to close on exit and no leak per school.
/// A school's extra certificate authorities ride on each request, which gives them a pool of
/// their own inside the same client.
enum PushHTTP {
    /// How long one request may take before it counts as failed (and is retried with backoff).
    static let timeout = TimeAmount.seconds(20)

    /// Posts and waits. Senders run on the outbox runner's worker thread, never on an event loop,
    /// so waiting on the future here blocks only that thread.
    static func post(_ url: String, headers: [(String, String)], body: Data, extraCA: String?) throws -> PushAnswer {
        let request = try HTTPClient.Request(url: url, method: .POST, headers: HTTPHeaders(headers), body: .byteBuffer(ByteBuffer(bytes: body)),
                                             tlsConfiguration: try tls(extraCA))
        let response = try HTTPClient.shared.execute(request: request, deadline: .now() + timeout).wait()
        let bytes = response.body.map { Data($0.readableBytesView) } ?? Data()
        return PushAnswer(status: Int(response.status.code), headers: response.headers, body: bytes)
    }

    /// The system's roots plus the school's extra file; nil (the client's default) without one.
    static func tls(_ extraCA: String?) throws -> TLSConfiguration? {
        guard let extraCA else { return nil }
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.additionalTrustRoots = [.file(extraCA)]
        return configuration
    }
}

/// A push that did not get through this time: the outbox retries it with backoff, after the
/// service's `Retry-After` when it gave one.
struct PushRetry: Error, CustomStringConvertible, RetryAfterHint {
    let service: String
    let status: Int
    let reason: String
    let retryAfter: TimeInterval?

    var description: String {
        let why = reason.isEmpty ? "" : " (\(reason))"
        return switch status {
        case 429: "\(service) answered 429\(why): too many pushes for now; tried again later"
        case 500...: "\(service) answered \(status)\(why): the service is failing; tried again later"
        case 401, 403: "\(service) refused the school's credentials with \(status)\(why): check the push key settings"
        default: "\(service) answered \(status)\(why): check the push settings and the app's bundle id"
        }
    }
}

/// An error that knows how long to wait before the next attempt (a push service's `Retry-After`).
protocol RetryAfterHint {
    var retryAfter: TimeInterval? { get }
}
