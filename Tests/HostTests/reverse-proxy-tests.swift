import Core
import Foundation
import HogwartsTestSupport
import Testing

/// nginx (Debian's) in front of two `hogwarts serve` nodes, with the shipped
/// deploy/nginx/hogwarts-proxy.conf: people behind one proxy keep limits of their own, a client
/// that forges a forwarding header gains nothing, and TLS at the proxy makes the console's cookies Secure.
/// Loopback has many addresses: nginx connects to the nodes from 127.0.0.2 (the one trusted
/// proxy), people connect from 127.0.0.3 and 127.0.0.4, and a direct client from 127.0.0.1.
@Suite("Behind nginx", .waitsOnProcesses, .serialized,
       .enabled(if: NginxRun.available, "needs nginx, curl and openssl (Debian: nginx-light curl openssl)"))
struct ReverseProxyTests {
    @Test("two people through nginx keep separate sign-in limits; a forged X-Forwarded-For, direct or through nginx, changes nothing; https at nginx makes the console cookie Secure; a console upload up to 2 MiB passes nginx, more is refused")
    func limitsAndForwarding() throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo"]).status == 0)
        let nodes = try (0..<2).map { _ in try ServedHogwarts(hogwarts, environment: ["HOGWARTS_TRUSTED_PROXIES": "127.0.0.2"]) }
        defer { for node in nodes { _ = node.stop() } }
        let nginx = try NginxRun(upstreams: nodes.map(\.port), in: hogwarts.directory)
        defer { nginx.stop() }

        let wrong = #"{"identifier": "nobody@example.org", "password": "wrong"}"#
        // Twelve attempts from one person at once: the limit takes ten, then one more every six
        // seconds, so one by one on a loaded machine they could leak past it. Two of them claim to
        // be 127.0.0.4: nginx appends the real address, which counts, so two are refused, not none.
        let burst = try Curl.postAtOnce("\(nginx.http)/api/mobile/auth", json: wrong, from: "127.0.0.3",
                                        groups: [([], 10), (["X-Forwarded-For: 127.0.0.4"], 2)])
        #expect(burst.filter { $0.status == 401 }.count == 10 && burst.filter { $0.status == 429 }.count == 2, "\(burst)")
        #expect(burst.filter { $0.status == 429 }.allSatisfy { !$0.retryAfter.isEmpty }, "a refusal says when to try again")

        // Another person behind the same proxy signs in: their address is theirs, not the proxy's.
        let other = try Curl.post("\(nginx.http)/api/mobile/auth", json: #"{"identifier": "teacher@databayt.org", "password": "1234"}"#, from: "127.0.0.4")
        #expect(other.status == 200, "\(other.body)")

        // A client straight at a node is not the proxy: its header is ignored and its own address counts.
        let direct = try Curl.post("http://127.0.0.1:\(nodes[0].port)/api/mobile/auth", json: wrong, from: "127.0.0.1", headers: ["X-Forwarded-For: 127.0.0.3"])
        #expect(direct.status == 401)
        let audit = try hogwarts.strings("SELECT COUNT(*) FROM kernel_rate_limits WHERE key = 'sign-in|127.0.0.2'")
        #expect(audit == ["0"], "the proxy's own address is never limited in anyone's place")

        // A console upload of up to 2 MiB (a 1 MiB file, then the same bytes again in base64 when it
        // is imported) passes nginx to the console, which answers it in its own words; more is refused.
        let upload = hogwarts.directory.appending(path: "upload.bin")
        try Data(repeating: 0x41, count: 3 << 19).write(to: upload)
        let passed = try Curl.post("\(nginx.http)/m/students/import", file: upload, type: "multipart/form-data; boundary=x", from: "127.0.0.3")
        #expect(passed.status != 413, "1.5 MiB reaches the console: \(passed.status) \(passed.body.prefix(200))")
        try Data(repeating: 0x41, count: 3 << 20).write(to: upload)
        #expect(try Curl.post("\(nginx.http)/m/students/import", file: upload, type: "multipart/form-data; boundary=x", from: "127.0.0.3").status == 413)

        let overTLS = try Curl.get("\(nginx.https)/sign-in", from: "127.0.0.3")
        #expect(overTLS.status == 200)
        #expect(overTLS.cookies.contains { $0.contains("Secure") }, "\(overTLS.cookies)")
        let plain = try Curl.get("\(nginx.http)/sign-in", from: "127.0.0.3")
        #expect(!plain.cookies.isEmpty && !plain.cookies.contains { $0.contains("Secure") }, "\(plain.cookies)")
    }

