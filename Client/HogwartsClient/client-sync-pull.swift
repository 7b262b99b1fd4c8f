import Foundation
import GRDB

extension SyncClient {
    /// Only the push half of a sync (the queue, FIFO).
    @discardableResult
    public func push() async throws -> SyncReport {
        var report = SyncReport()
        try await push(into: &report)
        return report
    }

    /// Only the pull half: changes since the cursor (a snapshot first when there is none).
    @discardableResult
    public func pull() async throws -> SyncReport {
        var report = SyncReport()
        try await pull(into: &report)
        return report
    }

    /// Pages of changes, each applied with its cursor in one local transaction; then what is
    /// still queued is laid on top again (rebase). A reset wipes the replica, never the outbox.
    func pull(into report: inout SyncReport) async throws {
        let clientID = try await clientID()
        var resets = 0
        while true {
            guard let cursor = try await store.queue.read({ db in try db.meta(.cursor) }) else {
                try await snapshot()
                continue
            }
            let page: Wire.PullResponse = try await get("/api/v1/sync/pull", [("clientId", clientID), ("cursor", cursor), ("limit", String(pullLimit))])
            let changes: [Wire.Change], next: String, hasMore: Bool, last: Int
            switch page {
            case .reset(let reason):
                resets += 1
                // A server that resets every time would loop forever: say so instead.
                if resets > 3 { throw ClientError.protocolViolation("reset \(resets) times in one pull (\(reason.rawValue))") }
                report.resetReason = reason.rawValue
                try await wipeReplica()
                continue
            case .changes(let pageChanges, let pageCursor, let more, let lastMutationSeq):
                changes = pageChanges
                next = pageCursor
                hasMore = more
                last = lastMutationSeq
            }
            let acknowledged = try await store.queue.write { db -> Int in
                for change in changes {
                    switch change.op {
                    case .upsert: try Replica.upsert(change.type, change.id, change.data ?? .null, db)
                    case .delete: try Replica.delete(change.type, change.id, db)
                    }
                }
                try db.setMeta(.cursor, next)
                return try Self.acknowledge(through: Int64(last), db)
            }
            report.changesPulled += changes.count
            report.acknowledged += acknowledged
            if !hasMore { break }
        }
        try await rebase()
    }

    /// Everything in the user's scope, page by page, stored in one transaction at the end (a
    /// half-read snapshot never replaces the replica); the pull then starts from its cursor.
    func snapshot() async throws {
        var items: [Wire.SnapshotItem] = []
        var after: String?
        var cursor: String?
        repeat {
            let page: Wire.SnapshotPage = try await get("/api/v1/sync/snapshot", [("after", after), ("limit", String(snapshotLimit))])
            items += page.items
            if cursor == nil { cursor = page.cursor }
            after = page.after
        } while after != nil
        guard let cursor else { throw ClientError.protocolViolation("snapshot without a cursor") }
        let snapshot = items
        try await store.queue.write { db in
            try db.execute(sql: "DELETE FROM entities")
            for item in snapshot { try Replica.upsert(item.type, item.id, item.data, db) }
            try db.setMeta(.cursor, cursor)
        }
    }

    /// The replica and its cursor go; the outbox, the failed list and the session stay.
    public func wipeReplica() async throws {
        try await store.queue.write { db in
            try db.execute(sql: "DELETE FROM entities")
            try db.setMeta(.cursor, nil)
        }
    }

    /// The overlay rebuilt from the queue, in seq order, over the server's latest view.
    public func rebase() async throws {
        let appliers = appliers
        try await store.queue.write { db in
            try db.execute(sql: "DELETE FROM overlay")
            let user = try Self.userID(db)
            for row in try Row.fetchAll(db, sql: "SELECT * FROM outbox ORDER BY seq") {
                let mutation = try PendingMutation(row: row)
                guard let applier = appliers.byName[mutation.name] else { continue }
                // The server's view may have moved under it (a class left the scope): then the
                // effect waits for the server's answer rather than failing the pull.
                try? db.inSavepoint {
                    try applier(mutation.args, LocalEffects(db: db, seq: mutation.seq, mutationID: mutation.id, clientTime: mutation.clientTime, userID: user))
                    return .commit
                }
            }
        }
    }

    /// Cursors are opaque (base64 may hold `+`, `/`, `=`): every query value is fully escaped.
    func get<T: Decodable>(_ route: String, _ query: [(String, String?)]) async throws -> T {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let pairs = query.compactMap { name, value in
            value.map { "\(name)=\($0.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0)" }
        }
        let path = pairs.isEmpty ? route : route + "?" + pairs.joined(separator: "&")
        let response = try await authorized(TransportRequest(method: "GET", path: path))
        guard response.status == 200 else { throw Self.serverError(response) }
        do {
            return try Wire.decoder().decode(T.self, from: response.body)
        } catch {
            throw ClientError.protocolViolation("\(route): \(error)")
        }
    }
}
