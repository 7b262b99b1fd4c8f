import Foundation
import GRDB
import HogwartsSyncWire

/// What one sync did, for the app's status line and the command line.
public struct SyncReport: Sendable, Equatable {
    /// Mutations the server applied (or had already applied) in this sync.
    public var acknowledged: Int = 0
    /// Mutations refused for good in this sync: now under "failed" with the server's reason.
    public var rejected: [FailedMutation] = []
    /// Set when retries ran out: the head of the queue, now shown as waiting.
    public var waiting: PendingMutation?
    /// Why the queue waits (the last transient error, or the server's permanent refusal of a batch).
    public var waitingReason: String?
    public var changesPulled: Int = 0
    /// Set when the server asked for a fresh snapshot (the outbox was kept).
    public var resetReason: String?
    /// The pull could not run (offline); the replica is as of the last successful pull.
    public var pullError: ClientError?
    public var pending: Int = 0

    public init() {}
}

extension SyncClient {
    /// Push the queue, then pull. Runs on launch, on network restore and by hand; a second call
    /// during a sync waits for the same one.
    @discardableResult
    public func sync() async throws -> SyncReport {
        if let running { return try await running.value }
        let task = Task { try await self.runSync() }
        running = task
        defer { running = nil }
        return try await task.value
    }

    /// For the app's network monitor: connectivity is back, so resume.
    @discardableResult
    public func networkRestored() async throws -> SyncReport { try await sync() }

    func runSync() async throws -> SyncReport {
        var report = SyncReport()
        try await push(into: &report)
        do {
            try await pull(into: &report)
        } catch let error as ClientError where error.isTransient {
            report.pullError = error
        }
        report.pending = try await store.queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outbox") ?? 0 }
        return report
    }

    // MARK: Push

    /// Sends the queue FIFO in batches of at most 100 until it is empty or must wait.
    func push(into report: inout SyncReport) async throws {
        let clientID = try await clientID()
        while true {
            let batch = try await store.queue.read { db in
                try Row.fetchAll(db, sql: "SELECT * FROM outbox ORDER BY seq LIMIT ?", arguments: [SyncWire.maximumMutations]).map(PendingMutation.init(row:))
            }
            guard let head = batch.first else { return }
            let body = try Wire.encoder().encode(Wire.PushRequest(clientId: clientID, mutations: batch.map(\.wire)))
            let request = TransportRequest(method: "POST", path: "/api/v1/sync/push", headers: ["Content-Type": "application/json"], body: body)

            guard let response = try await sendWithRetries(request, head: head, report: &report) else { return }
            switch response.status {
            case 200:
                let answer: Wire.PushResponse
                do {
                    answer = try Wire.decoder().decode(Wire.PushResponse.self, from: response.body)
                } catch {
                    throw ClientError.protocolViolation("push answer: \(error)")
                }
                let progressed = try await record(answer, batch: batch, report: &report)
                if !progressed {
                    // The server expects a seq this client no longer has: never skip, wait for a person.
                    let reason = "the server expects mutation \(answer.stopped?.expectedSeq.map(String.init) ?? "?") (\(answer.stopped?.reason ?? "no progress"))"
                    try await markWaiting(head, reason: reason, report: &report)
                    return
                }
            default:
                // A permanent refusal of the whole batch (426 unknown mutation, 403, 409): the head
                // waits with the server's reason; nothing behind it is skipped.
                let error = Self.serverError(response)
                try await markWaiting(head, reason: error.message(.en), report: &report)
                return
            }
        }
    }

