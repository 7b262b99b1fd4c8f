import Core
import Foundation
import HogwartsTestSupport

/// Runs the built `hogwarts` binary the way a person does, and captures what it prints.
struct HogwartsProcess {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// The package root, found from this file's location.
    static let packageRoot = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `HOGWARTS_BINARY`, else the binary next to the running test bundle, else `.build/debug`.
    static let binary: URL = {
        if let path = ProcessInfo.processInfo.environment["HOGWARTS_BINARY"] { return URL(filePath: path) }
        let besideTests = URL(filePath: CommandLine.arguments[0]).deletingLastPathComponent().appending(path: "hogwarts")
        if FileManager.default.isExecutableFile(atPath: besideTests.path) { return besideTests }
        return packageRoot.appending(path: ".build/debug/hogwarts")
    }()

    let directory: URL
    let binary: URL

    /// A process runner with its own empty working directory (and so its own database).
    /// - Parameter database: a database of the caller's (a schema on another server, say) instead of a fresh one.
    init(binary: URL = Self.binary, database: String? = nil) throws {
        directory = FileManager.default.temporaryDirectory.appending(path: "hogwarts-host-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.binary = binary
        databasePath = try database ?? TestDatabase.fresh(in: directory)
    }

    /// The file in its directory, or with `HOGWARTS_TEST_DATABASE` a schema of its own on that server.
    let databasePath: String

    /// Runs `hogwarts` with its own database and config directory; `input` is its standard input
    /// (a password, say).
    /// `hogwarts demo` into an empty database copies one real run's (`DemoCopy`).
    @discardableResult
    func run(_ arguments: [String], input: String? = nil, environment: [String: String] = [:]) throws -> Result {
        if try DemoCopy.applies(to: arguments, input: input, environment: environment, runner: self) {
            return try DemoCopy.run(into: self)
        }
        return try Self.run(binary, arguments, in: directory, input: input, environment: ownEnvironment.merging(environment) { $1 })
    }

    /// The variables that give a run this runner's database and config directory.
    var ownEnvironment: [String: String] {
        ["HOGWARTS_DATABASE": databasePath, "HOGWARTS_CONFIG_DIR": directory.appending(path: "config").path]
    }

    /// The first column of every row of `sql`, read straight from this runner's database (its file or its schema).
    func strings(_ sql: String) throws -> [String] {
        try DatabaseProbe.strings(sql, in: databasePath)
    }

    /// Runs one statement on this runner's database, behind the process's back.
    func execute(_ sql: String) throws {
        try DatabaseProbe.execute(sql, in: databasePath)
    }

    /// Signs in with the demo password (or `password`); returns the result of `login`.
    @discardableResult
    func login(_ email: String, school: String? = nil, password: String = "1234") throws -> Result {
        try run(["login", "--email", email, "--lang", "en"] + (school.map { ["--school", $0] } ?? []), input: password + "\n")
    }

    static func run(_ executable: URL, _ arguments: [String], in directory: URL, input: String? = nil, environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var variables = ProcessInfo.processInfo.environment
        variables["HOGWARTS_LANG"] = nil
        variables["HOGWARTS_DATABASE"] = nil
        variables["HOGWARTS_CONFIG_DIR"] = nil
        variables["HOGWARTS_SCHOOL"] = nil
        process.environment = variables.merging(environment) { $1 }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let stdin = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        try process.run()
        if let input {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try stdin.fileHandleForWriting.close()
        }
        // Read before waiting, so a large output cannot fill the pipe and block the child.
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        return Result(status: ChildExit.wait(for: process), stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
    }

    func cleanUp() {
        try? FileManager.default.removeItem(at: directory)
    }
}
