import Foundation
import HogwartsTestSupport

/// A process a test starts and stops itself (a loopback HTTP server, an OpenID provider).
final class BackgroundProcess: @unchecked Sendable {
    let process = Process()
    let log: URL

    init(_ arguments: [String], in directory: URL, environment: [String: String] = [:], waitingFor port: Int) throws {
        log = directory.appending(path: "background-\(port).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.executableURL = URL(filePath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = try FileHandle(forWritingTo: log)
        process.standardError = process.standardOutput
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while !LoopbackPort.accepts(port) {
            guard ChildExit.isRunning(process), Date() < deadline else {
                stop()
                throw StartError(log: (try? String(contentsOf: log, encoding: .utf8)) ?? "")
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    /// SIGKILL: a child of the test process may start with SIGTERM blocked (Python then never ends).
    func stop() {
        if ChildExit.isRunning(process) { kill(process.processIdentifier, SIGKILL) }
        ChildExit.wait(for: process)
    }

    struct StartError: Error { let log: String }
}

/// `Tests/Browser/oidc_test_issuer.py` served by `python3 -m http.server`: a discovery document,
/// a JWKS with the key `current` (not `retired`), and tokens signed as a test asks.
final class StandInIssuer: @unchecked Sendable {
    static let script = HogwartsProcess.packageRoot.appending(path: "Tests/Browser/oidc_test_issuer.py")
    let folder: URL
    let issuer: String
    let server: BackgroundProcess

    init(in directory: URL) throws {
        folder = directory.appending(path: "issuer")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let port = try LoopbackPort.free()
        issuer = "http://127.0.0.1:\(port)"
        let setup = try HogwartsProcess.run(URL(filePath: "/usr/bin/env"), ["python3", Self.script.path, "setup", folder.path, issuer], in: directory)
        guard setup.status == 0 else { throw BackgroundProcess.StartError(log: setup.stderr) }
        server = try BackgroundProcess(["python3", "-m", "http.server", "--bind", "127.0.0.1", "--directory", folder.path, String(port)],
                                       in: directory, waitingFor: port)
    }

    /// A token with `claims` over the defaults (this issuer, audience `hogwarts-test`, live for five minutes, a fresh nonce).
    func token(_ claims: [String: Any] = [:], kid: String = "current", alg: String = "ES256", signWith: String? = nil) throws -> String {
        let now = Int(Date().timeIntervalSince1970)
        let defaults: [String: Any] = ["iss": issuer, "aud": "hogwarts-test", "sub": "subject-1", "email": "teacher@databayt.org",
                                       "email_verified": true, "iat": now, "exp": now + 300, "nonce": UUID().uuidString]
        var spec: [String: Any] = ["claims": defaults.merging(claims) { $1 }, "kid": kid, "alg": alg]
        if let signWith { spec["sign_with"] = signWith }
        let input = String(decoding: try JSONSerialization.data(withJSONObject: spec), as: UTF8.self)
        let minted = try HogwartsProcess.run(URL(filePath: "/usr/bin/env"), ["python3", Self.script.path, "mint", folder.path], in: folder, input: input)
        guard minted.status == 0 else { throw BackgroundProcess.StartError(log: minted.stderr) }
        return minted.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func stop() { server.stop() }
}

/// `Tests/Browser/oidc_real_provider.py`: django-oidc-provider on loopback, a real OpenID
/// provider with its own RSA key, one confidential client and the given users (password 1234).
final class RealProvider: @unchecked Sendable {
    static let script = HogwartsProcess.packageRoot.appending(path: "Tests/Browser/oidc_real_provider.py")
    static let clientID = "hogwarts-test"
    static let clientSecret = "provider-test-secret"
    static var installed: Bool {
        (try? HogwartsProcess.run(URL(filePath: "/usr/bin/env"), ["python3", "-c", "import django, oidc_provider, requests"], in: URL(filePath: "/tmp")).status) == 0
    }

    let folder: URL
    let issuer: String
    let redirectURI: String
    let server: BackgroundProcess

    init(in directory: URL, redirectURI: String, users: [String]) throws {
        folder = directory.appending(path: "provider")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let port = try LoopbackPort.free()
        issuer = "http://127.0.0.1:\(port)/openid"
        self.redirectURI = redirectURI
        server = try BackgroundProcess(["python3", Self.script.path, "serve", "--port", String(port), "--folder", folder.path,
                                        "--client-id", Self.clientID, "--client-secret", Self.clientSecret, "--redirect-uri", redirectURI]
                                       + users.flatMap { ["--user", $0] }, in: directory, waitingFor: port)
    }

    /// The provider's own id_token for `email`, through its authorization-code flow driven by a scripted HTTP client.
    func idToken(for email: String, nonce: String = UUID().uuidString) throws -> String {
        let flow = try HogwartsProcess.run(URL(filePath: "/usr/bin/env"), [
            "python3", Self.script.path, "token", "--issuer", issuer, "--email", email, "--nonce", nonce,
            "--client-id", Self.clientID, "--client-secret", Self.clientSecret, "--redirect-uri", redirectURI,
        ], in: folder)
        guard flow.status == 0 else { throw BackgroundProcess.StartError(log: flow.stdout + flow.stderr) }
        return flow.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func stop() { server.stop() }
}
