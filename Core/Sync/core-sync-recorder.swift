import Foundation
import Synchronization

/// Where a recorded change came from: the client and mutation that caused it, when a sync push did.
struct SyncOrigin: Sendable {
    let clientID: String
    let mutationSeq: Int
}

/// The one recorder every write path goes through: `KernelStore.write` calls it at the start and
/// the end of each write transaction, so the CLI, HTTP, imports, event handlers and the demo all
/// record their changes, and a pull misses nothing.
///
/// Triggers on the declared source tables note `(school, type, id)` in `kernel_sync_pending`; at
/// the end of the transaction the recorder asks each owning module for the entities' current
/// payloads and scope keys, takes the school's clock last, writes the change rows and empties
/// the pending table. A transaction that touched no synced table pays one empty SELECT.
final class ChangeRecorder: Sendable {
    private let types: [String: SyncEntityType]
    private let declared: [SyncEntityType]
    private let now: @Sendable () -> Date
    private let policy: AccessPolicy
    /// Each entity type's module, whose tables its `load` reads (`core-table-ownership.swift`).
    private let boundaries: [String: ModuleBoundary]
    /// Whether this process has seen the sync tables and the declared triggers in place.
    private let ready = Mutex(false)

    init(registry: ModuleRegistry, now: @escaping @Sendable () -> Date) {
        declared = registry.modules.flatMap(\.syncEntities)
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
    func finish(_ db: any StorageConnection, origin: SyncOrigin? = nil) throws {
        guard ready.withLock({ $0 }) else { return }
        var bySchool: [String: [String: [String]]] = [:]
        try db.query("SELECT school_id, entity_type, entity_id FROM kernel_sync_pending", SQLBindings(), refusingWrites: false) { row in
            bySchool[row.string(0), default: [:]][row.string(1), default: []].append(row.string(2))
            return true
        }
        guard !bySchool.isEmpty else { return }
        try db.execute(sql: "DELETE FROM kernel_sync_pending")
        for (school, byType) in bySchool.sorted(by: { $0.key < $1.key }) {
            try record(school: school, byType: byType, origin: origin, db: db)
        }
    }

    private struct Change {
        let type: String
        let id: String
        /// The entity's data as JSON text, without `version` (a pull adds the change's seq); nil for a delete.
        let payload: String?
        let upserts: [String]
        let deletes: [String]
        let digest: String
    }

    private func record(school: String, byType: [String: [String]], origin: SyncOrigin?, db: any StorageConnection) throws {
        let context = try SyncContext.make(school: school, now: now(), principal: nil, policy: policy, db: db)
        var changes: [Change] = []
        for (typeName, ids) in byType.sorted(by: { $0.key < $1.key }) {
            guard let type = types[typeName] else { continue }
            context.database.boundary = boundaries[typeName]
            let loaded = try type.load(ids.sorted(), context)
            for id in ids.sorted() {
                let last = try db.fetchOne(sql: """
                    SELECT scopes, digest FROM kernel_sync_entities WHERE school_id = ? AND entity_type = ? AND entity_id = ?
                    """, arguments: [school, typeName, id])
                let before = (last?["scopes"] as String?).map { $0.split(separator: " ").map(String.init) } ?? []
                if let entity = loaded[id] {
                    let scopes = Array(Set(entity.scopes.map(\.rawValue))).sorted()
                    var payload = ""
                    APIValue.write(entity.data, to: &payload)
                    let digest = Digest.sha256Hex(Data((payload + "|" + scopes.joined(separator: " ")).utf8))
                    if let last, last.string("digest") == digest { continue }
                    changes.append(Change(type: typeName, id: id, payload: payload, upserts: scopes,
                                          deletes: before.filter { !scopes.contains($0) }, digest: digest))
                } else if last != nil {
                    changes.append(Change(type: typeName, id: id, payload: nil, upserts: [], deletes: before, digest: ""))
                }
            }
        }
        guard !changes.isEmpty else { return }
        // The clock last: its row lock is held to the commit, so seq order is commit order.
        try db.execute(sql: "INSERT INTO kernel_sync_clock (school_id) VALUES (?) ON CONFLICT (school_id) DO NOTHING", arguments: [school])
        guard let end = try db.fetchValue(Int.self, sql: "UPDATE kernel_sync_clock SET seq = seq + ? WHERE school_id = ? RETURNING seq",
                                          arguments: [changes.count, school]) else { return }
        var seq = end - changes.count
        let insert = """
            INSERT INTO kernel_sync_changes (school_id, seq, scope_key, entity_type, entity_id, op, payload, origin_client_id, origin_mutation_seq)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """
        for change in changes {
            seq += 1
            for key in change.upserts {
                try db.execute(sql: insert, arguments: [school, seq, key, change.type, change.id, "upsert", change.payload, origin?.clientID, origin?.mutationSeq])
            }
            for key in change.deletes {
                try db.execute(sql: insert, arguments: [school, seq, key, change.type, change.id, "delete", nil, origin?.clientID, origin?.mutationSeq])
            }
            if change.payload == nil {
                try db.execute(sql: "DELETE FROM kernel_sync_entities WHERE school_id = ? AND entity_type = ? AND entity_id = ?",
                               arguments: [school, change.type, change.id])
            } else {
                try db.execute(sql: """
                    INSERT INTO kernel_sync_entities (school_id, entity_type, entity_id, version, scopes, digest) VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (school_id, entity_type, entity_id) DO UPDATE SET version = excluded.version, scopes = excluded.scopes, digest = excluded.digest
                    """, arguments: [school, change.type, change.id, seq, change.upserts.joined(separator: " "), change.digest])
            }
        }
    }
}

extension SyncContext {
    /// A context for one school inside the kernel's transaction, in the school's time zone.
    static func make(school: SchoolID, now: Date, principal: Principal?, policy: AccessPolicy, db: any StorageConnection) throws -> SyncContext {
        let zone = try db.fetchValue(String.self, sql: "SELECT time_zone FROM schools WHERE id = ?", arguments: [school])
        return SyncContext(database: SchoolDatabase(schoolID: school, connection: db), now: now,
                           timeZone: zone.flatMap(TimeZone.init(identifier:)) ?? .gmt, principal: principal, policy: policy)
    }
}
