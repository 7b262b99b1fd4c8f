import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A few blocking HTTP/1.1 requests on loopback, with plain sockets: to wait for `/health` and
/// to check each route once before wrk hammers it (a 404 or 401 is shown with its body, not
/// only counted as an error).
enum LoopbackHTTP {
    struct Answer {
        let status: Int
        let body: String
    }

    static func request(port: Int, method: String = "GET", path: String, headers: [String: String] = [:], body: String? = nil) throws -> Answer {
        let socket = try connect(port: port)
        defer { close(socket) }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        let payload = Data((body ?? "").utf8)
        head += "Content-Length: \(payload.count)\r\n\r\n"
        try send(Data(head.utf8) + payload, on: socket)
        return try parse(try receive(from: socket))
    }

    /// A port nobody listens on now (the kernel's pick for port 0); a race with another process
    /// taking it in between is possible but unlikely on a bench machine.
    static func freePort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw BenchHTTPError("socket(): errno \(errno)") }
        defer { close(socket) }
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw BenchHTTPError("bind(): errno \(errno)") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        guard named == 0 else { throw BenchHTTPError("getsockname(): errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Polls `GET /health` until it answers 200, or throws after `timeout` seconds.
    static func waitUntilHealthy(port: Int, timeout: TimeInterval, isAlive: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            guard isAlive() else { throw BenchHTTPError("the server on port \(port) exited before answering /health") }
            if let answer = try? request(port: port, path: "/health"), answer.status == 200 { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw BenchHTTPError("no 200 from http://127.0.0.1:\(port)/health within \(Int(timeout)) s")
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr = in_addr(s_addr: inet_addr("127.0.0.1"))
        return address
    }

    private static func connect(port: Int) throws -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw BenchHTTPError("socket(): errno \(errno)") }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(socket)
            throw BenchHTTPError("connect to port \(port): errno \(errno)")
        }
        return socket
    }

    private static func send(_ data: Data, on socket: Int32) throws {
        var sent = 0
        try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            guard let base = bytes.baseAddress else { return }
            while sent < bytes.count {
                let written = write(socket, base + sent, bytes.count - sent)
                guard written > 0 else { throw BenchHTTPError("write(): errno \(errno)") }
                sent += written
            }
        }
    }

    /// Reads until the server closes, or until the body announced by Content-Length is in.
    private static func receive(from socket: Int32) throws -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = read(socket, &buffer, buffer.count)
            if count < 0 { throw BenchHTTPError("read(): errno \(errno)") }
            if count == 0 { return data }
            data.append(contentsOf: buffer[0..<count])
            if let expected = expectedLength(data), data.count >= expected { return data }
        }
    }

    private static func expectedLength(_ data: Data) -> Int? {
        guard let end = data.range(of: Data("\r\n\r\n".utf8)) else { return nil }
        let head = String(decoding: data[..<end.lowerBound], as: UTF8.self).lowercased()
        for line in head.split(separator: "\r\n") where line.hasPrefix("content-length:") {
            return Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)).map { end.upperBound + $0 }
        }
        return nil
    }

    private static func parse(_ data: Data) throws -> Answer {
        let text = String(decoding: data, as: UTF8.self)
        let parts = text.components(separatedBy: "\r\n\r\n")
        let statusLine = parts.first?.split(separator: "\r\n").first ?? ""
        let fields = statusLine.split(separator: " ")
        guard fields.count >= 2, let status = Int(fields[1]) else { throw BenchHTTPError("not an HTTP answer: \(text.prefix(200))") }
        return Answer(status: status, body: parts.dropFirst().joined(separator: "\r\n\r\n"))
    }
}
