import Core
import Foundation

/// One step of the outbox, in one short transaction: records how the last claimed entry's send
/// ended, then claims the next due entry (SENDING, for `claim` seconds). The send itself happens
/// between two steps, outside any transaction: no database lock is held while a mail agent or a
/// push service answers, and a server killed mid-send has committed every entry it sent before.
/// The one it was sending when it died comes back when its claim lapses and is sent again: an
/// outside service with no idempotency key can get that one twice, never a whole batch.
public struct AdvanceOutbox: Action {
    public struct Input: Codable, Sendable {
        public var finished: Finished?
        /// False for the last step of a pass: record, and leave the rest to the next pass.
        public var claimNext: Bool
        public init(finished: Finished? = nil, claimNext: Bool = true) {
            self.finished = finished
            self.claimNext = claimNext
        }
    }

    /// How the send of the entry claimed at `attempt` ended.
    public struct Finished: Codable, Sendable {
        public let id: String
        public let attempt: Int
        let result: Result

        enum Result: Codable, Sendable {
            case sent(SendOutcome)
            case failed(error: String, retryAfter: TimeInterval?)
        }
    }

    public struct Output: Codable, Sendable {
        /// SENT, PENDING (to be retried) or FAILED; nil when the claim had lapsed and another
        /// server took the entry (its record is that server's).
        public let recorded: String?
        let next: Claimed?
    }

    /// A claimed entry and what its channel's sender needs.
    struct Claimed: Codable, Sendable {
        let id: String
        let attempt: Int
        let payload: String
        let setup: ChannelSetup
        /// The claim's time, on the kernel's clock: the mail's Date, a push token's issue time.
        let at: Date
    }

    public static let id = "notifications.deliver"
    public static let permission = NotificationsPermissions.outbox
    public static let maxAttempts = 6
    /// How long a claim holds: longer than any one send may take (the mail agent's 30 s, a push's 20 s).
    static let claim: TimeInterval = 60

    /// Seconds before the next try: doubling from a minute, with up to 25% jitter so entries that
    /// failed together (a mail agent down for a while) do not all come back in the same second.
    static func backoff(afterAttempt attempts: Int, jitter: Double = Double.random(in: 0...0.25)) -> TimeInterval {
        60 * pow(2, Double(max(attempts, 1) - 1)) * (1 + jitter)
    }

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> Output {
        let recorded = try input.finished.flatMap { try record($0, context) }
        return Output(recorded: recorded, next: input.claimNext ? try claimNext(context) : nil)
    }

    /// Only while the claim is still this one (same attempt, still SENDING): a lapsed claim that
    /// another server took is that server's to record.
    private func record(_ finished: Finished, _ context: ActionContext) throws -> String? {
        guard let row = try context.database.fetchOne("""
            SELECT payload, channel FROM notifications_outbox WHERE school_id = :school_id AND id = :id AND state = 'SENDING' AND attempts = :attempt
            """, ["id": .text(finished.id), "attempt": .integer(Int64(finished.attempt))]) else { return nil }
        let state: String
        switch finished.result {
        case .sent(let outcome):
            state = "SENT"
            var note: String?
            if case .tokenGone(let why) = outcome,
               let push = try? JSONDecoder().decode(PushPayload.self, from: Data(row.string("payload").utf8)) {
                note = why
                try context.database.execute("""
                    UPDATE notifications_devices SET active = 0, updated_at = :now WHERE school_id = :school_id AND token = :token AND active = 1
                    """, ["now": SQLValue(context.now), "token": .text(push.token)])
            }
            try context.database.execute("""
                UPDATE notifications_outbox SET state = 'SENT', sent_at = :now, last_error = :note WHERE school_id = :school_id AND id = :id
                """, ["now": SQLValue(context.now), "note": note.map(SQLValue.text) ?? .null, "id": .text(finished.id)])
        case .failed(let error, let retryAfter):
            let givesUp = finished.attempt >= Self.maxAttempts
            state = givesUp ? "FAILED" : "PENDING"
            // A push service's Retry-After, when it asks for longer than the backoff.
            let wait = max(Self.backoff(afterAttempt: finished.attempt), retryAfter ?? 0)
            try context.database.execute("""
                UPDATE notifications_outbox SET state = :state, last_error = :error, next_attempt_at = :next WHERE school_id = :school_id AND id = :id
                """, ["state": .text(state), "error": .text(error), "next": SQLValue(context.now.addingTimeInterval(wait)), "id": .text(finished.id)])
        }
        return state
    }

