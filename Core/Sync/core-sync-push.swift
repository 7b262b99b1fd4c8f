import Foundation
import HogwartsBase
import HogwartsKernel
import HogwartsHTTP

/// What a mutation's replay needs: who runs it where, its args, and the kernel's own work in the
/// action's transaction (the sequence check before, the ledger after).
struct SyncReplay {
    let kernel: Kernel
    let principal: Principal
    let schoolID: SchoolID
    let language: Language
    let args: APIValue
    let before: (ActionContext) throws -> Void
    let within: (APIValue, any StorageConnection) throws -> Void
}

/// Another push of the same client got there first: read the client row again.
private struct SyncRaced: Error {}

extension Kernel {
    /// Applies a client's queued mutations in order, each exactly once, each in its own transaction
    /// with its ledger row and the client's sequence (Replicache's LMID, Zero's rejection pattern).
    ///
    /// A seq already applied answers `duplicate` with the stored result; a gap stops the batch; a
    /// business refusal rolls back, then a second transaction records it as `rejected` and advances
    /// the seq, so it never blocks the queue; a transient failure throws `SyncError.unavailable`
    /// (results so far are committed). An unknown mutation throws `mutationUnknown`.
    public func syncPush(_ request: SyncPushRequest, as principal: Principal, in schoolID: SchoolID, language: Language? = nil) throws -> SyncPushResponse {
        let language = language ?? localizer.language
        let localizer = Localizer(language: language, catalog: registry.catalog, surface: .web)
        guard request.schemaVersion == SyncProtocol.schemaVersion else { throw SyncError.schemaUnsupported(request.schemaVersion) }
        guard Self.isClientID(request.clientId) else { throw SyncError.clientIDInvalid(request.clientId) }
        guard (1...SyncProtocol.maximumMutations).contains(request.mutations.count) else { throw SyncError.batchSize(request.mutations.count) }
        if let bad = request.mutations.first(where: { $0.seq < 1 }) { throw SyncError.seqInvalid(bad.seq) }
        let mutations = Dictionary(registry.modules.flatMap(\.contributedSyncMutations).map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let clientID = request.clientId

        try transient { try activateSync(for: principal, in: schoolID) }
        var last = try transient { try bindClient(clientID, principal: principal, school: schoolID) }
        var results: [SyncPushResult] = []
        var stopped: SyncStop?
        for mutation in request.mutations {
            while true {
                if mutation.seq <= last {
                    results.append(try transient { try storedResult(of: mutation, client: clientID, localizer: localizer) })
                    break
                }
                if mutation.seq > last + 1 {
                    stopped = SyncStop(reason: "outOfOrder", expectedSeq: last + 1)
                    break
                }
                guard let declared = mutations[mutation.name] else { throw SyncError.mutationUnknown(mutation.name) }
                do {
                    let result = try apply(mutation, declared, client: clientID, principal: principal, school: schoolID, language: language)
                    results.append(SyncPushResult(seq: mutation.seq, status: .applied, code: nil, error: nil, current: nil, result: result))
                    last = mutation.seq
                    break
                } catch is SyncRaced {
                    last = try transient { try clientSeq(clientID) }
                    continue
                } catch let error where Self.isTransient(error) {
                    throw SyncError.unavailable(localizer.message(for: KernelError.publicFace(of: error)))
                } catch {
                    guard let rejected = try transient({ try reject(mutation, declared, error: error, client: clientID, school: schoolID, localizer: localizer) }) else {
                        last = try transient { try clientSeq(clientID) }
                        continue
                    }
                    results.append(rejected)
                    last = mutation.seq
                    break
                }
            }
            if stopped != nil { break }
        }
        return SyncPushResponse(lastMutationSeq: last, results: results, stopped: stopped)
    }

    /// A lowercase UUID: what the protocol asks a client to pick once and keep.
    static func isClientID(_ text: String) -> Bool {
        text.count == 36 && UUID(uuidString: text) != nil && text == text.lowercased()
    }

    /// Busy or failing storage is worth retrying; a refusal by the rules is not.
    static func isTransient(_ error: any Error) -> Bool {
        (error as? KernelError)?.isWorthRetrying ?? false
    }

    private func transient<T>(_ work: () throws -> T) throws -> T {
        do {
            return try work()
        } catch let error where Self.isTransient(error) {
            throw SyncError.unavailable(localizer.message(for: KernelError.publicFace(of: error)))
        }
    }

    /// Binds a new client id to the caller, or checks that a known one is theirs; its last seq.
    /// Inserted unless there (a new client's first push sent twice at once: on PostgreSQL the
    /// second waits for the first's row instead of failing on the key), then read as it stands.
    private func bindClient(_ clientID: String, principal: Principal, school: SchoolID) throws -> Int {
        try store.write { db in
            let at = now()
            try db.execute(sql: """
                INSERT INTO kernel_sync_clients (client_id, school_id, user_id, last_mutation_seq, created_at, last_seen_at) VALUES (?, ?, ?, 0, ?, ?)
                ON CONFLICT (client_id) DO NOTHING
                """, arguments: [clientID, school, principal.userID, at, at])
            let row = try db.fetchOne(sql: "SELECT school_id, user_id, last_mutation_seq FROM kernel_sync_clients WHERE client_id = ?", arguments: [clientID])
            guard let row, row.string("school_id") == school, row.string("user_id") == principal.userID else { throw SyncError.clientForeign }
            try db.execute(sql: "UPDATE kernel_sync_clients SET last_seen_at = ? WHERE client_id = ?", arguments: [at, clientID])
            return row.int("last_mutation_seq")
        }
    }

    private func clientSeq(_ clientID: String) throws -> Int {
        try store.read { db in
            try db.fetchValue(Int.self, sql: "SELECT last_mutation_seq FROM kernel_sync_clients WHERE client_id = ?", arguments: [clientID]) ?? 0
        }
    }

    /// The ledger's answer for a seq already done; the same seq with another mutation id is a client bug.
    private func storedResult(of mutation: SyncPushMutation, client: String, localizer: Localizer) throws -> SyncPushResult {
        let row = try store.read { db in
            try db.fetchOne(sql: """
                SELECT mutation_id, status, error_key, error_arguments, error_code, current, result FROM kernel_sync_mutations
                WHERE client_id = ? AND mutation_seq = ?
                """, arguments: [client, mutation.seq])
        }
        guard let row else {
            return SyncPushResult(seq: mutation.seq, status: .duplicate, code: nil, error: nil, current: nil, result: nil)
        }
        guard row.string("mutation_id") == mutation.id else { throw SyncError.seqReused(mutation.seq) }
        let message = (row["error_key"] as String?).map { key in
            let arguments = (row["error_arguments"] as String?).flatMap { try? JSONDecoder().decode([String: String].self, from: Data($0.utf8)) } ?? [:]
            return localizer(key, arguments)
        }
        return SyncPushResult(seq: mutation.seq, status: .duplicate, code: row["error_code"] as String?, error: message,
                              current: try (row["current"] as String?).map(SyncJSON.value(text:)),
                              result: try (row["result"] as String?).map(SyncJSON.value(text:)))
    }

    /// Runs the mutation's action with its seq claimed before it and the ledger in its transaction.
    private func apply(_ mutation: SyncPushMutation, _ declared: SyncMutation, client: String, principal: Principal, school: SchoolID,
                       language: Language) throws -> APIValue? {
        final class Box { var result: APIValue? }
        let box = Box()
        let replay = SyncReplay(
            kernel: self, principal: principal, schoolID: school, language: language, args: mutation.args,
            before: { context in
                guard try Self.claim(mutation.seq, client: client, db: context.database.connection) else { throw SyncRaced() }
            },
            within: { [self] result, db in
                box.result = result
                try advance(client: client, mutation: mutation, status: .applied, error: nil, current: nil, result: result, db: db)
                try store.recorder?.finish(db, origin: SyncOrigin(clientID: client, mutationSeq: mutation.seq))
            })
        try declared.replay(replay)
        return box.result
    }

    /// The rejection's own transaction: the seq claimed again, then the ledger row with the reason
    /// and the server's current value. Nil when another push of this client got there first.
    private func reject(_ mutation: SyncPushMutation, _ declared: SyncMutation, error: any Error, client: String, school: SchoolID,
                        localizer: Localizer) throws -> SyncPushResult? {
        let (key, arguments, code) = Self.describe(error)
        return try store.write { db -> SyncPushResult? in
            guard try Self.claim(mutation.seq, client: client, db: db) else { return nil }
            let context = try SyncContext.make(school: school, now: now(), principal: nil, policy: registry.policy, db: db)
            // The mutation's module reads its own current value (a mutation is named `<module>.<name>`).
            context.database.enter(String(declared.name.prefix { $0 != "." }), registry.ownership)
            let current = try? declared.current(mutation.args, error, context)
            try advance(client: client, mutation: mutation, status: .rejected, error: (key, arguments, code), current: current ?? nil, result: nil, db: db)
            return SyncPushResult(seq: mutation.seq, status: .rejected, code: code, error: localizer(key, arguments), current: current ?? nil, result: nil)
        }
    }

    private static func describe(_ error: any Error) -> (key: String, arguments: [String: String], code: String) {
        switch error {
        case let error as APIError: (error.messageKey, error.arguments, error.code)
        case let error as any HogwartsError: (error.messageKey, error.messageArguments, APIError.code(for: error.messageKey))
        default: ("kernel.error.unexpected", ["detail": String(describing: error)], "INTERNAL_ERROR")
        }
    }

    /// Takes `seq` for the client in this transaction: true when the client's last seq was the one
    /// before. The UPDATE locks the client's row, so on PostgreSQL another push of the same client
    /// (an app's retry while the first is still running) waits here for this transaction, then
    /// finds the seq taken instead of running the action too and failing on the ledger's key.
    /// SQLite's writers run one at a time, so there it is the check alone.
    private static func claim(_ seq: Int, client: String, db: any StorageConnection) throws -> Bool {
        try db.execute(sql: "UPDATE kernel_sync_clients SET last_mutation_seq = ? WHERE client_id = ? AND last_mutation_seq = ?", arguments: [seq, client, seq - 1])
        return db.changedRowCount == 1
    }

    /// The ledger row of a claimed seq.
    private func advance(client: String, mutation: SyncPushMutation, status: SyncMutationStatus, error: (key: String, arguments: [String: String], code: String)?,
                         current: APIValue?, result: APIValue?, db: any StorageConnection) throws {
        let arguments = try error.map { String(decoding: try JSONEncoder().encode($0.arguments), as: UTF8.self) }
        try db.execute(sql: """
            INSERT INTO kernel_sync_mutations (client_id, mutation_seq, mutation_id, name, status, error_key, error_arguments, error_code, current, result, at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [client, mutation.seq, mutation.id, mutation.name, status.rawValue, error?.key, arguments, error?.code,
                                     try current.map(SyncJSON.text), try result.map(SyncJSON.text), now()])
    }
}
