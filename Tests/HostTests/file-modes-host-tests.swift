import Foundation
import HogwartsTestSupport
import Testing

@Suite("Every file the platform writes is its owner's alone", .waitsOnProcesses, .enabled(if: !TestDatabase.isPostgres, "SQLite files and their modes"))
struct FileModesHostTests {
    @Test("the database, backups, the copy a restore keeps, the session file, a students export and the outbox log are all 0600")
    func everyFileIsPrivate() throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        // Run with the usual umask (022), under which a plain create would be 0644.
        #expect(try hogwarts.run(["demo"]).status == 0)
        var files = [hogwarts.databasePath]

        let backup = hogwarts.directory.appending(path: "backup.sqlite").path
        #expect(try hogwarts.run(["backup", "--to", backup]).status == 0)
        files.append(backup)
        let restore = try hogwarts.run(["restore", "--from", backup, "--json"])
        let previous = try #require((try JSONSerialization.jsonObject(with: Data(restore.stdout.utf8)) as? [String: Any])?["previous"] as? String, "\(restore.stderr)")
        files.append(previous)

        #expect(try hogwarts.login("teacher@databayt.org").status == 0)
        files.append(hogwarts.directory.appending(path: "config/sessions.json").path)
        let export = hogwarts.directory.appending(path: "students.csv").path
        let exported = try hogwarts.run(["students", "export", "--to", export])
        #expect(exported.status == 0, "\(exported.stderr)")
        files.append(export)

        let taken = try hogwarts.run(["attendance", "take", "--class", "7A", "--period", "P1", "--absent", "1", "--lang", "en"])
        #expect(taken.status == 0, "\(taken.stderr)")
        let delivered = try hogwarts.run(["notifications", "deliver", "--school", "demo", "--lang", "en"])
        #expect(delivered.status == 0, "\(delivered.stderr)")
        files.append(hogwarts.directory.appending(path: "hogwarts-outbox.log").path)

        for file in files {
            #expect(DataSafetyHostTests.permissions(file) == 0o600, "\(file): \(String(DataSafetyHostTests.permissions(file), radix: 8))")
        }
    }
}
