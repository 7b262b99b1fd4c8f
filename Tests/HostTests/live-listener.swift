import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A client of `/api/v1/live` as an app holds one: a plain socket speaking HTTP/1.1, the chunked
/// body read on a thread of its own and parsed as Server-Sent Events. Waiting happens on a thread
/// too, so a test holds none of the test process's cooperative threads while it waits.
final class LiveListener: Sendable {
    struct Event: Sendable, Equatable {
        let id: Int64?
        let name: String
        let data: String

        var object: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any] ?? [:] }
    }

    private struct State {
        var status: Int?
        var opened = false
        var ended = false
        var events: [Event] = []
    }

    private let socket: Int32
    private let state = Mutex(State())

    /// Connects and asks for the stream; the answer is read in the background.
    init(port: Int, token: String, lastEventID: Int64? = nil, language: String = "en") throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw ListenerError.socket }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            Glibc.close(socket)
            throw ListenerError.connect
        }
        var request = "GET /api/v1/live HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\nAccept: text/event-stream\r\nAccept-Language: \(language)\r\n"
        if let lastEventID { request += "Last-Event-ID: \(lastEventID)\r\n" }
        request += "\r\n"
        let bytes = Array(request.utf8)
        guard send(socket, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else {
            Glibc.close(socket)
            throw ListenerError.connect
        }
        Thread { [self] in read(socket) }.start()
    }

    enum ListenerError: Error { case socket, connect }

    /// Every event received so far (keep-alive comments and the `retry` line are not events).
    var events: [Event] { state.withLock { $0.events } }
    var status: Int? { state.withLock { $0.status } }

    /// Ends the connection, as an app going to the background does.
    func close() {
        shutdown(socket, Int32(SHUT_RDWR))
    }

    /// Waits until the server has answered and opened the stream (false if it did not within `seconds`).
    func opened(within seconds: Double) async -> Bool {
        await until(seconds) { $0.opened || $0.ended }
        return state.withLock { $0.opened }
    }

    /// Waits until the server has ended the stream (false if it did not within `seconds`).
    func ended(within seconds: Double) async -> Bool {
        await until(seconds) { $0.ended }
        return state.withLock { $0.ended }
    }

    /// Waits until `count` events have come or `seconds` have passed; returns what came.
    func events(count: Int, within seconds: Double) async -> [Event] {
        await until(seconds) { $0.events.count >= count || $0.ended }
        return events
    }

    private func until(_ seconds: Double, _ done: @escaping @Sendable (State) -> Bool) async {
        await onThreadOfItsOwn { [self] in
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline, !state.withLock({ done($0) }) { Thread.sleep(forTimeInterval: 0.02) }
        }
    }

    private func read(_ socket: Int32) {
        var buffer: [UInt8] = []
        var headersDone = false
        var body: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(socket, &chunk, chunk.count, 0)
            guard count > 0 else { break }
            buffer += chunk[0..<count]
            if !headersDone, let end = Self.find([13, 10, 13, 10], in: buffer) {
                let head = String(decoding: buffer[0..<end], as: UTF8.self)
                let status = head.split(separator: " ").dropFirst().first.flatMap { Int($0) }
                state.withLock { $0.status = status }
                buffer.removeFirst(end + 4)
                headersDone = true
            }
            guard headersDone else { continue }
            // Chunked transfer: `<hex size>\r\n<bytes>\r\n`, repeated.
            while let line = Self.find([13, 10], in: buffer), let size = Int(String(decoding: buffer[0..<line], as: UTF8.self), radix: 16),
                  buffer.count >= line + 2 + size + 2 {
                body += buffer[(line + 2)..<(line + 2 + size)]
                buffer.removeFirst(line + 2 + size + 2)
            }
            while let end = Self.find([10, 10], in: body) {
                let block = String(decoding: body[0..<end], as: UTF8.self)
                body.removeFirst(end + 2)
                state.withLock { state in
                    state.opened = true
                    if let event = Self.parse(block) { state.events.append(event) }
                }
            }
        }
        state.withLock { $0.ended = true }
        Glibc.close(socket)
    }

    /// One block of `field: value` lines; nil for a comment or the `retry` line alone.
    private static func parse(_ block: String) -> Event? {
        var id: Int64?
        var name: String?
        var data: [String] = []
        for line in block.split(separator: "\n", omittingEmptySubsequences: false) where !line.hasPrefix(":") {
            let parts = line.split(separator: ":", maxSplits: 1).map(String.init)
            guard let field = parts.first else { continue }
            let value = parts.count > 1 ? String(parts[1].drop { $0 == " " }) : ""
            switch field {
            case "id": id = Int64(value)
            case "event": name = value
            case "data": data.append(value)
            default: break
            }
        }
        guard let name else { return data.isEmpty ? nil : Event(id: id, name: "message", data: data.joined(separator: "\n")) }
        return Event(id: id, name: name, data: data.joined(separator: "\n"))
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if Array(haystack[start..<(start + needle.count)]) == needle { return start }
        }
        return nil
    }
}
