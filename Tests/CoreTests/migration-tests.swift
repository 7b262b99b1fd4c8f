@testable import Core
import Foundation
import HogwartsTestSupport
import Testing

@Suite("Migrations")
struct MigrationTests {
    @Test("pending migrations run in dependency order and are recorded with a checksum")
    func appliesInOrder() throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "hogwarts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let kernel = try Kernel(databasePath: directory.appending(path: "db.sqlite").path, modules: [DigestModule(), NotesModule()])
        #expect(try kernel.migrationStatus().allSatisfy { !$0.isApplied })

        let applied = try kernel.migrate()
        #expect(applied.filter { !$0.hasPrefix("kernel/") } == ["notes/001-notes", "digest/001-entries"])
        #expect(try kernel.migrationStatus().allSatisfy(\.isApplied))
        let checksum = try kernel.store.read { db in
            try db.fetchValue(String.self, sql: "SELECT checksum FROM kernel_migrations WHERE module_id = 'notes'")
        }
        #expect(checksum == NotesModule().migrations[0].checksum)
        #expect(try kernel.migrate().isEmpty, "a second run has nothing to do")
        let journalMode = try kernel.store.read { db in try db.fetchValue(String.self, sql: "PRAGMA journal_mode") }
        #expect(journalMode == "wal")
    }

    @Test("an applied migration whose text changed is refused, naming it")
    func changedMigration() throws {
        let harness = try TestHarness(modules: [NotesModule()])
        var edited = NotesModule()
        edited.migrations = [Migration("001-notes", sql: "CREATE TABLE notes_notes (school_id TEXT, id TEXT, body TEXT);")]
        let reopened = try Kernel(databasePath: harness.databasePath, modules: [edited])
        #expect(throws: KernelError.migrationChanged(module: "notes", migration: "001-notes")) { try reopened.migrate() }
    }

    @Test("a failing migration leaves nothing of its module's batch behind")
    func failingBatchRollsBack() throws {
        let harness = try TestHarness(modules: [NotesModule()])
        var grown = NotesModule()
        grown.migrations += [
            Migration("002-tags", sql: "CREATE TABLE notes_tags (school_id TEXT NOT NULL, tag TEXT NOT NULL);"),
            Migration("003-broken", sql: "ALTER TABLE notes_missing ADD COLUMN x TEXT;"),
        ]
        let reopened = try Kernel(databasePath: harness.databasePath, modules: [grown])
        #expect(throws: KernelError.self) { try reopened.migrate() }
        let state = try reopened.store.read { db in
            (try db.tableExists("notes_tags"), try db.fetchValue(Int.self, sql: "SELECT COUNT(*) FROM kernel_migrations WHERE module_id = 'notes'"))
        }
        #expect(state.0 == false)
        #expect(state.1 == 1)
        #expect(throws: KernelError.pendingMigrations(2)) {
            try reopened.run(ListNotes.self, .init(), as: harness.user(.admin), in: harness.school.id)
        }
    }

    @Test("a module table without school_id is refused")
    func tableWithoutSchool() throws {
        var leaky = NotesModule()
        leaky.migrations = [Migration("001-leaky", sql: "CREATE TABLE notes_leaky (id TEXT);")]
        #expect(throws: KernelError.tableWithoutSchool(module: "notes", table: "notes_leaky")) {
            try TestHarness(modules: [leaky])
        }
    }
}
