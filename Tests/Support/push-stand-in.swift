import Foundation
import Glibc

/// APNs and FCM on loopback, as the senders meet them: nginx answers HTTP/2 over TLS with a
/// certificate made for the test, and hands each request to a small recorder that keeps it and
/// answers as the real service documents, chosen by the device token's first word:
/// `gone` (APNs 410 Unregistered, FCM 404 UNREGISTERED), `bad` (APNs 400 BadDeviceToken, FCM 400
/// invalid token), `busy` (429, `Retry-After: 600`), `down` (500), `slow` (delivered after 0.3 s, so a
/// test can stop a server while its push is in flight); anything else is delivered. `/token` is
/// Google's token exchange.
// Unchecked: its two processes are started in init and only stopped after.
public final class PushStandIn: @unchecked Sendable {
    public static var available: Bool {
        let tools = ["/usr/sbin/nginx", "/usr/bin/openssl", "/usr/bin/python3"].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
        // CI installs them: there, a missing tool is a failure, not a skip.
        return tools || ProcessInfo.processInfo.environment["HOGWARTS_REQUIRE_API_TOOLS"] == "1"
    }

    public let folder: URL
    /// `https://127.0.0.1:<port>`: the base URL for both services.
    public let url: String
    /// The test's own certificate authority: the senders trust it through `push-ca-path`.
    public var certificate: String { folder.appending(path: "cert.pem").path }
    private let nginx = Process()
    private let recorder = Process()

    public init(in directory: URL) throws {
        folder = directory.appending(path: "push-stand-in")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let made = try Self.run("/usr/bin/openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
                                                     "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                                                     "-keyout", folder.appending(path: "key.pem").path, "-out", folder.appending(path: "cert.pem").path])
        guard made == 0 else { throw StandInError.certificate }
        try Self.recorderScript.write(to: folder.appending(path: "recorder.py"), atomically: true, encoding: .utf8)
        recorder.executableURL = URL(filePath: "/usr/bin/python3")
        recorder.arguments = [folder.appending(path: "recorder.py").path, folder.appending(path: "port").path, folder.appending(path: "requests.jsonl").path]
        recorder.standardOutput = FileHandle.nullDevice
        recorder.standardError = FileHandle.nullDevice
        try recorder.run()
        let upstream = try Self.waitForPortFile(folder.appending(path: "port"))
        let port = try LoopbackPort.free()
        url = "https://127.0.0.1:\(port)"
        let path = folder.path
        let configuration = NginxConfiguration.main(http: """
            server {
                listen 127.0.0.1:\(port) ssl http2;
                ssl_certificate \(certificate);
                ssl_certificate_key \(path)/key.pem;
                location / {
                    proxy_pass http://127.0.0.1:\(upstream);
                    proxy_set_header X-Protocol $server_protocol;
                }
            }
            """, in: folder)
        try configuration.write(to: folder.appending(path: "nginx.conf"), atomically: true, encoding: .utf8)
        nginx.executableURL = URL(filePath: "/usr/sbin/nginx")
        nginx.arguments = ["-c", folder.appending(path: "nginx.conf").path, "-p", path, "-g", "daemon off;"]
        nginx.standardOutput = FileHandle.nullDevice
        nginx.standardError = FileHandle.nullDevice
        try nginx.run()
        let deadline = Date().addingTimeInterval(20)
        while !LoopbackPort.accepts(port) {
            guard Date() < deadline, ChildExit.isRunning(nginx) else { stop(); throw StandInError.didNotStart }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    /// nginx stops on SIGTERM; python inherits the test process's ignored SIGTERM, so it is killed.
    public func stop() {
        if ChildExit.isRunning(nginx) {
            nginx.terminate()
            ChildExit.wait(for: nginx)
        }
        if ChildExit.isRunning(recorder) {
            kill(recorder.processIdentifier, SIGKILL)
            ChildExit.wait(for: recorder)
        }
    }

    /// Every request received so far, oldest first.
    public func requests() throws -> [Recorded] {
        guard let data = FileManager.default.contents(atPath: folder.appending(path: "requests.jsonl").path) else { return [] }
        return try data.split(separator: UInt8(ascii: "\n")).map { try JSONDecoder().decode(Recorded.self, from: Data($0)) }
    }

    public struct Recorded: Decodable, Sendable {
        public let path: String
        public let headers: [String: String]
        public let body: String
        /// When it arrived (seconds since 1970).
        public let at: Double?

        public func json() throws -> [String: Any] {
            try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any] ?? [:]
        }
    }

    public enum StandInError: Error { case certificate, didNotStart }

    static let recorderScript = #"""
        import http.server, json, sys, time
        port_file, log = sys.argv[1], sys.argv[2]

        APNS = {"gone": (410, {"reason": "Unregistered", "timestamp": 1764400000000}), "bad": (400, {"reason": "BadDeviceToken"}),
                "busy": (429, {"reason": "TooManyRequests"}), "down": (500, {"reason": "InternalServerError"})}
        def fcm_error(code, status, message, detail):
            return (code, {"error": {"code": code, "message": message, "status": status,
                    "details": [{"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": detail}]}})
        FCM = {"gone": fcm_error(404, "NOT_FOUND", "Requested entity was not found.", "UNREGISTERED"),
               "bad": fcm_error(400, "INVALID_ARGUMENT", "The registration token is not a valid FCM registration token", "INVALID_ARGUMENT"),
               "busy": fcm_error(429, "RESOURCE_EXHAUSTED", "Quota exceeded.", "QUOTA_EXCEEDED"),
               "down": fcm_error(500, "INTERNAL", "Internal error.", "INTERNAL")}

        class Recorder(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("content-length") or 0)).decode()
                with open(log, "a") as f:
                    f.write(json.dumps({"path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()}, "body": body, "at": time.time()}) + "\n")
                if self.path == "/token":
                    status, answer = 200, {"access_token": "ya29.stand-in", "expires_in": 3599, "token_type": "Bearer"}
                elif self.path.startswith("/3/device/"):
                    word = self.path.rsplit("/", 1)[1].split("-")[0]
                    if word == "slow":
                        time.sleep(0.3)
                    status, answer = APNS.get(word, (200, None))
                else:
                    token = json.loads(body)["message"]["token"]
                    status, answer = FCM.get(token.split("-")[0], (200, {"name": "projects/p/messages/1"}))
                data = b"" if answer is None else json.dumps(answer).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                if status == 429:
                    self.send_header("retry-after", "600")
                self.end_headers()
                self.wfile.write(data)
            def log_message(self, *args):
                pass

        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
        with open(port_file + ".tmp", "w") as f:
            f.write(str(server.server_address[1]))
        import os
        os.rename(port_file + ".tmp", port_file)
        server.serve_forever()
        """#

    /// Runs a tool to its end, its output discarded; its exit status (also the delivery bench's openssl).
    public static func run(_ binary: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(filePath: binary)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return ChildExit.wait(for: process)
    }

    static func waitForPortFile(_ file: URL) throws -> Int {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if let text = try? String(contentsOf: file, encoding: .utf8), let port = Int(text) { return port }
            Thread.sleep(forTimeInterval: 0.01)
        }
        throw StandInError.didNotStart
    }
}
