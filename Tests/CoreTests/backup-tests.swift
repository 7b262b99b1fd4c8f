@testable import Core
import Foundation
import GRDB
import HogwartsTestSupport
import Testing

@Suite("Backup and restore")
struct BackupTests {
    @Test("a backup taken while another connection writes is consistent and restores the data", .enabled(if: !TestDatabase.isPostgres, "SQLite files: PostgreSQL refuses backup and restore (postgres-engine-tests)"))
    func roundTrip() throws {
        let harness = try TestHarness(modules: [NotesModule()])
        try harness.run(AddNote.self, .init(title: "Before backup"), as: .admin)
        let writer = try Kernel(databasePath: harness.databasePath, modules: [NotesModule()])
        let backupPath = harness.directory.appending(path: "backup.sqlite").path

        let writes = Thread { for index in 0..<30 { _ = try? writer.run(AddNote.self, .init(title: "w\(index)"), as: harness.user(.admin), in: harness.school.id) } }
        writes.start()
        try harness.kernel.backup(to: backupPath)

        let copy = try DatabaseQueue(path: backupPath)
        let integrity = try copy.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") }
        #expect(integrity == "ok")
        let titles = try copy.read { db in try String.fetchAll(db, sql: "SELECT title FROM notes_notes") }
        #expect(titles.contains("Before backup"))
        try copy.close()
        while writes.isExecuting || !writes.isFinished { Thread.sleep(forTimeInterval: 0.01) }

        try harness.run(AddNote.self, .init(title: "After backup"), as: .admin)
        let previous = try harness.kernel.restore(from: backupPath)
        let restored = try harness.run(ListNotes.self, .init(), as: .admin)
        #expect(restored.contains("Before backup"))
        #expect(!restored.contains("After backup"))
        #expect(FileManager.default.fileExists(atPath: previous), "the replaced contents are kept")
        #expect(throws: KernelError.fileExists(backupPath)) { try harness.kernel.backup(to: backupPath) }
    }

    @Test("restore refuses a file that is not a Hogwarts database, and changes nothing", .enabled(if: !TestDatabase.isPostgres, "SQLite files: PostgreSQL refuses backup and restore (postgres-engine-tests)"))
    func refusesForeignFiles() throws {
        let harness = try TestHarness(modules: [NotesModule()])
        try harness.run(AddNote.self, .init(title: "Keep me"), as: .admin)
        let text = harness.directory.appending(path: "notes.txt").path
        try "just text".write(toFile: text, atomically: true, encoding: .utf8)
        #expect(throws: KernelError.notAHogwartsDatabase(text)) { try harness.kernel.restore(from: text) }

        let otherSQLite = harness.directory.appending(path: "other.sqlite").path
        try DatabaseQueue(path: otherSQLite).write { db in try db.execute(sql: "CREATE TABLE t (x)") }
        #expect(throws: KernelError.notAHogwartsDatabase(otherSQLite)) { try harness.kernel.restore(from: otherSQLite) }
        #expect(throws: KernelError.fileMissing("/nonexistent.sqlite")) { try harness.kernel.restore(from: "/nonexistent.sqlite") }
        #expect(try harness.run(ListNotes.self, .init(), as: .admin) == ["Keep me"])
    }

    @Test("restore refuses a backup made by a newer version", .enabled(if: !TestDatabase.isPostgres, "SQLite files: PostgreSQL refuses backup and restore (postgres-engine-tests)"))
    func refusesNewerVersion() throws {
        let harness = try TestHarness(modules: [NotesModule()])
        let backupPath = harness.directory.appending(path: "future.sqlite").path
        try harness.kernel.backup(to: backupPath)
        try DatabaseQueue(path: backupPath).write { db in
            try db.execute(sql: "UPDATE kernel_meta SET value = '99.0.0' WHERE key = 'platform_version'")
        }
        #expect(throws: KernelError.newerDatabase(path: backupPath, found: "99.0.0", supported: PlatformVersion.current.description)) {
            try harness.kernel.restore(from: backupPath)
        }
    }
}