    @Test("the shipped site configuration is valid nginx, with its snippet, certificates and paths put in place")
    func siteConfigurationIsValid() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "hogwarts-nginx-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try NginxRun.certificate(in: folder)
        let deploy = HogwartsProcess.packageRoot.appending(path: "deploy/nginx")
        let site = try String(contentsOf: deploy.appending(path: "hogwarts.conf"), encoding: .utf8)
            .replacingOccurrences(of: "/etc/nginx/snippets/hogwarts-proxy.conf", with: deploy.appending(path: "hogwarts-proxy.conf").path)
            .replacingOccurrences(of: "/etc/letsencrypt/live/school.example.org/fullchain.pem", with: folder.appending(path: "cert.pem").path)
            .replacingOccurrences(of: "/etc/letsencrypt/live/school.example.org/privkey.pem", with: folder.appending(path: "key.pem").path)
        try site.write(to: folder.appending(path: "site.conf"), atomically: true, encoding: .utf8)
        try NginxConfiguration.main(http: "include \(folder.appending(path: "site.conf").path);", in: folder).write(to: folder.appending(path: "nginx.conf"), atomically: true, encoding: .utf8)
        let check = try NginxRun.run(["-t", "-c", folder.appending(path: "nginx.conf").path, "-p", folder.path])
        #expect(check.status == 0, "\(check.output)")
    }
}

/// An nginx of the test's own: its configuration, pid and logs in a folder of the test's.
struct NginxRun {
    static let binary = "/usr/sbin/nginx"
    static var available: Bool {
        let tools = [binary, "/usr/bin/curl", "/usr/bin/openssl"].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
        // CI installs them: there, a missing tool is a failure, not a skip.
        return tools || ProcessInfo.processInfo.environment["HOGWARTS_REQUIRE_API_TOOLS"] == "1"
    }

    let folder: URL
    let http: String
    let https: String
    let process = Process()

