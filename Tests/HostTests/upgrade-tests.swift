import Core
import Foundation
import HogwartsTestSupport
import Testing

/// An upgrade as docs/operations.md tells the operator to do it: the database the previous
/// release wrote (`Fixtures/previous-release.sqlite.gz`: `hogwarts demo --force` by the binary
/// of e4d87ce, 29 MB, kept compressed) is migrated by this binary, keeps every row, and then works.
@Suite("Upgrade from the previous release", .waitsOnProcesses, .disabled(if: TestDatabase.isPostgres, "the fixture is a SQLite file: it runs in the SQLite pass"))
struct UpgradeTests {
    static let fixture = HogwartsProcess.packageRoot.appending(path: "Tests/HostTests/Fixtures/previous-release.sqlite.gz")

    /// Rows in each table of the database at `path`.
    static func rowCounts(_ path: String) throws -> [String: Int] {
        let tables = try DatabaseProbe.strings("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name", in: path)
        var counts: [String: Int] = [:]
        for table in tables {
            counts[table] = try DatabaseProbe.strings(#"SELECT COUNT(*) FROM "\#(table)""#, in: path).first.flatMap { Int($0) }
        }
        return counts
    }

    /// The fixture unpacked into a folder of its own, mode 0600 as a real database is.
    static func copyOfFixture(named name: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appending(path: "hogwarts-upgrade-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let copy = folder.appending(path: name)
        _ = FileManager.default.createFile(atPath: copy.path, contents: nil, attributes: [.posixPermissions: 0o600])
        let gzip = Process()
        gzip.executableURL = URL(filePath: "/bin/gzip")
        gzip.arguments = ["-dc", fixture.path]
        gzip.standardOutput = try FileHandle(forWritingTo: copy)
        try gzip.run()
        guard ChildExit.wait(for: gzip) == 0 else { throw Unpacking(fixture: fixture.path) }
        return copy
    }

    struct Unpacking: Error, CustomStringConvertible {
        let fixture: String
        var description: String { "gzip could not unpack \(fixture)" }
    }

    @Test("hogwarts migrate brings the previous release's database up to date with every row kept; then sign-in, lists, writes and the server work")
    func migratesPreviousRelease() async throws {
        let database = try Self.copyOfFixture(named: "hogwarts.sqlite")
        let pristine = try Self.copyOfFixture(named: "pristine.sqlite")
        defer {
            try? FileManager.default.removeItem(at: database.deletingLastPathComponent())
            try? FileManager.default.removeItem(at: pristine.deletingLastPathComponent())
        }
        let before = try Self.rowCounts(pristine.path)
        #expect(before["schools"] == 2 && before["students_students"] == 472, "not the two demo schools: \(before)")
        let hogwarts = try HogwartsProcess(database: database.path)
        defer { hogwarts.cleanUp() }

        // The previous release's file is behind this binary, and says so until it is migrated.
        let status = try hogwarts.run(["migrate", "--status", "--json"])
        #expect(status.status == 0, "\(status.stderr)")
        let pendingBefore = try pending(status.stdout)
        #expect(pendingBefore > 0, "the fixture needs no migration: it is not the previous release's")
        let refused = try hogwarts.login("teacher@databayt.org")
        #expect(refused.status == 69 && refused.stderr.contains("hogwarts migrate"), "\(refused.status) \(refused.stderr)")

        let migrated = try hogwarts.run(["migrate", "--lang", "en"])
        #expect(migrated.status == 0, "\(migrated.stderr)")
        #expect(try pending(try hogwarts.run(["migrate", "--status", "--json"]).stdout) == 0)

        // Every row of every table it had is still there; the ledger grew by what was applied.
        let after = try Self.rowCounts(database.path)
        for (table, count) in before where table != "kernel_migrations" {
            #expect(after[table] == count, "\(table): \(count) rows before, \(after[table].map(String.init) ?? "no table") after")
        }
        #expect(after["kernel_migrations"] == (before["kernel_migrations"] ?? 0) + pendingBefore)
        #expect(try hogwarts.run(["check"]).status == 0)

        // The demo teacher signs in and sees their 96 students; the admin writes a register.
        #expect(try hogwarts.login("teacher@databayt.org").status == 0)
        let students = try hogwarts.run(["students", "list", "--json"])
        #expect(students.status == 0, "\(students.stderr)")
        let list = try JSONSerialization.jsonObject(with: Data(students.stdout.utf8)) as? [String: Any]
        #expect(list?["total"] as? Int == 96, "\(students.stdout.prefix(300))")
        #expect(try hogwarts.login("admin@databayt.org").status == 0)
        let take = try hogwarts.run(["attendance", "take", "--class", "7A", "--date", "2026-11-23", "--absent", "GR-0003", "--lang", "en"])
        #expect(take.status == 0, "\(take.stderr)")
        let register = try hogwarts.run(["attendance", "register", "--class", "7A", "--date", "2026-11-23", "--json"])
        #expect(register.stdout.contains("GR-0003") && register.stdout.contains("ABSENT"), "\(register.stdout.prefix(300))")
        let schools = try hogwarts.run(["school", "list", "--json"])
        #expect(schools.stdout.contains("\"demo\"") && schools.stdout.contains("\"nile\""), "\(schools.stdout)")

        // And a server on it is ready.
        let server = try ServedHogwarts(hogwarts)
        defer { _ = server.stop() }
        let ready = try await server.request("GET", "/ready")
        #expect(ready.status == 200, "\(String(decoding: ready.body, as: UTF8.self))")
        #expect(try await server.signIn("teacher@databayt.org").isEmpty == false)
    }

    /// How many migrations `migrate --status --json` reports pending.
    private func pending(_ json: String) throws -> Int {
        guard let rows = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]], !rows.isEmpty else { throw StatusFormat(text: json) }
        return rows.filter { $0["applied_at"] == nil || $0["applied_at"] is NSNull }.count
    }

    struct StatusFormat: Error, CustomStringConvertible {
        let text: String
        var description: String { "unexpected migrate --status --json: \(text.prefix(300))" }
    }
}
