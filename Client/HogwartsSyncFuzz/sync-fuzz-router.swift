import Core
import Foundation
import HogwartsClient
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOEmbedded

/// The real server's router, in-process (no socket): what a phone's URLSession would reach. The
/// same responder `hogwarts serve` runs, without HummingbirdTesting, so the benchmark can link it.
public struct RouterTransport: SyncTransport {
    let responder: RouterResponder<APIContext>
    let logger = Logger(label: "sync-fuzz") { _ in SwiftLogNoOpLogHandler() }
    /// The caller's IP as the server sees it: each fuzzed phone has its own, as real phones do, so
    /// the per-address sign-in limit (10 a minute) does not make 20 devices wait on each other.
    var address: SocketAddress?

    public init(kernel: Kernel) {
        responder = APIServer(kernel: kernel).router().buildResponder()
    }

    /// The same server reached from another address.
    public func from(_ ip: String) -> RouterTransport {
        var copy = self
        copy.address = try? SocketAddress(ipAddress: ip, port: 443)
        return copy
    }

    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        var fields = HTTPFields()
        for (name, value) in request.headers {
            if let field = HTTPField.Name(name) { fields[field] = value }
        }
        if let body = request.body { fields[.contentLength] = String(body.count) }
        let head = HTTPRequest(method: HTTPRequest.Method(request.method) ?? .get, scheme: "http", authority: "localhost",
                               path: request.path, headerFields: fields)
        let served = Request(head: head, body: RequestBody(buffer: ByteBuffer(bytes: request.body ?? Data())))
        let channel = NIOAsyncTestingChannel()
        if let address { channel.remoteAddress = address }
        let context = APIContext(source: ApplicationRequestContextSource(channel: channel, logger: logger))
        let response: Response
        do {
            response = try await responder.respond(to: served, context: context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: served, context: context)
        }
        let collector = BodyCollector()
        try await response.body.write(collector)
        var headers: [String: String] = [:]
        for field in response.headers { headers[field.name.canonicalName] = field.value }
        return TransportResponse(status: response.status.code, headers: headers, body: collector.data)
    }
}

/// Collects a response body written in pieces.
private final class BodyCollector: ResponseBodyWriter, @unchecked Sendable {
    private let lock = NSLock()
    private var bytes = Data()

    var data: Data { lock.withLock { bytes } }

    func write(_ buffer: ByteBuffer) async throws {
        lock.withLock { bytes.append(contentsOf: buffer.readableBytesView) }
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
