import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One event of the server's live stream (`/api/v1/live`): a new notification (`kind`
/// "notification", `data` the JSON of one item of the notifications list), or "reset" when the
/// app was away longer than the server keeps events and should reload its lists.
public struct LiveEvent: Sendable, Equatable {
    public let id: Int64?
    public let kind: String
    public let data: Data

    public init(id: Int64?, kind: String, data: Data) {
        self.id = id
        self.kind = kind
        self.data = data
    }
}

/// The person's live events as an `AsyncSequence`, for as long as it is iterated. The stream
/// ends on the server's side when the access token expires, when a node stops or when the network
/// drops; each time it is opened again, with a token from `accessToken` (refresh it there) and
/// the id of the last event received, so nothing is missed and nothing comes twice. A refusal
/// (the sign-in is over) ends the sequence with `ClientError.sessionExpired`.
public struct LiveEvents: AsyncSequence, Sendable {
    public typealias Element = LiveEvent

    let baseURL: URL
    let language: ClientLanguage
    let lastEventID: Int64?
    let accessToken: @Sendable () async throws -> String

    public init(baseURL: URL, language: ClientLanguage = .ar, after lastEventID: Int64? = nil,
                accessToken: @escaping @Sendable () async throws -> String) {
        self.baseURL = baseURL
        self.language = language
        self.lastEventID = lastEventID
        self.accessToken = accessToken
    }

    public func makeAsyncIterator() -> AsyncThrowingStream<LiveEvent, any Error>.Iterator {
        let (events, continuation) = AsyncThrowingStream.makeStream(of: LiveEvent.self, bufferingPolicy: .unbounded)
        let task = Task { [self] in
            do {
                try await run(into: continuation)
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return events.makeAsyncIterator()
    }

    /// Opens the stream again and again until cancelled or refused.
    private func run(into continuation: AsyncThrowingStream<LiveEvent, any Error>.Continuation) async throws {
        var last = lastEventID
        var wait: Duration = .seconds(2)
        var refusals = 0
        while !Task.isCancelled {
            let connection = LiveConnection(request: try await request(after: last))
            var parser = ServerSentEvents()
            var refused = false
            do {
                reading: for try await piece in connection.pieces {
                    switch piece {
                    case .status(200):
                        refusals = 0
                    case .status(401), .status(403):
                        // Again at once with a fresh token; refused twice, the sign-in itself is over.
                        refusals += 1
                        guard refusals < 2 else { throw ClientError.sessionExpired }
                        refused = true
                        break reading
                    case .status(let status):
                        throw ClientError.server(status: status, code: nil, message: nil)
                    case .bytes(let bytes):
                        for event in parser.feed(bytes) {
                            if let id = event.id { last = id }
                            continuation.yield(event)
                        }
                        if let retry = parser.retry { wait = retry }
                    }
                }
            } catch ClientError.sessionExpired {
                throw ClientError.sessionExpired
            } catch {
                // The network or the server: come back after the wait the server asked for.
            }
            connection.cancel()
            if !refused { try await Task.sleep(for: wait) }
        }
    }

    private func request(after last: Int64?) async throws -> URLRequest {
        guard let url = URL(string: "/api/v1/live", relativeTo: baseURL) else { throw ClientError.invalidServer(baseURL.absoluteString) }
        var request = URLRequest(url: url)
        request.setValue("Bearer \(try await accessToken())", forHTTPHeaderField: "Authorization")
        request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
        request.setValue(language.rawValue, forHTTPHeaderField: "Accept-Language")
        if let last { request.setValue(String(last), forHTTPHeaderField: "Last-Event-ID") }
        // Heartbeats come every 15 seconds: a minute of silence is a dead connection.
        request.timeoutInterval = 60
        return request
    }
}

/// Reads Server-Sent Events from bytes as they come, in pieces of any size (a line or a UTF-8
/// character may be split between pieces).
public struct ServerSentEvents: Sendable {
    private var pending: [UInt8] = []
    private var id: Int64?
    private var kind: String?
    private var data: [String] = []
    /// The reconnection wait the server asked for (`retry:`), once it has.
    public private(set) var retry: Duration?

    public init() {}

    /// The events completed by `bytes`.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [LiveEvent] {
        pending.append(contentsOf: bytes)
        var events: [LiveEvent] = []
        var start = 0
        while let newline = pending[start...].firstIndex(of: 10) {
            var line = pending[start..<newline]
            if line.last == 13 { line = line.dropLast() }
            start = newline + 1
            if let event = take(String(decoding: line, as: UTF8.self)) { events.append(event) }
        }
        pending.removeFirst(start)
        return events
    }

    /// One line; an empty line ends an event (nil when the block held no data: a comment, `retry`).
    private mutating func take(_ line: String) -> LiveEvent? {
        guard !line.isEmpty else {
            defer { (kind, data) = (nil, []) }
            guard !data.isEmpty else { return nil }
            return LiveEvent(id: id, kind: kind ?? "message", data: Data(data.joined(separator: "\n").utf8))
        }
        guard !line.hasPrefix(":") else { return nil }
        let parts = line.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let field = String(parts[0])
        var value = parts.count > 1 ? String(parts[1]) : ""
        if value.hasPrefix(" ") { value.removeFirst() }
        switch field {
        case "id": id = Int64(value)
        case "event": kind = value
        case "data": data.append(value)
        case "retry": if let milliseconds = Int(value) { retry = .milliseconds(milliseconds) }
        default: break
        }
        return nil
    }
}

/// One HTTP request whose answer is read as it arrives: its status, then its body in pieces.
/// Foundation's delegate calls do this on Linux too, where `bytes(for:)` is not available.
final class LiveConnection: NSObject, URLSessionDataDelegate, Sendable {
    enum Piece: Sendable {
        case status(Int)
        case bytes(Data)
    }

    let pieces: AsyncThrowingStream<Piece, any Error>
    private let continuation: AsyncThrowingStream<Piece, any Error>.Continuation

    init(request: URLRequest) {
        (pieces, continuation) = AsyncThrowingStream.makeStream(of: Piece.self)
        super.init()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = request.timeoutInterval
        configuration.timeoutIntervalForResource = 7 * 86400
        // The session holds its delegate (this object) until it is invalidated, when the task ends.
        let session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
        let task = session.dataTask(with: request)
        continuation.onTermination = { _ in
            task.cancel()
            session.finishTasksAndInvalidate()
        }
        task.resume()
    }

    /// Ends the request (after a refusal, or when the reader is done).
    func cancel() {
        continuation.finish()
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        continuation.yield(.status((response as? HTTPURLResponse)?.statusCode ?? 0))
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        continuation.yield(.bytes(data))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error { continuation.finish(throwing: ClientError.network(error.localizedDescription)) } else { continuation.finish() }
        session.finishTasksAndInvalidate()
    }
}
