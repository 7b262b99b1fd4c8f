import Foundation
import HogwartsTestSupport
import Testing

/// Every ```sh and ```bash block of README.md and docs/*.md runs as written: per file, in order,
/// each with `bash -e`, in a working folder of its own on a fresh demo database, with the built
/// binaries first on the PATH, as a reader who has done the README's set-up. A block that builds
/// or runs for long belongs in ```text.
@Suite("The documentation's shell blocks", .waitsOnProcesses)
struct DocsShellBlocksTests {
    /// Blocks not run as written, each with the reason. Keep it short.
    static let notRunnable: [String: String] = [
        "README.md#1": "installs packages and builds (apt-get, swift run): every file runs after its equivalent with the built binary (setUp)",
        "README.md#2": "`swift test` is this suite",
    ]

    /// Blocks that need a program the README's set-up does not install, run only where it is
    /// (always in CI, which installs it).
    static let needs: [String: String] = [
        "docs/postgresql.md#1": "/usr/lib/postgresql/15/bin/initdb",
    ]

    /// The README's set-up block with the built binary instead of `apt-get` and `swift run`.
    static func setUp(from readme: ShellBlock) -> String {
        readme.script.components(separatedBy: " && ")
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { !$0.hasPrefix("apt-get") }
            .map { $0.replacingOccurrences(of: "swift run hogwarts", with: "hogwarts") }
            .joined(separator: " && ") + "\n"
    }

    static let root = HogwartsProcess.packageRoot
    static let files: [String] = {
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: root.appending(path: "docs").path)) ?? []
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
    }()

    static func blocks(_ file: String) throws -> [ShellBlock] {
        ShellBlock.all(in: try String(contentsOf: root.appending(path: file), encoding: .utf8), file: file)
    }

    static let toolsInstalled = DeployFiles.program("jq") != nil && DeployFiles.program("curl") != nil
    /// CI installs jq and curl (`.ci/run`) and sets this, so there the blocks must run.
    static var required: Bool { ProcessInfo.processInfo.environment["HOGWARTS_REQUIRE_API_TOOLS"] == "1" }

    @Test("the README's set-up has an equivalent with the built binary, and every skipped block still exists")
    func skipListCurrent() throws {
        let readme = try Self.blocks("README.md")
        let setUp = Self.setUp(from: try #require(readme.first))
        #expect(setUp.hasPrefix("hogwarts demo --force && ") && !setUp.contains("swift ") && !setUp.contains("apt-get"), "\(setUp)")
        let all = try Self.files.flatMap { try Self.blocks($0) }.map(\.id)
        for id in Array(Self.notRunnable.keys) + Array(Self.needs.keys) {
            #expect(all.contains(id), "\(id) is listed here but is no shell block")
        }
    }

    @Test("every sh and bash block runs with bash -e on a fresh demo database",
          .enabled(if: toolsInstalled || required, "the blocks call jq and curl: apt-get install jq curl"),
          .disabled(if: TestDatabase.isPostgres, "the documentation's examples are on SQLite: they run in the SQLite pass"),
          arguments: files)
    func blocksRun(file: String) throws {
        let blocks = try Self.blocks(file)
        guard !blocks.isEmpty else { return }
        let readme = try #require(try Self.blocks("README.md").first)
        var reader = try DocsReader()
        defer { reader.cleanUp() }

        let setUp = try reader.run(Self.setUp(from: readme), named: "set-up")
        try #require(setUp.status == 0, "the README's set-up with the built binary failed:\n\(setUp.stderr)")
        for block in blocks {
            if Self.notRunnable[block.id] != nil { continue }
            if let program = Self.needs[block.id], !FileManager.default.isExecutableFile(atPath: program), !Self.required { continue }
            let outcome = try reader.run(block.script, named: "block-\(block.number)")
            let stderr = outcome.stderr.split(separator: "\n").suffix(30).joined(separator: "\n")
            #expect(!outcome.timedOut, "\(block.name) ran longer than \(Int(DocsReader.timeout)) s and was killed:\n\(stderr)")
            #expect(outcome.status == 0, "\(block.name) exited \(outcome.status):\n\(stderr)")
            #expect(outcome.leftovers.isEmpty, "\(block.name) left processes running: \(outcome.leftovers)")
        }
    }
}

/// A reader's shell: a working folder, home and temporary folder of its own, a fresh database
/// through `HOGWARTS_DATABASE`, the built binaries first on the PATH, and free ports for those
/// the blocks name (`127.0.0.1:N`, `--port N`, `-p N`), so a block never reaches a server it did
/// not start. The ports are the one thing rewritten in a block.
struct DocsReader {
    static let timeout: TimeInterval = 240
    let root: URL
    let work: URL
    var environment: [String: String]
    var ports: [Int: Int] = [:]

    init() throws {
        root = FileManager.default.temporaryDirectory.appending(path: "hogwarts-docs-\(UUID().uuidString)")
        work = root.appending(path: "work")
        for folder in ["work", "home", "tmp", "scripts"] {
            try FileManager.default.createDirectory(at: root.appending(path: folder), withIntermediateDirectories: true)
        }
        let inherited = ProcessInfo.processInfo.environment
        let binaries = HogwartsProcess.binary.deletingLastPathComponent().path
        environment = [
            "PATH": binaries + ":" + (inherited["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"),
            "HOME": root.appending(path: "home").path,
            "TMPDIR": root.appending(path: "tmp").path,
            "HOGWARTS_DATABASE": work.appending(path: "hogwarts.sqlite").path,
            "LANG": inherited["LANG"] ?? "C.UTF-8",
        ]
        environment["HOGWARTS_PORT"] = String(try port(for: 8080))
    }

    mutating func port(for documented: Int) throws -> Int {
        if let mapped = ports[documented] { return mapped }
        let mapped = try LoopbackPort.free()
        ports[documented] = mapped
        return mapped
    }

    mutating func run(_ script: String, named name: String) throws -> ShellRun.Outcome {
        var rewritten = script
        for match in script.matches(of: #/(127\.0\.0\.1:|--port |-p )([0-9]{4,5})\b/#) {
            guard let documented = Int(match.output.2) else { continue }
            let mapped = try port(for: documented)
            rewritten = rewritten.replacingOccurrences(of: "\(match.output.1)\(documented)", with: "\(match.output.1)\(mapped)")
        }
        return try ShellRun.run(rewritten, named: name, in: work, scripts: root.appending(path: "scripts"), environment: environment, timeout: Self.timeout)
    }

    func cleanUp() {
        try? FileManager.default.removeItem(at: root)
    }
}
