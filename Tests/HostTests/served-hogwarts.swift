import Foundation
import HogwartsTestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A real `hogwarts serve` on a free port, for tests that talk to it over a socket the way the
/// apps do, and stop it with a signal the way an init system does.
final class ServedHogwarts: @unchecked Sendable {
    let process = Process()
    let log: URL
    private(set) var port = 0

    /// Starts `hogwarts serve --port 0` (and `arguments`) on the process runner's database and waits until it listens.
    init(_ hogwarts: HogwartsProcess, arguments: [String] = [], environment: [String: String] = [:]) throws {
        log = hogwarts.directory.appending(path: "serve.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.executableURL = hogwarts.binary
        process.arguments = ["serve", "--port", "0"] + arguments
        process.currentDirectoryURL = hogwarts.directory
        process.environment = ProcessInfo.processInfo.environment.merging(["HOGWARTS_DATABASE": hogwarts.databasePath].merging(environment) { $1 }) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        let deadline = Date().addingTimeInterval(180)
        while Date() < deadline {
            if let found = Self.listeningPort(in: logText) {
                port = found
                return
            }
            guard ChildExit.isRunning(process) else { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        process.terminate()
        throw ServeError.didNotStart(logText)
    }

    var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// Sends SIGTERM and waits for the process to end; returns its exit status.
    func stop(signal: Int32 = SIGTERM) -> Int32 {
        kill(process.processIdentifier, signal)
        return ChildExit.wait(for: process)
    }

    struct Response {
        let status: Int
        let body: Data
        let headers: [String: String]

        init(status: Int, body: Data, headers: [String: String]) {
            self.status = status
            self.body = body
            self.headers = headers
        }

        init(_ response: URLResponse?, body: Data) {
            let http = response as? HTTPURLResponse
            var fields: [String: String] = [:]
            for (name, value) in http?.allHeaderFields ?? [:] { fields["\(name)".lowercased()] = "\(value)" }
            self.init(status: http?.statusCode ?? 0, body: body, headers: fields)
        }
        var object: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
        var array: [[String: Any]] { (try? JSONSerialization.jsonObject(with: body)) as? [[String: Any]] ?? [] }
        var data: [[String: Any]] { object["data"] as? [[String: Any]] ?? [] }
    }

    func request(_ method: String, _ path: String, token: String? = nil, json: Any? = nil, headers: [String: String] = [:]) async throws -> Response {
        let request = try urlRequest(method, path, token: token, json: json, headers: headers)
        let (body, response) = try await URLSession.shared.data(for: request)
        return Response(response, body: body)
    }

    /// `request`, sent again (up to three times in all) while the server answers 503: its answer
    /// that the database was too slow this time, which an app retries after `Retry-After`. A loaded
    /// CI machine can keep PostgreSQL from answering a BEGIN within its bound.
    func requestRetryingUnavailable(_ method: String, _ path: String, json: Any? = nil) async throws -> Response {
        var response = try await request(method, path, json: json)
        for _ in 1..<3 where response.status == 503 {
            try await Task.sleep(for: .seconds(2))
            response = try await request(method, path, json: json)
        }
        return response
    }

    func urlRequest(_ method: String, _ path: String, token: String?, json: Any?, headers: [String: String]) throws -> URLRequest {
        guard let url = URL(string: "http://127.0.0.1:\(port)\(path)") else { throw ServeError.badPath(path) }
        var request = URLRequest(url: url)
        request.httpMethod = method
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let json {
            request.httpBody = try JSONSerialization.data(withJSONObject: json)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        return request
    }

    /// Signs in with the demo password and returns the access token, naming the `school` (by
    /// its domain) when the email has an account in several.
    func signIn(_ email: String, school: String = "demo") async throws -> String {
        var body: [String: Any] = ["identifier": email, "password": "1234"]
        var response = try await request("POST", "/api/mobile/auth", json: body)
        if response.status == 409 {
            let schools = try await request("GET", "/api/mobile/schools")
            body["school_id"] = schools.array.first { $0["domain"] as? String == school }?["id"]
            response = try await request("POST", "/api/mobile/auth", json: body)
        }
        guard let token = response.object["access_token"] as? String else {
            throw ServeError.signInFailed(email, String(decoding: response.body, as: UTF8.self))
        }
        return token
    }

    private static func listeningPort(in log: String) -> Int? {
        guard let range = log.range(of: "listening on 127.0.0.1:") else { return nil }
        return Int(log[range.upperBound...].prefix { $0.isNumber })
    }

    enum ServeError: Error {
        case didNotStart(String)
        case badPath(String)
        case signInFailed(String, String)
    }
}
