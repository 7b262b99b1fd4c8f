import Foundation
import Synchronization
import HogwartsBase

/// Where a recorded change came from: the client and mutation that caused it, when a sync push did.
package struct SyncOrigin: Sendable {
    let clientID: String
    let mutationSeq: Int

    package init(clientID: String, mutationSeq: Int) {
        self.clientID = clientID
        self.mutationSeq = mutationSeq
    }
}

/// The one recorder every write path goes through: `KernelStore.write` calls it at the start and
/// the end of each write transaction, so the CLI, HTTP, imports, event handlers and the demo all
/// record their changes, and a pull misses nothing.
///
/// Triggers on the declared source tables note `(school, type, id)` in `kernel_sync_pending`; at
/// the end of the transaction the recorder works through them a chunk of ids at a time (the
/// pending table read in id order): asks the owning module for the chunk's current payloads and
/// scope keys, compares their digests with the last ones, takes the chunk's seqs from the
/// school's clock, writes its change rows and lets it go, so its memory is one chunk's however
/// many records the transaction changed. Then it empties the pending table. A transaction that
/// touched no synced table pays one empty SELECT.
package final class ChangeRecorder: Sendable {
    /// How many ids of one type are loaded, compared and written at a time.
    package static let chunkSize = 500

    private let types: [String: SyncEntityType]
    private let declared: [SyncEntityType]
    private let now: @Sendable () -> Date
    private let policy: AccessPolicy
    /// Each entity type's module, whose tables its `load` reads (`core-table-ownership.swift`).
    private let boundaries: [String: ModuleBoundary]
    /// Whether this process has seen the sync tables and the declared triggers in place.
    private let ready = Mutex(false)

    init(registry: ModuleRegistry, now: @escaping @Sendable () -> Date) {
        declared = registry.modules.flatMap(\.contributedSyncEntities)
        types = Dictionary(declared.map { ($0.type, $0) }, uniquingKeysWith: { first, _ in first })
        self.now = now
        policy = registry.policy
        boundaries = registry.syncBoundaries
    }

    /// Start of a write: once per process, makes sure the triggers match the declarations (a
    /// file migrated by an older build gets them before its first write here).
    func begin(_ db: any StorageConnection) throws {
        if ready.withLock({ $0 }) { return }
        guard try db.tableExists("kernel_sync_pending") else { return }
        let complete = try SyncSchema.installTriggers(for: declared, in: db)
        ready.withLock { $0 = complete }
    }

    /// After migrations: the triggers follow the declarations of the modules now installed.
    func install(_ db: any StorageConnection) throws {
        guard try db.tableExists("kernel_sync_pending") else { return }
        let complete = try SyncSchema.installTriggers(for: declared, in: db)
        ready.withLock { $0 = complete }
    }

    /// End of a write: turns the pending marks into changes. Called again by a sync push with its
    /// origin before its ledger row, so its changes carry the client and seq that caused them.
    package func finish(_ db: any StorageConnection, origin: SyncOrigin? = nil) throws {
        guard ready.withLock({ $0 }) else { return }
        var bySchool: [String: [String]] = [:]
        try db.query("SELECT DISTINCT school_id, entity_type FROM kernel_sync_pending", SQLBindings(), refusingWrites: false) { row in
            bySchool[row.string(0), default: []].append(row.string(1))
            return true
        }
        guard !bySchool.isEmpty else { return }
        // Schools in one order in every transaction, so two that touch the same schools take their clocks in the same order.
        for (school, typeNames) in bySchool.sorted(by: { $0.key < $1.key }) {
            try record(school: school, typeNames: typeNames.sorted(), origin: origin, db: db)
        }
        try db.execute(sql: "DELETE FROM kernel_sync_pending")
    }

    private struct Change {
        let id: String
        /// The entity's data as JSON text, without `version` (a pull adds the change's seq); nil for a delete.
        let payload: String?
        let upserts: [String]
        let deletes: [String]
        let digest: String
    }

    private func record(school: String, typeNames: [String], origin: SyncOrigin?, db: any StorageConnection) throws {
        let context = try SyncContext.make(school: school, now: now(), principal: nil, policy: policy, db: db)
        var clock = SyncClockLease(school: school)
        for typeName in typeNames {
            guard let type = types[typeName] else { continue }
            context.database.boundary = boundaries[typeName]
            var after: String?
            while true {
                let ids = try pendingIDs(school: school, type: typeName, after: after, db: db)
                guard let last = ids.last else { break }
                let changes = try compare(ids, of: type, context: context, db: db)
                try write(changes, type: typeName, clock: &clock, origin: origin, db: db)
                guard ids.count == Self.chunkSize else { break }
                after = last
            }
        }
    }

    /// The next chunk of one type's pending ids, in id order (the pending table's key), after `after`.
    private func pendingIDs(school: String, type: String, after: String?, db: any StorageConnection) throws -> [String] {
        var ids: [String] = []
        ids.reserveCapacity(Self.chunkSize)
        let sql: String
        let bindings: SQLBindings
        if let after {
            sql = "SELECT entity_id FROM kernel_sync_pending WHERE school_id = ? AND entity_type = ? AND entity_id > ? ORDER BY entity_id LIMIT ?"
            bindings = SQLBindings([school, type, after, Self.chunkSize])
        } else {
            sql = "SELECT entity_id FROM kernel_sync_pending WHERE school_id = ? AND entity_type = ? ORDER BY entity_id LIMIT ?"
            bindings = SQLBindings([school, type, Self.chunkSize])
        }
        try db.query(sql, bindings, refusingWrites: false) { row in
            ids.append(row.string(0))
            return true
        }
        return ids
    }

    /// One chunk's changes: each id whose digest differs from the last one recorded, or that is gone.
    private func compare(_ ids: [String], of type: SyncEntityType, context: SyncContext, db: any StorageConnection) throws -> [Change] {
        let loaded = try type.load(ids, context)
        // The chunk's last digests in one statement (one cached statement whatever the chunk's size).
        var lastSeen: [String: (scopes: [String], digest: String)] = [:]
        try db.query("""
            SELECT entity_id, scopes, digest FROM kernel_sync_entities
            WHERE school_id = ? AND entity_type = ? AND entity_id IN (SELECT value FROM json_each(?))
            """, SQLBindings([context.schoolID, type.type, SyncScope.json(ids)]), refusingWrites: false) { row in
            lastSeen[row.string(0)] = (row.string(1).split(separator: " ").map(String.init), row.string(2))
            return true
        }
        var changes: [Change] = []
        for id in ids {
            let last = lastSeen[id]
            if let entity = loaded[id] {
                let scopes = Array(Set(entity.scopes.map(\.rawValue))).sorted()
                var payload = ""
                APIValue.write(entity.data, to: &payload)
                let digest = Digest.sha256Hex(Data((payload + "|" + scopes.joined(separator: " ")).utf8))
                if last?.digest == digest { continue }
                changes.append(Change(id: id, payload: payload, upserts: scopes,
                                      deletes: (last?.scopes ?? []).filter { !scopes.contains($0) }, digest: digest))
            } else if let last {
                changes.append(Change(id: id, payload: nil, upserts: [], deletes: last.scopes, digest: ""))
            }
        }
        return changes
    }

    /// Writes one chunk's changes under seqs taken from the clock now, in the chunk's order.
    private func write(_ changes: [Change], type: String, clock: inout SyncClockLease, origin: SyncOrigin?, db: any StorageConnection) throws {
        guard !changes.isEmpty, var seq = try clock.take(changes.count, db: db) else { return }
        let school = clock.school
        let insert = """
            INSERT INTO kernel_sync_changes (school_id, seq, scope_key, entity_type, entity_id, op, payload, origin_client_id, origin_mutation_seq)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """
        for change in changes {
            seq += 1
            for key in change.upserts {
                try db.execute(sql: insert, arguments: [school, seq, key, type, change.id, "upsert", change.payload, origin?.clientID, origin?.mutationSeq])
            }
            for key in change.deletes {
                try db.execute(sql: insert, arguments: [school, seq, key, type, change.id, "delete", nil, origin?.clientID, origin?.mutationSeq])
            }
            if change.payload == nil {
                try db.execute(sql: "DELETE FROM kernel_sync_entities WHERE school_id = ? AND entity_type = ? AND entity_id = ?",
                               arguments: [school, type, change.id])
            } else {
                try db.execute(sql: """
                    INSERT INTO kernel_sync_entities (school_id, entity_type, entity_id, version, scopes, digest) VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (school_id, entity_type, entity_id) DO UPDATE SET version = excluded.version, scopes = excluded.scopes, digest = excluded.digest
                    """, arguments: [school, type, change.id, seq, change.upserts.joined(separator: " "), change.digest])
            }
        }
    }
}

extension SyncContext {
    /// A context for one school inside the kernel's transaction, in the school's time zone.
    package static func make(school: SchoolID, now: Date, principal: Principal?, policy: AccessPolicy, db: any StorageConnection) throws -> SyncContext {
        let zone = try db.fetchValue(String.self, sql: "SELECT time_zone FROM schools WHERE id = ?", arguments: [school])
        return SyncContext(database: SchoolDatabase(schoolID: school, connection: db), now: now,
                           timeZone: zone.flatMap(TimeZone.init(identifier:)) ?? .gmt, principal: principal, policy: policy)
    }
}
