import HogwartsBase

/// The offline sync tables (a kernel migration) and the triggers that mark synced entities changed.
enum SyncSchema {
    /// `kernel_sync_clock` hands out each school's change sequence in commit order (taken by the
    /// recorder after its reads, and its row lock held to the commit, orders commits); `min_seq`
    /// is the oldest cursor still served.
    /// `kernel_sync_clients` binds a client id to a user and school and holds its last applied
    /// mutation; `kernel_sync_mutations` is the ledger a duplicate is answered from.
    /// `kernel_sync_changes` has one row per change and scope key that may see it;
    /// `kernel_sync_entities` where each entity was last sent and its payload's digest, so a delete
    /// reaches the keys that saw it and a write that changed nothing a client sees records nothing;
    /// `kernel_sync_pending` is filled by triggers and emptied at the end of every write transaction.
    static let migration = Migration("008-sync", sql: """
        CREATE TABLE kernel_sync_clock (
            school_id TEXT PRIMARY KEY,
            seq INTEGER NOT NULL DEFAULT 0,
            min_seq INTEGER NOT NULL DEFAULT 0
        );
        CREATE TABLE kernel_sync_clients (
            client_id TEXT PRIMARY KEY,
            school_id TEXT NOT NULL,
            user_id TEXT NOT NULL,
            last_mutation_seq INTEGER NOT NULL DEFAULT 0,
            created_at TEXT NOT NULL,
            last_seen_at TEXT NOT NULL
        );
        CREATE TABLE kernel_sync_mutations (
            client_id TEXT NOT NULL,
            mutation_seq INTEGER NOT NULL,
            mutation_id TEXT NOT NULL,
            name TEXT NOT NULL,
            status TEXT NOT NULL,
            error_key TEXT,
            error_arguments TEXT,
            error_code TEXT,
            current TEXT,
            result TEXT,
            at TEXT NOT NULL,
            PRIMARY KEY (client_id, mutation_seq)
        );
        CREATE TABLE kernel_sync_changes (
            school_id TEXT NOT NULL,
            seq INTEGER NOT NULL,
            scope_key TEXT NOT NULL,
            entity_type TEXT NOT NULL,
            entity_id TEXT NOT NULL,
            op TEXT NOT NULL,
            payload TEXT,
            origin_client_id TEXT,
            origin_mutation_seq INTEGER,
            PRIMARY KEY (school_id, seq, scope_key)
        );
        CREATE INDEX kernel_sync_changes_scope ON kernel_sync_changes (school_id, scope_key, seq);
        CREATE TABLE kernel_sync_entities (
            school_id TEXT NOT NULL,
            entity_type TEXT NOT NULL,
            entity_id TEXT NOT NULL,
            version INTEGER NOT NULL,
            scopes TEXT NOT NULL,
            digest TEXT NOT NULL,
            PRIMARY KEY (school_id, entity_type, entity_id)
        );
        CREATE TABLE kernel_sync_pending (
            school_id TEXT NOT NULL,
            entity_type TEXT NOT NULL,
            entity_id TEXT NOT NULL,
            PRIMARY KEY (school_id, entity_type, entity_id)
        ) WITHOUT ROWID;
        """)

    static let triggerPrefix = "kernel_sync_trigger_"

    /// One trigger per entity type, source table and operation, named after all three, in the
    /// engine's own DDL. A school records nothing until a device has asked for its changes (`SyncActivation`).
    static func triggers(for types: [SyncEntityType], dialect: any SQLDialect) -> [TriggerDefinition] {
        var result: [TriggerDefinition] = []
        for type in types {
            for source in type.sources {
                let base = triggerPrefix + [type.type, source.table, source.idColumn].map(safe).joined(separator: "__")
                func mark(_ row: String) -> String {
                    // NOT EXISTS rather than OR IGNORE: an outer statement's conflict policy (an upsert) overrides a trigger's.
                    """
                    INSERT INTO kernel_sync_pending (school_id, entity_type, entity_id) SELECT \(row).\(source.schoolColumn), '\(type.type)', \(row).\(source.idColumn)
                    WHERE \(row).\(source.idColumn) IS NOT NULL
                    AND EXISTS (SELECT 1 FROM kernel_sync_clock WHERE school_id = \(row).\(source.schoolColumn))
                    AND NOT EXISTS (SELECT 1 FROM kernel_sync_pending WHERE school_id = \(row).\(source.schoolColumn)
                    AND entity_type = '\(type.type)' AND entity_id = \(row).\(source.idColumn));
                    """
                }
                for (suffix, event, body) in [("_ins", "INSERT", mark("NEW")), ("_upd", "UPDATE", "\(mark("NEW")) \(mark("OLD"))"), ("_del", "DELETE", mark("OLD"))] {
                    result.append(dialect.rowTrigger(name: base + suffix, table: source.table, event: event, body: body))
                }
            }
        }
        return result
    }

    /// Makes the database's sync triggers the declared ones on the tables that exist; returns
    /// whether every declared source table exists (false halfway through a migration).
    @discardableResult
    static func installTriggers(for types: [SyncEntityType], in db: any StorageConnection) throws -> Bool {
        let tables = try db.tableNames()
        let present = types.map { type in
            SyncEntityType(type.type, sources: type.sources.filter { tables.contains($0.table) }, load: type.load, snapshot: type.snapshot)
        }
        let complete = types.allSatisfy { $0.sources.allSatisfy { tables.contains($0.table) } }
        let wanted = triggers(for: present, dialect: db.dialect)
        // Compared by their text, so a trigger whose body changed in a newer build is replaced.
        let existing = try db.triggers(prefixed: triggerPrefix)
        guard Set(existing.map(\.definition)) != Set(wanted.map(\.definition)) else { return complete }
        for trigger in existing.sorted(by: { $0.name < $1.name }) { try db.executeScript(db.dialect.dropTrigger(name: trigger.name, table: trigger.table)) }
        for trigger in wanted { try db.executeScript(trigger.script) }
        return complete
    }

    private static func safe(_ name: String) -> String {
        String(name.map { $0.isLetter || $0.isNumber ? $0 : "_" })
    }
}