    init(upstreams: [Int], in directory: URL) throws {
        folder = directory.appending(path: "nginx")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Self.certificate(in: folder)
        let (plainPort, tlsPort) = (try LoopbackPort.free(), try LoopbackPort.free())
        http = "http://127.0.0.1:\(plainPort)"
        https = "https://127.0.0.1:\(tlsPort)"
        let snippet = HogwartsProcess.packageRoot.appending(path: "deploy/nginx/hogwarts-proxy.conf").path
        let server = """
            upstream hogwarts {
                \(upstreams.map { "server 127.0.0.1:\($0);" }.joined(separator: "\n    "))
                keepalive 8;
            }
            server {
                listen 127.0.0.1:\(plainPort);
                listen 127.0.0.1:\(tlsPort) ssl;
                ssl_certificate \(folder.appending(path: "cert.pem").path);
                ssl_certificate_key \(folder.appending(path: "key.pem").path);
                location / {
                    proxy_bind 127.0.0.2;
                    include \(snippet);
                }
            }
            """
        let configuration = folder.appending(path: "nginx.conf")
        try NginxConfiguration.main(http: server, in: folder).write(to: configuration, atomically: true, encoding: .utf8)
        process.executableURL = URL(filePath: Self.binary)
        process.arguments = ["-c", configuration.path, "-p", folder.path, "-g", "daemon off;"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, (try? Curl.get("\(http)/health", from: "127.0.0.1").status) != 200 {
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    func stop() {
        process.terminate()
        ChildExit.wait(for: process)
    }

    /// A self-signed certificate for 127.0.0.1, made fresh.
    static func certificate(in folder: URL) throws {
        let made = try run(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                            "-keyout", folder.appending(path: "key.pem").path, "-out", folder.appending(path: "cert.pem").path], binary: "/usr/bin/openssl")
        guard made.status == 0 else { throw NginxError.certificate(made.output) }
    }

    static func run(_ arguments: [String], binary: String = binary) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(filePath: binary)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        return (ChildExit.wait(for: process), String(decoding: output, as: UTF8.self))
    }

    enum NginxError: Error {
        case certificate(String)
    }
}

/// curl, for what URLSession cannot do: pick the address a request leaves from, and take a
/// self-signed certificate.
enum Curl {
    struct Answer {
        let status: Int
        let headers: [String]
        let body: String
        var cookies: [String] { headers.filter { $0.lowercased().hasPrefix("set-cookie:") } }
        func header(_ name: String) -> String? {
            headers.first { $0.lowercased().hasPrefix(name.lowercased() + ":") }.map { String($0.drop { $0 != ":" }.dropFirst()).trimmingCharacters(in: .whitespaces) }
        }
    }

    static func get(_ url: String, from address: String) throws -> Answer {
        try call(["--interface", address, url])
    }

    static func post(_ url: String, json: String, from address: String, headers: [String] = []) throws -> Answer {
        try call(["--interface", address, "-H", "Content-Type: application/json", "--data-binary", json] + headers.flatMap { ["-H", $0] } + [url])
    }

    /// A POST whose body is a file's bytes (a body too large for an argument).
    static func post(_ url: String, file: URL, type: String, from address: String) throws -> Answer {
        try call(["--interface", address, "-H", "Content-Type: \(type)", "--data-binary", "@\(file.path)", url])
    }

    /// Groups of identical POSTs (each with its extra headers), all sent at once by one curl;
    /// the status and `Retry-After` of each, in no particular order.
    static func postAtOnce(_ url: String, json: String, from address: String, groups: [(headers: [String], count: Int)]) throws -> [(status: Int, retryAfter: String)] {
        var arguments = ["--parallel", "--parallel-immediate", "--parallel-max", "64"]
        for (index, group) in groups.enumerated() {
            if index > 0 { arguments.append("--next") }
            arguments += ["-s", "-k", "--max-time", "30", "-w", "%{http_code} %header{retry-after}\n", "--interface", address,
                          "-H", "Content-Type: application/json", "--data-binary", json] + group.headers.flatMap { ["-H", $0] }
            for _ in 0..<group.count { arguments += ["-o", "/dev/null", url] }
        }
        let result = try NginxRun.run(arguments, binary: "/usr/bin/curl")
        return result.output.split(separator: "\n").map { line in
            let parts = line.split(separator: " ", maxSplits: 1)
            return (Int(parts.first ?? "") ?? 0, parts.count > 1 ? String(parts[1]).trimmingCharacters(in: .whitespaces) : "")
        }
    }

    private static func call(_ arguments: [String]) throws -> Answer {
        let result = try NginxRun.run(["-s", "-k", "-i", "--max-time", "30"] + arguments, binary: "/usr/bin/curl")
        let text = result.output.replacingOccurrences(of: "\r\n", with: "\n")
        let parts = text.components(separatedBy: "\n\n")
        let head = (parts.first ?? "").split(separator: "\n").map(String.init)
        let status = head.first.flatMap { $0.split(separator: " ").dropFirst().first }.flatMap { Int($0) } ?? 0
        return Answer(status: status, headers: Array(head.dropFirst()), body: parts.dropFirst().joined(separator: "\n\n"))
    }
}
