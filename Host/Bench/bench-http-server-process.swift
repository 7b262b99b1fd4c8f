import Foundation

/// A release `hogwarts serve` on the bench database, on a free loopback port. Its stderr (a log
/// line per request) goes to /dev/null; SIGTERM stops it.
final class ServedHogwarts {
    let port: Int
    private let process = Process()
    var pid: Int32 { process.processIdentifier }

    /// Migrates the database for every built-in module first: the bench's own kernel declares
    /// only the modules it measures, and `serve` refuses a database with pending migrations.
    init(binary: URL, databasePath: String, threads: Int) throws {
        try Self.runToEnd(binary, ["migrate", "--database", databasePath])
        port = try LoopbackHTTP.freePort()
        process.executableURL = binary
        process.arguments = ["serve", "--database", databasePath, "--host", "127.0.0.1", "--port", String(port), "--threads", String(threads)]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        do {
            try LoopbackHTTP.waitUntilHealthy(port: port, timeout: 30) { process.isRunning }
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    /// SIGTERM, then waits for the server to finish the requests in flight and exit.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    private static func runToEnd(_ binary: URL, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchHTTPError("hogwarts \(arguments.joined(separator: " ")) exited \(process.terminationStatus): \(String(decoding: message, as: UTF8.self))")
        }
    }
}