    /// The request, retried after 1, 2 and 4 s on transient failures; nil when retries ran out
    /// (the head is then marked waiting).
    func sendWithRetries(_ request: TransportRequest, head: PendingMutation, report: inout SyncReport) async throws -> TransportResponse? {
        var attempt = 0
        while true {
            var failure: ClientError
            // A busy server's own wait (503 or 429 with `Retry-After`) replaces a shorter step of the schedule.
            var serverWait: Double?
            do {
                let response = try await authorized(request)
                if response.status < 500 && response.status != 429 { return response }
                failure = Self.serverError(response)
                serverWait = Self.retryAfter(response, now: clock.now())
            } catch let error as ClientError where error.isTransient {
                failure = error
            }
            let message = failure.message(.en)
            try await store.queue.write { db in
                try db.execute(sql: "UPDATE outbox SET attempts = attempts + 1, last_error = ? WHERE seq = ?", arguments: [message, head.seq])
            }
            guard attempt < retryDelays.count else {
                try await markWaiting(head, reason: message, report: &report)
                return nil
            }
            try await clock.sleep(seconds: max(retryDelays[attempt], serverWait ?? 0))
            attempt += 1
        }
    }

    /// The longest a server may ask a device to wait before the next try.
    static let longestRetryAfter: Double = 300

    /// `Retry-After` in seconds (delta-seconds or an HTTP date), at most `longestRetryAfter`;
    /// nil when absent or unreadable.
    static func retryAfter(_ response: TransportResponse, now: Date) -> Double? {
        guard let text = response.header("Retry-After")?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        if let seconds = Double(text), seconds >= 0 { return min(seconds, longestRetryAfter) }
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "GMT")
        format.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = format.date(from: text) else { return nil }
        return min(max(0, date.timeIntervalSince(now)), longestRetryAfter)
    }

    func markWaiting(_ head: PendingMutation, reason: String, report: inout SyncReport) async throws {
        let waiting = try await store.queue.write { db -> PendingMutation? in
            try db.execute(sql: "UPDATE outbox SET state = 'waiting', last_error = ? WHERE seq = ?", arguments: [reason, head.seq])
            return try Row.fetchOne(db, sql: "SELECT * FROM outbox WHERE seq = ?", arguments: [head.seq]).map(PendingMutation.init(row:))
        }
        report.waiting = waiting
        report.waitingReason = reason
    }

    /// Applies a push answer in one transaction: rejected ones move to "failed" with the reason,
    /// everything up to `lastMutationSeq` leaves the outbox. Returns whether the queue moved.
    func record(_ answer: Wire.PushResponse, batch: [PendingMutation], report: inout SyncReport) async throws -> Bool {
        let now = clock.now().formatted(.iso8601)
        let (acknowledged, rejected) = try await store.queue.write { db -> (Int, [FailedMutation]) in
            var rejected: [FailedMutation] = []
            for result in answer.results {
                // A duplicate of a refused mutation (its first answer was lost) is still a refusal.
                guard result.status == .rejected || (result.status == .duplicate && result.code != nil) else { continue }
                guard let mutation = batch.first(where: { $0.seq == Int64(result.seq) }) else { continue }
                let exists = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outbox WHERE seq = ?", arguments: [mutation.seq]) ?? 0
                guard exists == 1 else { continue }
                try db.execute(sql: """
                    INSERT OR REPLACE INTO failed (seq, id, name, args, client_time, code, message, current, failed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [mutation.seq, mutation.id, mutation.name, try mutation.args.text(), mutation.clientTime,
                                     result.code, result.error, try result.current.map { try $0.text() }, now])
                try db.execute(sql: "DELETE FROM outbox WHERE seq = ?", arguments: [mutation.seq])
                if let row = try Row.fetchOne(db, sql: "SELECT * FROM failed WHERE seq = ?", arguments: [mutation.seq]) {
                    rejected.append(try FailedMutation(row: row))
                }
            }
            let acknowledged = try Self.acknowledge(through: Int64(answer.lastMutationSeq), db)
            return (acknowledged, rejected)
        }
        report.acknowledged += acknowledged
        report.rejected += rejected
        return acknowledged > 0 || !rejected.isEmpty
    }

    /// Drops every queued mutation the server has confirmed (push or pull) and remembers the mark.
    static func acknowledge(through last: Int64, _ db: Database) throws -> Int {
        try db.execute(sql: "DELETE FROM outbox WHERE seq <= ?", arguments: [last])
        let dropped = db.changesCount
        let previous = Int64(try db.meta(.lastMutationSeq) ?? "0") ?? 0
        if last > previous { try db.setMeta(.lastMutationSeq, String(last)) }
        return dropped
    }
}
