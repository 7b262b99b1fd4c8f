import Foundation
import HogwartsBase

extension Kernel {
    /// The kernel's migrations followed by every module's, in dependency order.
    var migrationPlan: [(module: ModuleID, migrations: [Migration])] {
        [(KernelSchema.moduleID, KernelSchema.migrations)] + registry.modules.map { ($0.id, $0.migrations) }
    }

    /// Applies every pending migration, dependencies first, each module's batch in one
    /// transaction. Refuses to run at all if an applied migration's text changed. Returns
    /// what was applied as `module/migration`.
    @discardableResult
    public func migrate(progress: ProgressReporter? = nil) throws -> [String] {
        try store.write { db in try db.executeScript(KernelSchema.bootstrapSQL) }
        try store.read { db in try checkFileVersion(db) }
        let applied = try store.read { db in try appliedChecksums(db) }
        try verifyChecksums(applied)

        let pending = migrationPlan.compactMap { module, migrations -> (ModuleID, [Migration])? in
            let todo = migrations.filter { applied["\(module)/\($0.id)"] == nil }
            return todo.isEmpty ? nil : (module, todo)
        }
        let total = pending.reduce(0) { $0 + $1.1.count }
        var done: [String] = []
        for (module, migrations) in pending {
            try store.write { db in
                let tablesBefore = try db.tableNames()
                for migration in migrations {
                    progress?(done.count, total, "\(module)/\(migration.id)")
                    do {
                        try db.executeScript(migration.sql)
                    } catch KernelError.storage(let reason) {
                        throw KernelError.migrationFailed(module: module, migration: migration.id, reason: reason)
                    }
                    try db.execute(
                        sql: "INSERT INTO kernel_migrations (module_id, migration_id, checksum, applied_at) VALUES (?, ?, ?, ?)",
                        arguments: [module, migration.id, migration.checksum, now()])
                    done.append("\(module)/\(migration.id)")
                }
                if module != KernelSchema.moduleID {
                    try requireSchoolColumn(module: module, newTables: try db.tableNames().subtracting(tablesBefore), db: db)
                }
            }
            logger.info("migrated", metadata: ["module": "\(module)", "count": "\(migrations.count)"])
        }
        try store.write { db in
            try stampFileVersion(db)
            try store.recorder?.install(db)
        }
        progress?(total, total, "")
        return done
    }

    /// Every declared migration with the time it was applied, or nil while pending.
    public func migrationStatus() throws -> [MigrationStatus] {
        let appliedAt: [String: Date] = try store.read { db in
            guard try db.tableExists("kernel_migrations") else { return [:] }
            var result: [String: Date] = [:]
            for row in try db.fetchAll(sql: "SELECT module_id, migration_id, applied_at FROM kernel_migrations") {
                let key = "\(row.string("module_id"))/\(row.string("migration_id"))"
                result[key] = (row["applied_at"] as String?).flatMap(SQLDateFormat.date(from:))
            }
            return result
        }
        return migrationPlan.flatMap { module, migrations in
            migrations.map { MigrationStatus(module: module, migration: $0.id, appliedAt: appliedAt["\(module)/\($0.id)"]) }
        }
    }

    /// Refuses, before any work starts, a database this build cannot use as it stands: one a
    /// newer Hogwarts wrote (`newerDatabase`), or one with migrations still to apply, never
    /// migrated at all included (`pendingMigrations`, which names `hogwarts migrate`).
    public func requireCurrentSchema() throws {
        try store.read { db in
            if try db.tableExists("kernel_meta") { try checkFileVersion(db) }
            try requireMigrated(db)
        }
    }

    /// Refuses to work on a database with pending migrations: running new code on an old
    /// schema would fail halfway through an action.
    package func requireMigrated(_ db: any StorageConnection) throws {
        // Applied migrations stay applied (only a restore can take them back, and it resets
        // this): once found complete, every later action of this process skips the two reads.
        if migrationsComplete.withLock({ $0 }) { return }
        let appliedCount = try db.tableExists("kernel_migrations")
            ? try db.fetchValue(Int.self, sql: "SELECT COUNT(*) FROM kernel_migrations") ?? 0
            : 0
        let declared = migrationPlan.reduce(0) { $0 + $1.migrations.count }
        if appliedCount < declared {
            // Count precisely only on the slow path.
            let applied = try appliedChecksums(db)
            let pending = migrationPlan.reduce(0) { sum, plan in
                sum + plan.migrations.filter { applied["\(plan.module)/\($0.id)"] == nil }.count
            }
            if pending > 0 { throw KernelError.pendingMigrations(pending) }
        }
        migrationsComplete.withLock { $0 = true }
    }

    private func appliedChecksums(_ db: any StorageConnection) throws -> [String: String] {
        guard try db.tableExists("kernel_migrations") else { return [:] }
        var result: [String: String] = [:]
        for row in try db.fetchAll(sql: "SELECT module_id, migration_id, checksum FROM kernel_migrations") {
            result["\(row.string("module_id"))/\(row.string("migration_id"))"] = row.string("checksum")
        }
        return result
    }

    private func verifyChecksums(_ applied: [String: String]) throws {
        for (module, migrations) in migrationPlan {
            for migration in migrations {
                if let checksum = applied["\(module)/\(migration.id)"], checksum != migration.checksum {
                    throw KernelError.migrationChanged(module: module, migration: migration.id)
                }
            }
        }
    }

    /// Tenancy is enforced at the schema too: a module table without `school_id` is refused.
    private func requireSchoolColumn(module: ModuleID, newTables: Set<String>, db: any StorageConnection) throws {
        for table in newTables.sorted() where try !db.columnNames(in: table).contains("school_id") {
            throw KernelError.tableWithoutSchool(module: module, table: table)
        }
    }

    /// Refuses a file written by a newer Hogwarts: its schema may hold things this build cannot read.
    func checkFileVersion(_ db: any StorageConnection) throws {
        guard let text = try db.fetchValue(String.self, sql: "SELECT value FROM kernel_meta WHERE key = 'platform_version'"),
              let version = SemanticVersion(parsing: text)
        else { return }
        if version > PlatformVersion.current {
            throw KernelError.newerDatabase(path: databasePath, found: text, supported: PlatformVersion.current.description)
        }
    }

    private func stampFileVersion(_ db: any StorageConnection) throws {
        try db.execute(sql: """
            INSERT INTO kernel_meta (key, value) VALUES ('format', ?), ('platform_version', ?)
            ON CONFLICT (key) DO UPDATE SET value = excluded.value
            """, arguments: [PlatformVersion.format, PlatformVersion.current.description])
    }
}
