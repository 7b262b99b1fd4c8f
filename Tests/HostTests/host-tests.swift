import Foundation
import HogwartsTestSupport
import Testing

@Suite("The hogwarts binary", .waitsOnProcesses, .commandLineShape)
struct HostTests {
    @Test("help is Arabic by default and English with --lang en")
    func localizedHelp() throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        let arabic = try hogwarts.run(["--help"])
        #expect(arabic.status == 0)
        #expect(arabic.stdout.contains("منصة هوجورتس المدرسية"))
        let english = try hogwarts.run(["--help", "--lang", "en"])
        #expect(english.stdout.contains("Hogwarts school platform"))
        let viaEnvironment = try hogwarts.run(["modules", "--help"], environment: ["HOGWARTS_LANG": "en"])
        #expect(viaEnvironment.stdout.contains("switches them on or off per school"))
    }

    @Test("demo builds two schools the other commands can use, and will not overwrite them without --force")
    func demo() throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        let demo = try hogwarts.run(["demo", "--lang", "en"])
        #expect(demo.status == 0, "\(demo.stderr)")
        #expect(demo.stdout.contains("The demo schools demo, nile are ready"))
        #expect(TestDatabase.isPostgres || FileManager.default.fileExists(atPath: hogwarts.databasePath), "HOGWARTS_DATABASE chose the file")
        let again = try hogwarts.run(["demo", "--lang", "en"])
        #expect(again.status == 75)
        #expect(again.stderr.contains("--force"))
        if TestDatabase.isPostgres {
            // A server's database may hold real schools: --force erases nothing there.
            let forced = try hogwarts.run(["demo", "--force", "--lang", "en"])
            #expect(forced.status == 75 && forced.stderr.contains("dropdb"), "\(forced.stderr)")
        } else {
            #expect(try hogwarts.run(["demo", "--force"]).status == 0)
        }

        let schools = try hogwarts.run(["school", "list", "--json"])
        let list = try JSONSerialization.jsonObject(with: Data(schools.stdout.utf8)) as? [[String: Any]]
        #expect(list?.compactMap { $0["slug"] as? String } == ["demo", "nile"])

        let status = try hogwarts.run(["migrate", "--status", "--json"])
        let migrations = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [[String: Any]]
        #expect(migrations?.isEmpty == false)
        #expect(migrations?.allSatisfy { $0["applied_at"] != nil } == true)
    }

    @Test("--database picks the file and the database runs in WAL mode", .enabled(if: !TestDatabase.isPostgres, "SQLite files"))
    func databaseOption() throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        let other = hogwarts.directory.appending(path: "elsewhere.sqlite").path
        #expect(try hogwarts.run(["migrate", "--database", other]).status == 0)
        #expect(FileManager.default.fileExists(atPath: other))
        #expect(!FileManager.default.fileExists(atPath: hogwarts.databasePath))
        // SQLite's header bytes 18 and 19 are 2 when the file is in WAL mode.
        let header = try #require(FileManager.default.contents(atPath: other)).prefix(20)
        #expect(Array(header.suffix(2)) == [2, 2], "the database is in WAL mode")
    }

    @Test("bad input gets one clear line, a non-zero exit, and changes nothing", arguments: [
        (["modules", "enable", "library", "--school", "demo"], Int32(66), "There is no module library"),
        (["modules", "list", "--school", "nowhere"], Int32(66), "There is no school nowhere"),
        (["school", "create", "--slug", "Bad Slug", "--name-ar", "م", "--name-en", "B", "--admin-email", "a@b.org"], Int32(64), "Slug \"Bad Slug\" is invalid"),
        (["school", "create", "--slug", "demo", "--name-ar", "م", "--name-en", "B", "--admin-email", "a@b.org"], Int32(75), "already exists"),
        (["school", "create", "--slug", "third", "--name-ar", "م", "--name-en", "B", "--admin-email", "not-an-email"], Int32(65), "is not a valid email"),
        (["settings", "set", "nothing.here", "1", "--school", "demo"], Int32(66), "There is no setting nothing.here"),
        (["restore", "--from", "/nonexistent.sqlite"], Int32(66), "does not exist"),
    ])
    func badInput(arguments: [String], status: Int32, message: String) throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo"]).status == 0)
        let before = try hogwarts.run(["audit", "--school", "demo", "--json"]).stdout
        let schoolsBefore = try hogwarts.run(["school", "list", "--json"]).stdout

        var (status, message) = (status, message)
        if TestDatabase.isPostgres && arguments.first == "restore" {
            // A server's database refuses restore before any file is looked at, naming its tools.
            (status, message) = (69, "pg_restore")
        }
        let result = try hogwarts.run(arguments + ["--lang", "en"], input: "Corr3ct-Horse\n")
        #expect(result.status == status)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
        #expect(try hogwarts.run(["audit", "--school", "demo", "--json"]).stdout == before)
        #expect(try hogwarts.run(["school", "list", "--json"]).stdout == schoolsBefore)
    }

    @Test("malformed options are usage errors")
    func malformedOptions() throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["migrate", "--log-level", "loud"]).status == 64)
        #expect(try hogwarts.run(["migrate", "--lang", "fr"]).status == 64)
        #expect(try hogwarts.run(["modules", "enable"]).status == 64)
        #expect(!FileManager.default.fileExists(atPath: hogwarts.databasePath), "nothing was created")
    }

    @Test("a database that needs migrating says so instead of failing halfway")
    func pendingMigrations() throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        // An empty database (a file that is missing is another error: see DatabaseGateTests).
        if !TestDatabase.isPostgres {
            #expect(FileManager.default.createFile(atPath: hogwarts.databasePath, contents: nil, attributes: [.posixPermissions: 0o600]))
        }
        let result = try hogwarts.run(["school", "list", "--lang", "en"])
        #expect(result.status == 69)
        #expect(result.stderr.contains("Run hogwarts migrate first"))
    }

    @Test("--json output stays parseable while diagnostics go to stderr")
    func jsonAndLogsApart() throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        let result = try hogwarts.run(["migrate", "--json", "--log-level", "info"])
        #expect(result.status == 0)
        let applied = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String]
        #expect(applied?.contains("kernel/001-schools") == true)
        #expect(result.stderr.contains("migrated"), "info logs reach stderr")
    }

    @Test("backup copies a live database; restore refuses foreign files and brings a backup back", .enabled(if: !TestDatabase.isPostgres, "SQLite files: PostgreSQL refuses backup and restore (postgres-engine-tests)"))
    func backupAndRestore() throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo"]).status == 0)
        let backup = hogwarts.directory.appending(path: "demo-backup.sqlite").path
        #expect(try hogwarts.run(["backup", "--to", backup]).status == 0)
        #expect(try hogwarts.run(["backup", "--to", backup]).status == 75, "never overwrites")

        #expect(try hogwarts.run(["school", "create", "--slug", "second", "--name-ar", "الثانية", "--name-en", "Second", "--admin-email", "head@second.org"],
                                 input: "Corr3ct-Horse\n").status == 0)
        let notes = hogwarts.directory.appending(path: "notes.txt").path
        try "not a database".write(toFile: notes, atomically: true, encoding: .utf8)
        let refused = try hogwarts.run(["restore", "--from", notes, "--lang", "en"])
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("is not a Hogwarts database"))

        #expect(try hogwarts.run(["restore", "--from", backup]).status == 0)
        let schools = try hogwarts.run(["school", "list", "--json"]).stdout
        #expect(schools.contains("\"demo\"") && !schools.contains("\"second\""))
    }
}

