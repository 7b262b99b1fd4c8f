import Foundation
import HogwartsTestSupport
import Testing

/// Which commands may create a database, and what every command does with one it cannot use.
@Suite("Opening the database: missing, unmigrated, newer", .waitsOnProcesses, .serialized)
struct DatabaseGateTests {
    @Test("a mistyped --database is reported as missing (exit 66) by every command but migrate, demo and school create, and nothing is created", .enabled(if: !TestDatabase.isPostgres, "SQLite files"))
    func missingDatabase() throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        let typo = hogwarts.directory.appending(path: "hogwrats.sqlite").path
        for command in [["check"], ["school", "list"], ["students", "list"], ["migrate", "--status"], ["backup", "--to", "copy.sqlite"],
                        ["restore", "--from", "copy.sqlite"], ["modules", "list", "--school", "demo"], ["audit"], ["serve", "--port", "0"]] {
            let result = try hogwarts.run(command + ["--database", typo, "--lang", "en"])
            #expect(result.status == 66, "\(command): \(result.stderr)")
            #expect(result.stderr == "hogwarts: The database \(typo) does not exist. Check --database or HOGWARTS_DATABASE; to start a new one, run hogwarts migrate.\n", "\(command)")
            #expect(!FileManager.default.fileExists(atPath: typo), "\(command) created the file")
        }
        let arabic = try hogwarts.run(["check", "--database", typo])
        #expect(arabic.status == 66 && arabic.stderr.contains("غير موجودة"), "\(arabic.stderr)")
        #expect(try hogwarts.run(["modules", "list", "--database", typo]).status == 0, "what this build contains needs no database")
        #expect(!FileManager.default.fileExists(atPath: typo))

        let migrated = try hogwarts.run(["migrate", "--database", typo])
        #expect(migrated.status == 0 && DataSafetyHostTests.permissions(typo) == 0o600, "migrate starts a new database, private")
    }

    @Test("school create starts a new database, migrated; with bad input it leaves none behind", .enabled(if: !TestDatabase.isPostgres, "SQLite files"))
    func schoolCreateStartsADatabase() throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        let fresh = hogwarts.directory.appending(path: "north.sqlite").path
        let create = ["school", "create", "--database", fresh, "--name-ar", "مدرسة الشمال", "--name-en", "North School", "--admin-email", "head@north.org", "--lang", "en"]
        let refused = try hogwarts.run(create + ["--slug", "North School"], input: "Orchard-Lamp-2026\n")
        #expect(refused.status == 64, "\(refused.stderr)")
        for suffix in ["", "-wal", "-shm"] {
            #expect(!FileManager.default.fileExists(atPath: fresh + suffix), "a refused school create left \(suffix.isEmpty ? "the database" : suffix)")
        }
        let created = try hogwarts.run(create + ["--slug", "north"], input: "Orchard-Lamp-2026\n")
        #expect(created.status == 0, "\(created.stderr)")
        #expect(DataSafetyHostTests.permissions(fresh) == 0o600)
        let schools = try hogwarts.run(["school", "list", "--database", fresh, "--json"])
        #expect(schools.status == 0 && schools.stdout.contains("\"north\""), "\(schools.stderr)")
    }

    @Test("serve and every command refuse an unmigrated database with one sentence naming hogwarts migrate; serve --migrate migrates and serves")
    func unmigratedDatabase() async throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        // An existing but empty database: a new SQLite file, or a fresh PostgreSQL schema.
        if !TestDatabase.isPostgres {
            #expect(FileManager.default.createFile(atPath: hogwarts.databasePath, contents: nil, attributes: [.posixPermissions: 0o600]))
        }
        for command in [["serve", "--port", "0"], ["school", "list"], ["students", "list"], ["keys", "rotate"], ["settings", "list"]] {
            let result = try hogwarts.run(command + ["--lang", "en"])
            #expect(result.status == 69, "\(command): \(result.stderr)")
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix("hogwarts: The database needs ") && lines[0].contains("Run hogwarts migrate first"), "\(command): \(result.stderr)")
            #expect(!result.stderr.contains("no such table") && !result.stderr.contains("does not exist"), "\(command): \(result.stderr)")
        }
        let arabic = try hogwarts.run(["serve", "--port", "0"])
        #expect(arabic.status == 69 && arabic.stderr.contains("hogwarts migrate") && arabic.stderr.contains("قاعدة البيانات تحتاج"), "\(arabic.stderr)")
        #expect(try hogwarts.run(["check"]).status == 0, "check works on a database of any version")

        let server = try ServedHogwarts(hogwarts, arguments: ["--migrate"])
        defer { _ = server.stop() }
        let ready = try await server.request("GET", "/ready")
        #expect(ready.status == 200, "serve --migrate migrated before serving")
        #expect(try hogwarts.run(["school", "list"]).status == 0)
    }

    @Test("a database written by a newer Hogwarts is refused by every command, serve --migrate included; restore and backup still work on it")
    func newerDatabase() throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo"]).status == 0)
        try hogwarts.execute("UPDATE kernel_meta SET value = '99.0.0' WHERE key = 'platform_version'")
        for command in [["school", "list"], ["students", "list", "--school", "demo"], ["serve", "--port", "0"], ["serve", "--port", "0", "--migrate"], ["migrate"]] {
            let result = try hogwarts.run(command + ["--lang", "en"])
            #expect(result.status == 65, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("was made by a newer Hogwarts (99.0.0)") && result.stderr.contains("Upgrade hogwarts first"), "\(command): \(result.stderr)")
        }
        if !TestDatabase.isPostgres {
            let backup = hogwarts.directory.appending(path: "before-downgrade.sqlite").path
            #expect(try hogwarts.run(["backup", "--to", backup]).status == 0, "a backup is what one wants before going back")
        }
    }
}
