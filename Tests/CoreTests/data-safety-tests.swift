@testable import Core
import HogwartsSQLite
import Foundation
import GRDB
import HogwartsTestSupport
import Testing

/// A module with a file the platform writes, to test where such a setting may point.
private struct DeliveryLogModule: AppModule {
    static let logPath = Setting<String>.filePath("delivery", "log-path", default: "delivery.log")
    let id: ModuleID = "delivery"
    let version = SemanticVersion(1, 0, 0)
    var settings: [SettingDefinition] { [Self.logPath.definition] }
    var strings: StringCatalog { StringCatalog(ar: [:], en: [:]) }
}

private func permissions(of path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
}

/// Writes random bytes over the middle of a file, the way a failing disk would.
private func damage(_ path: String) throws {
    let handle = try #require(FileHandle(forUpdatingAtPath: path))
    let size = try handle.seekToEnd()
    try handle.seek(toOffset: size / 2)
    var generator = SystemRandomNumberGenerator()
    try handle.write(contentsOf: Data((0..<16_384).map { _ in UInt8.random(in: 0...255, using: &generator) }))
    try handle.close()
}

@Suite("Data safety: file modes, integrity checks, atomic backups")
struct DataSafetyTests {
    @Test("a new database, its WAL and shared-memory files and its backups are readable by their owner only", .enabled(if: !TestDatabase.isPostgres, "SQLite files: PostgreSQL refuses backup and restore (postgres-engine-tests)"))
    func privateFiles() throws {
        let harness = try TestHarness(modules: [NotesModule()])
        try harness.run(AddNote.self, .init(title: "private"), as: .admin)
        #expect(try permissions(of: harness.databasePath) == 0o600)
        for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: harness.databasePath + suffix) {
            #expect(try permissions(of: harness.databasePath + suffix) == 0o600, "\(suffix)")
        }
        let backup = harness.directory.appending(path: "copy.sqlite").path
        try harness.kernel.backup(to: backup)
        #expect(try permissions(of: backup) == 0o600)
    }

    @Test("a backup leaves nothing beside it, and a torn file from a killed backup does not block the next one", .enabled(if: !TestDatabase.isPostgres, "SQLite files: PostgreSQL refuses backup and restore (postgres-engine-tests)"))
    func atomicBackup() throws {
        let harness = try TestHarness(modules: [NotesModule()])
        let backup = harness.directory.appending(path: "nightly.sqlite").path
        // What a backup killed half-way leaves now: a hidden partial file, never the target name.
        let torn = harness.directory.appending(path: ".nightly.sqlite.partial-deadbeef").path
        try Data(repeating: 7, count: 4096).write(to: URL(filePath: torn))
        try harness.kernel.backup(to: backup)
        let left = try FileManager.default.contentsOfDirectory(atPath: harness.directory.path).filter { $0.contains("nightly") }
        #expect(Set(left) == ["nightly.sqlite", ".nightly.sqlite.partial-deadbeef"], "only the finished backup (and the old torn file) are there")
        #expect(try SQLiteEngine.openHogwartsFile(backup).read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") } == "ok")
    }

    @Test("a damaged database is not backed up, a damaged backup is not restored, and check reports both", .enabled(if: !TestDatabase.isPostgres, "SQLite files: PostgreSQL refuses backup and restore (postgres-engine-tests)"))
    func integrity() throws {
        let harness = try TestHarness(modules: [NotesModule()])
        for index in 0..<400 { try harness.run(AddNote.self, .init(title: "note \(index)"), as: .admin) }
        #expect(harness.kernel.checkIntegrity().ok)
        let good = harness.directory.appending(path: "good.sqlite").path
        try harness.kernel.backup(to: good)

        // A damaged backup: restore refuses it and the live data stays.
        let bad = harness.directory.appending(path: "bad.sqlite").path
        try FileManager.default.copyItem(atPath: good, toPath: bad)
        try damage(bad)
        #expect { try harness.kernel.restore(from: bad) } throws: { error in
            guard case KernelError.corruptDatabase(let path, _) = error else { return false }
            return path == bad
        }
        #expect(try harness.run(ListNotes.self, .init(), as: .admin).count == 400)

        // A damaged live database: check says so, backup refuses and writes no file.
        let damaged = try Kernel(databasePath: bad, modules: [NotesModule()])
        let report = damaged.checkIntegrity()
        #expect(!report.ok)
        #expect(!report.problems.isEmpty)
        let copy = harness.directory.appending(path: "copy-of-bad.sqlite").path
        #expect { try damaged.backup(to: copy) } throws: { error in
            if case KernelError.corruptDatabase = error { return true }
            return false
        }
        #expect(!FileManager.default.fileExists(atPath: copy))
    }

    @Test("a file-path setting stays inside the database's folder unless forced, and resolves there; on a server database the operator's absolute path is taken as given")
    func filePathSetting() throws {
        let harness = try TestHarness(modules: [DeliveryLogModule()])
        let key = DeliveryLogModule.logPath.fullKey
        /// Whether setting `path` is refused as outside the folder, naming the path.
        func refusedOutside(_ path: String, by principal: Principal) -> Bool {
            do {
                try harness.kernel.setSetting(key, to: path, for: harness.school.id, by: principal)
                return false
            } catch KernelError.settingPathOutside(_, let named, _) {
                return named == path
            } catch {
                return false
            }
        }
        let admin = harness.user(.admin)
        // A school administrator (the console) never leaves the folder, on either engine.
        #expect(refusedOutside("/etc/cron.d/evil", by: admin))
        if TestDatabase.isPostgres {
            // A server database has no folder: the operator at the machine names where its files go.
            try harness.kernel.setSetting(key, to: "/var/log/hogwarts-delivery.log", for: harness.school.id, by: .localOperator)
            #expect(try harness.kernel.settings(for: harness.school.id).first { $0.key == key }?.value == "/var/log/hogwarts-delivery.log")
        } else {
            #expect(refusedOutside("/etc/cron.d/evil", by: .localOperator))
        }
        #expect(throws: KernelError.self) { try harness.kernel.setSetting(key, to: "../outside.log", for: harness.school.id, by: .localOperator) }
        #expect(throws: KernelError.self) { try harness.kernel.setSetting(key, to: "../outside.log", for: harness.school.id, by: admin) }
        try harness.kernel.setSetting(key, to: "logs/admin.log", for: harness.school.id, by: admin)
        try harness.kernel.setSetting(key, to: "logs/delivery.log", for: harness.school.id, by: .localOperator)
        try harness.kernel.setSetting(key, to: "/var/log/hogwarts.log", for: harness.school.id, by: .localOperator, force: true)
        #expect(try harness.kernel.settings(for: harness.school.id).first { $0.key == key }?.value == "/var/log/hogwarts.log")
        let folder = harness.kernel.databaseFolder
        #expect(SettingsReader.resolve("delivery.log", in: folder).path == folder.appending(path: "delivery.log").path)
    }

    @Test("operator actions are audited with the operating-system account that ran them")
    func operatorIsNamed() throws {
        let harness = try TestHarness(modules: [NotesModule()])
        try harness.kernel.setSetting(NotesModule.maxLength.fullKey, to: "60", for: harness.school.id, by: .localOperator)
        let entry = try #require(try harness.kernel.auditLog(for: harness.school.id).first)
        #expect(entry.action == "kernel.setting.set")
        #expect(entry.userID == "operator:\(OperatingSystemUser.name)")
        #expect(!OperatingSystemUser.name.isEmpty)
    }
}

