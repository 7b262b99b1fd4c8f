import Foundation
import HogwartsTestSupport
import Testing

/// `deploy/` as an operator installs it: systemd accepts the units as they are, the services
/// stay hardened, and the environment file names every variable `hogwarts` reads, each with its
/// default, and starts a server that believes the local proxy.
@Suite("deploy/: systemd units and the environment file", .waitsOnProcesses, .commandLineShape)
struct DeployTests {
    static let analyze = DeployFiles.program("systemd-analyze")
    /// CI installs systemd (`.ci/run`) and sets this, so there the unit checks must run.
    static var required: Bool { ProcessInfo.processInfo.environment["HOGWARTS_REQUIRE_API_TOOLS"] == "1" }

    @Test("systemd-analyze verify accepts the service, the backup service and the timer without a warning",
          .enabled(if: analyze != nil || required, "systemd-analyze is not installed (apt-get install systemd)"))
    func unitsVerify() throws {
        let analyze = try #require(Self.analyze, "systemd-analyze is not installed, and CI requires it")
        let units = try DeployFiles.unitsCopy()
        defer { try? FileManager.default.removeItem(at: units) }
        let result = try HogwartsProcess.run(URL(filePath: analyze), ["verify"] + DeployFiles.units, in: units)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        // verify exits 0 on an unknown key or a misplaced setting, and only says so on stderr.
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }

    @Test("the services stay hardened: systemd-analyze security rates each 2.0 or less (OK)",
          .enabled(if: analyze != nil || required, "systemd-analyze is not installed (apt-get install systemd)"))
    func unitsHardened() throws {
        let analyze = try #require(Self.analyze, "systemd-analyze is not installed, and CI requires it")
        let units = try DeployFiles.unitsCopy()
        defer { try? FileManager.default.removeItem(at: units) }
        for unit in ["hogwarts.service", "hogwarts-backup.service"] {
            let result = try HogwartsProcess.run(URL(filePath: analyze), ["security", "--offline=yes", "--no-pager", unit], in: units)
            let overall = result.stdout.split(separator: "\n").first { $0.contains("Overall exposure level") }
            let level = overall?.split(separator: ":").last?.split(separator: " ").first.flatMap { Double($0) }
            let exposure = try #require(level, "no exposure level for \(unit): \(result.stdout)\(result.stderr)")
            #expect(exposure <= 2.0, "\(unit): \(overall ?? "")\n\(result.stdout.split(separator: "\n").filter { $0.hasPrefix("✗") }.joined(separator: "\n"))")
        }
    }

    @Test("the environment file and docs/operations.md list every HOGWARTS_ variable the platform reads, each with its default")
    func everyVariableListed() throws {
        let read = try DeployFiles.variablesRead()
        let listed = try DeployFiles.environmentFile()
        #expect(read.count >= 14, "the sources' variables were not found: \(read.sorted())")
        #expect(Set(listed.map(\.name)) == read, "read but not listed: \(read.subtracting(listed.map(\.name)).sorted()); listed but never read: \(Set(listed.map(\.name)).subtracting(read).sorted())")
        #expect(listed.count == Set(listed.map(\.name)).count, "a variable listed twice")
        for variable in listed {
            #expect(variable.comment.contains("Default"), "\(variable.name) has no comment giving its default")
        }
        let operations = try String(contentsOf: HogwartsProcess.packageRoot.appending(path: "docs/operations.md"), encoding: .utf8)
        for name in read.sorted() {
            #expect(operations.contains("| `\(name)` |"), "docs/operations.md's table lacks \(name)")
        }
    }

    @Test("a server on the environment file's values serves /health and /ready, and logs the client nginx forwarded for")
    func environmentFileServes() async throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo", "--force"]).status == 0)
        var environment: [String: String] = [:]
        for variable in try DeployFiles.environmentFile() where variable.active { environment[variable.name] = variable.value }
        #expect(environment["HOGWARTS_TRUSTED_PROXIES"] != nil, "the local nginx is not trusted")
        // This test's own database and a free port instead of /var/lib/hogwarts and 8080.
        environment["HOGWARTS_DATABASE"] = hogwarts.databasePath
        let server = try ServedHogwarts(hogwarts, environment: environment)
        defer { _ = server.stop() }
        #expect(try await server.request("GET", "/health").status == 200)
        #expect(try await server.request("GET", "/ready").status == 200)
        // nginx (deploy/nginx/hogwarts.conf) on this host adds the client's address.
        let refused = try await server.request("POST", "/api/mobile/auth", json: ["identifier": "teacher@databayt.org", "password": "wrong"],
                                               headers: ["X-Forwarded-For": "203.0.113.7"])
        #expect(refused.status == 401)
        #expect(server.stop() == 0)
        #expect(server.logText.contains("203.0.113.7"), "the request log names the proxy, not the client: \(server.logText)")
    }

    /// `hogwarts backup` as the backup unit calls it, once it takes `--keep` (issue 31's CLI work).
    static let backupKeeps: Bool = {
        guard let help = try? HogwartsProcess.run(HogwartsProcess.binary, ["backup", "--help", "--lang", "en"], in: FileManager.default.temporaryDirectory) else { return false }
        return help.stdout.contains("--keep")
    }()

    @Test("the backup unit's command writes a sound backup into its folder",
          .enabled(if: backupKeeps, "this hogwarts backup has no --keep yet (being added beside this work); the unit is written for it"),
          .disabled(if: TestDatabase.isPostgres, "backup copies a SQLite file; on PostgreSQL it refuses"))
    func backupUnitCommand() throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo", "--force"]).status == 0)
        let unit = try String(contentsOf: DeployFiles.folder.appending(path: "systemd/hogwarts-backup.service"), encoding: .utf8)
        let command = try #require(unit.split(separator: "\n").first { $0.hasPrefix("ExecStart=") })
        let backups = hogwarts.directory.appending(path: "backups")
        try FileManager.default.createDirectory(at: backups, withIntermediateDirectories: true)
        let arguments = command.dropFirst("ExecStart=".count).split(separator: " ").dropFirst()
            .map { $0 == "/var/backups/hogwarts" ? backups.path : String($0) }
        let result = try hogwarts.run(arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        let written = try FileManager.default.contentsOfDirectory(atPath: backups.path).filter { !$0.hasPrefix(".") }
        #expect(written.count == 1, "\(written)")
        for file in written {
            #expect(try hogwarts.run(["check", "--database", backups.appending(path: file).path]).status == 0)
        }
    }
}