    /// The next due entry (PENDING, or SENDING with a lapsed claim), a notification's push before
    /// its email (a phone's alert takes milliseconds, a mail agent tens), claimed with a guarded
    /// UPDATE: runners on other servers skip rows this one holds, and a row another runner
    /// claimed since the SELECT matches nothing.
    private func claimNext(_ context: ActionContext) throws -> Claimed? {
        for row in try context.database.fetchAll("""
            SELECT id, channel, payload FROM notifications_outbox
            WHERE school_id = :school_id AND state IN ('PENDING', 'SENDING') AND next_attempt_at <= :now
            ORDER BY next_attempt_at, CASE channel WHEN 'push' THEN 0 WHEN 'log' THEN 1 ELSE 2 END LIMIT 5 \(context.database.skipLockedRows)
            """, ["now": SQLValue(context.now)]) {
            let attempt: Int? = try context.database.fetchValue("""
                UPDATE notifications_outbox SET state = 'SENDING', attempts = attempts + 1, next_attempt_at = :until
                WHERE school_id = :school_id AND id = :id AND state IN ('PENDING', 'SENDING') AND next_attempt_at <= :now RETURNING attempts
                """, ["now": SQLValue(context.now), "until": SQLValue(context.now.addingTimeInterval(Self.claim)), "id": .text(row.string("id"))])
            guard let attempt else { continue }
            return Claimed(id: row.string("id"), attempt: attempt, payload: row.string("payload"),
                           setup: ChannelSetup(channel: row.string("channel"), context), at: context.now)
        }
        return nil
    }
}

/// Sends what is due, one entry at a time (`AdvanceOutbox` between sends), until nothing is due
/// or `limit` entries have been sent. Every `hogwarts serve` runs it every few seconds;
/// `notifications deliver` runs it once.
public enum DeliverOutbox {
    public struct Output: Codable, Sendable, Equatable {
        public var sent = 0
        public var retrying = 0
        public var failed = 0
    }

    public static func run(_ kernel: Kernel, as principal: Principal, in school: SchoolID, limit: Int = 1000) throws -> Output {
        var output = Output()
        var step = try kernel.run(AdvanceOutbox.self, .init(), as: principal, in: school)
        var taken = 0
        while let claimed = step.next {
            taken += 1
            let finished = AdvanceOutbox.Finished(id: claimed.id, attempt: claimed.attempt, result: send(claimed))
            step = try record(finished, claimNext: taken < limit, kernel, as: principal, in: school)
            switch step.recorded {
            case "SENT": output.sent += 1
            case "PENDING": output.retrying += 1
            case "FAILED": output.failed += 1
            default: break
            }
        }
        return output
    }

    /// The send has happened: a record that fails is the entry sent again once its claim lapses.
    /// So a busy or briefly unreachable database is waited out, for up to half the claim.
    private static func record(_ finished: AdvanceOutbox.Finished, claimNext: Bool, _ kernel: Kernel, as principal: Principal,
                               in school: SchoolID) throws -> AdvanceOutbox.Output {
        let deadline = Date().addingTimeInterval(AdvanceOutbox.claim / 2)
        var pause: TimeInterval = 0.25
        while true {
            do {
                return try kernel.run(AdvanceOutbox.self, .init(finished: finished, claimNext: claimNext), as: principal, in: school)
            } catch let error as KernelError where error.isWorthRetrying && Date() + pause < deadline {
                Thread.sleep(forTimeInterval: pause)
                pause = min(pause * 2, 4)
            }
        }
    }

    private static func send(_ claimed: AdvanceOutbox.Claimed) -> AdvanceOutbox.Finished.Result {
        do {
            return .sent(try claimed.setup.sender.send(OutboxDelivery(id: claimed.id, payload: claimed.payload, now: claimed.at)))
        } catch {
            return .failed(error: String(describing: error), retryAfter: (error as? any RetryAfterHint)?.retryAfter)
        }
    }
}
