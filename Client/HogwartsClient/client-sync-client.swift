import Foundation
import GRDB

/// The offline-first client an app embeds: a local replica of the user's scope, an outbox of
/// mutations (the seed's PendingAction queue) and the sync loop that pushes and pulls them.
///
/// Call `sync()` on launch, from `networkRestored()` when connectivity returns, and when the
/// user asks; writes go through `enqueue(name:args:)` and show at once in the replica.
public actor SyncClient {
    public nonisolated let store: ClientStore
    public nonisolated let transport: any SyncTransport
    let clock: any SyncClock
    let appliers: LocalAppliers
    /// The seed's schedule: after a transient failure, retry after 1, 2 and 4 s, then wait.
    let retryDelays: [Double]
    let pullLimit: Int
    let snapshotLimit: Int
    /// For the session record only (the transport knows where it sends).
    let serverName: String?
    /// One sync at a time: callers arriving during a sync share its outcome.
    var running: Task<SyncReport, any Error>?

    public init(store: ClientStore, transport: any SyncTransport, clock: any SyncClock = SystemClock(), appliers: LocalAppliers = .standard,
                retryDelays: [Double] = [1, 2, 4], pullLimit: Int = 500, snapshotLimit: Int = 500, serverName: String? = nil) {
        self.store = store
        self.transport = transport
        self.clock = clock
        self.appliers = appliers
        self.retryDelays = retryDelays
        self.pullLimit = pullLimit
        self.snapshotLimit = snapshotLimit
        self.serverName = serverName
    }

    // MARK: Writing

    /// Queues a mutation and applies its optimistic effect in the same local transaction: both
    /// happen or neither does (an applier that refuses the input queues nothing).
    @discardableResult
    public func enqueue(name: String, args: JSONValue, baseVersion: Int64? = nil, id: String = UUID().uuidString.lowercased()) async throws -> Int64 {
        let time = clock.now().formatted(.iso8601)
        let appliers = appliers
        return try await store.queue.write { db in
            let seq = try Self.allocateSeq(db)
            try db.execute(sql: "INSERT INTO outbox (seq, id, name, args, client_time, base_version) VALUES (?, ?, ?, ?, ?, ?)",
                           arguments: [seq, id, name, try args.text(), time, baseVersion])
            if let applier = appliers.byName[name] {
                try applier(args, LocalEffects(db: db, seq: seq, mutationID: id, clientTime: time, userID: try Self.userID(db)))
            }
            return seq
        }
    }

    /// The next sequence number of this client; a client id is created on first use.
    static func allocateSeq(_ db: Database) throws -> Int64 {
        if try db.meta(.clientId) == nil { try db.setMeta(.clientId, UUID().uuidString.lowercased()) }
        let seq = Int64(try db.meta(.nextSeq) ?? "1") ?? 1
        try db.setMeta(.nextSeq, String(seq + 1))
        return seq
    }

    static func userID(_ db: Database) throws -> String? {
        guard let text = try db.meta(.user) else { return nil }
        return (try? JSONDecoder().decode(Wire.AuthUser.self, from: Data(text.utf8)))?.id
    }

    /// A failed mutation goes back to the tail of the queue with a new seq (the server has
    /// already passed its old one); a waiting head becomes pending again. Then it syncs.
    public func retry(seq: Int64) async throws {
        let appliers = appliers
        let time = clock.now().formatted(.iso8601)
        try await store.queue.write { db in
            if let row = try Row.fetchOne(db, sql: "SELECT * FROM failed WHERE seq = ?", arguments: [seq]) {
                let failed = try FailedMutation(row: row)
                try Self.requeue(failed, time: time, appliers: appliers, db)
            } else if try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outbox WHERE seq = ?", arguments: [seq]) == 1 {
                try db.execute(sql: "UPDATE outbox SET state = 'pending', attempts = 0 WHERE seq = ?", arguments: [seq])
            } else {
                throw ClientError.notInOutbox(seq)
            }
        }
    }

    /// Every failed mutation re-queued in its original order, every waiting one pending again.
    public func retryAll() async throws {
        let appliers = appliers
        let time = clock.now().formatted(.iso8601)
        try await store.queue.write { db in
            for row in try Row.fetchAll(db, sql: "SELECT * FROM failed ORDER BY seq") {
                try Self.requeue(try FailedMutation(row: row), time: time, appliers: appliers, db)
            }
            try db.execute(sql: "UPDATE outbox SET state = 'pending', attempts = 0")
        }
    }

    static func requeue(_ failed: FailedMutation, time: String, appliers: LocalAppliers, _ db: Database) throws {
        let seq = try allocateSeq(db)
        // A new id too: the server keys a mutation's stored result by (client, seq) and id.
        let id = UUID().uuidString.lowercased()
        try db.execute(sql: "DELETE FROM failed WHERE seq = ?", arguments: [failed.seq])
        try db.execute(sql: "INSERT INTO outbox (seq, id, name, args, client_time) VALUES (?, ?, ?, ?, ?)",
                       arguments: [seq, id, failed.name, try failed.args.text(), time])
        if let applier = appliers.byName[failed.name] {
            try? applier(failed.args, LocalEffects(db: db, seq: seq, mutationID: id, clientTime: time, userID: try userID(db)))
        }
    }

    // MARK: Reading

    public func outbox() async throws -> [PendingMutation] {
        try await store.queue.read { db in try Row.fetchAll(db, sql: "SELECT * FROM outbox ORDER BY seq").map(PendingMutation.init(row:)) }
    }

    public func failed() async throws -> [FailedMutation] {
        try await store.queue.read { db in try Row.fetchAll(db, sql: "SELECT * FROM failed ORDER BY seq").map(FailedMutation.init(row:)) }
    }

    /// The replica's entities of one type as the user sees them (queued effects included).
    public func entities(_ type: String) async throws -> [LocalEntity] {
        try await store.queue.read { db in try Replica.entities(type, db) }
    }

    /// The server's view held locally, keyed `type/id` (no queued effects): what a snapshot of
    /// the user's scope should equal once everything is synced.
    public func serverView() async throws -> [String: JSONValue] {
        try await store.queue.read { db in try Replica.serverEntities(db) }
    }

    public func clientID() async throws -> String {
        try await store.queue.write { db in
            if let id = try db.meta(.clientId) { return id }
            let id = UUID().uuidString.lowercased()
            try db.setMeta(.clientId, id)
            return id
        }
    }

    /// The last of this client's mutations the server has confirmed.
    public func lastAcknowledgedSeq() async throws -> Int64 {
        try await store.queue.read { db in Int64(try db.meta(.lastMutationSeq) ?? "0") ?? 0 }
    }
}