/// An action whose input is a number, for the kernel's own check of numbers JSON cannot hold.
private struct Measure: Action {
    struct Input: Codable, Sendable { var value: Double }
    static let id = "measure.record"
    static let permission: Permission = "measure.record"
    func perform(_ input: Input, in context: ActionContext) throws -> Double { input.value }
}

private struct MeasureModule: AppModule {
    let id: ModuleID = "measure"
    let version = SemanticVersion(1, 0, 0)
    var actions: [any Action.Type] { [Measure.self] }
    var permissions: [PermissionDefinition] {
        [PermissionDefinition(Measure.permission, summary: LocalizedText(ar: "قياس", en: "Measure"), grants: .administrators)]
    }
    var strings: StringCatalog { StringCatalog(ar: [:], en: [:]) }
}

@Suite("Numbers JSON cannot hold")
struct NonFiniteInputTests {
    @Test("NaN or infinity from a caller that skipped the transport's checks is refused as bad input, naming the field")
    func refused() throws {
        let harness = try TestHarness(modules: [MeasureModule()])
        for value in [Double.nan, .infinity, -.infinity] {
            #expect(throws: InputError("kernel.error.input-not-finite", ["field": "value"])) {
                try harness.run(Measure.self, .init(value: value), as: .admin)
            }
        }
        #expect(try harness.kernel.auditLog(for: harness.school.id).allSatisfy { $0.action != Measure.id }, "nothing ran")
        #expect(try harness.run(Measure.self, .init(value: 18.5), as: .admin) == 18.5)
    }
}

@Suite("Durability")
struct DurabilityTests {
    @Test("every commit waits for the disk: WAL with synchronous = FULL on the kernel's writer", .enabled(if: !TestDatabase.isPostgres, "SQLite files: PostgreSQL refuses backup and restore (postgres-engine-tests)"))
    func fullSync() throws {
        let harness = try TestHarness(modules: [NotesModule()])
        let pool = try #require((harness.kernel.store.engine as? SQLiteEngine)?.pool)
        let level = try pool.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
        #expect(level == 2, "2 is FULL; GRDB's default for WAL is NORMAL (1)")
        let mode = try pool.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
    }
}