/// CI runs the benchmark at its quick scale only to prove it still works; no time fails a build.
@Suite("The benchmark", .waitsOnProcesses, .commandLineShape)
struct BenchmarkTests {
    @Test("hogwarts-bench --quick measures every scenario beside its floor")
    func quickBenchmark() throws {
        let bench = HogwartsProcess.binary.deletingLastPathComponent().appending(path: "hogwarts-bench")
        let directory = FileManager.default.temporaryDirectory
        let result = try HogwartsProcess.run(bench, ["--quick", "--json"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let document = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let figures = document?["figures"] as? [[String: Any]] ?? []
        let scenarios = figures.compactMap { $0["scenario"] as? String }
        for expected in ["import", "attendance day", "attendance stats", "report cards", "unread counts", "Arabic search", "cold start"] {
            #expect(scenarios.contains { $0.contains(expected) }, "missing \(expected)")
        }
        #expect(figures.allSatisfy { ($0["seconds"] as? Double ?? 0) > 0 })
        #expect((document?["peakResidentMegabytes"] as? Double ?? 0) > 0)
    }

    @Test("hogwarts-bench --fees --quick measures invoicing and payments beside their floors")
    func quickFeesBenchmark() throws {
        let bench = HogwartsProcess.binary.deletingLastPathComponent().appending(path: "hogwarts-bench")
        let result = try HogwartsProcess.run(bench, ["--fees", "--quick", "--json"], in: FileManager.default.temporaryDirectory)
        #expect(result.status == 0, "\(result.stderr)")
        let document = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let figures = document?["figures"] as? [[String: Any]] ?? []
        let scenarios = figures.compactMap { $0["scenario"] as? String }
        #expect(scenarios.count == 3 && scenarios[0].contains("invoices") && scenarios.dropFirst().allSatisfy { $0.contains("payments") }, "\(scenarios)")
        #expect(figures.allSatisfy { ($0["seconds"] as? Double ?? 0) > 0 && ($0["floorSeconds"] as? Double ?? 0) > 0 })
        #expect(result.stderr.contains("120 students, 1320 invoices, 120 payments"), "11 invoices each: \(result.stderr)")
    }

    @Test("hogwarts-bench --delivery --quick sends every alert to the APNs stand-in and the SMTP server, and times a mark to its push",
          .enabled(if: AbsenceAlertDeliveryTests.toolsInstalled || EmailDeliveryTests.required, "install msmtp, aiosmtpd, nginx and openssl to run this"))
    func quickDeliveryBenchmark() throws {
        let bench = HogwartsProcess.binary.deletingLastPathComponent().appending(path: "hogwarts-bench")
        let result = try HogwartsProcess.run(bench, ["--delivery", "--quick", "--json"], in: FileManager.default.temporaryDirectory)
        #expect(result.status == 0, "\(result.stderr)")
        let document = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let figures = document?["figures"] as? [[String: Any]] ?? []
        #expect(figures.count == 3 && (figures.first?["scenario"] as? String ?? "").contains("12 pushes and 12 emails"), "\(figures)")
        #expect(figures.allSatisfy { ($0["seconds"] as? Double ?? 0) > 0 && ($0["floorSeconds"] as? Double ?? 0) > 0 })
    }
}
