import Foundation
import HogwartsBase

extension Kernel {
    /// Runs an action for a principal in a school: the one door every write goes through.
    ///
    /// In order: the action must be declared by a module that is enabled for the school, the
    /// principal must belong to the school and hold the action's permission, then validation
    /// (read-only) and the body run in one transaction with the audit record, the idempotency
    /// key and any published events. With a `requestID`, a retry returns the first result and
    /// applies nothing again. Events are delivered after the commit.
    @discardableResult
    public func run<A: Action>(_ action: A.Type, _ input: A.Input, as principal: Principal, in schoolReference: String, requestID: String? = nil,
                               progress: ProgressReporter? = nil, language: Language? = nil) throws -> A.Output {
        try run(action, input, as: principal, in: schoolReference, requestID: requestID, progress: progress, language: language, before: nil, within: nil)
    }

    /// `run` with work of the kernel's own in the action's transaction: `before` after the
    /// permission check and before validation, `within` after the body and the audit record
    /// (the offline sync ledger, so a mutation and its sequence number commit together).
    package func run<A: Action>(_ action: A.Type, _ input: A.Input, as principal: Principal, in schoolReference: String, requestID: String? = nil,
                        progress: ProgressReporter? = nil, language: Language? = nil,
                        before: ((ActionContext) throws -> Void)?, within: ((A.Output, any StorageConnection) throws -> Void)?) throws -> A.Output {
        // A language is given by the web callers (the API, the console, sync): their wording, no command-line flags.
        let localizer = language.map { Localizer(language: $0, catalog: registry.catalog, surface: .web) } ?? self.localizer
        guard let owner = registry.owner(ofAction: A.id) else { throw KernelError.actionNotRegistered(A.id) }
        do {
            if A.isReadOnly {
                return try store.read { db in
                    let context = try prepare(A.self, owner: owner, principal: principal, schoolReference: schoolReference, localizer: localizer, db: db)
                    context.progress = progress
                    let instance = A()
                    try instance.validate(input, in: context)
                    return try instance.perform(input, in: context)
                }
            }
            let preparation = try prepareOutsideWriter(A.self, input, owner: owner, principal: principal, schoolReference: schoolReference, localizer: localizer)
            let output: (output: A.Output, storedDeliveries: Bool, storedLive: Bool) = try store.write { db in
                let context = try prepare(A.self, owner: owner, principal: principal, schoolReference: schoolReference, localizer: localizer, db: db)
                context.progress = progress
                context.preparation = preparation
                let school = context.school
                // The input's digest only where a request id needs it; every input is still
                // refused with NaN or infinity in it.
                let inputHash = try requestID.map { _ in try Self.fingerprint(input) }
                if inputHash == nil { try FiniteNumbers.check(input) }
                if let requestID {
                    // A copy of this request running at the same moment (an app's retry) waits here
                    // for this one's commit and then replays it, instead of running the action too
                    // (PostgreSQL; SQLite's writers take turns anyway).
                    if let lock = db.dialect.writerLock { _ = try db.fetchOne(sql: lock, arguments: ["\(school.id)|kernel.request|\(requestID)"]) }
                }
                if let requestID, let inputHash, let earlier = try replay(A.self, requestID: requestID, inputHash: inputHash, school: school, db: db) {
                    try AuditRecords.append(school: school.id, principal: principal, action: A.id, requestID: requestID, outcome: .replayed, detail: nil, at: context.now, in: db)
                    return (earlier, false, false)
                }
                let instance = A()
                if let before { try before(context) }
                try context.database.readOnly { try instance.validate(input, in: context) }
                let output = try instance.perform(input, in: context)
                try EventOutbox.store(from: context, source: A.id, registry: registry, in: db)
                if let requestID, let inputHash {
                    try db.execute(sql: """
                        INSERT INTO kernel_requests (school_id, request_id, action, input_hash, output, at) VALUES (?, ?, ?, ?, ?, ?)
                        """, arguments: [school.id, requestID, A.id, inputHash, String(decoding: try JSONEncoder().encode(output), as: UTF8.self),
                                         context.now])
                }
                try AuditRecords.append(school: school.id, principal: principal, action: A.id, requestID: requestID, outcome: context.auditOutcome, detail: context.auditDetail, at: context.now, in: db)
                if let within { try within(output, db) }
                return (output, hasHandlers(context), !context.liveEvents.isEmpty)
            }
            if output.storedLive { liveBell.ring() }
            deliverEventsIfDue(storedDeliveries: output.storedDeliveries)
            return output.output
        } catch let error as KernelError {
            // Refusals are rare: only they pay for a second look-up of the school.
            if case .permissionDenied = error, let school = try? school(schoolReference) {
                auditDenial(principal, action: A.id, school: school, error: error)
            }
            throw error
        }
    }

    /// A `PreparedAction`'s slow part, in a read transaction behind the same door, so the writer
    /// is not held while it runs; nil for every other action.
    private func prepareOutsideWriter<A: Action>(_ action: A.Type, _ input: A.Input, owner: ModuleID, principal: Principal, schoolReference: String,
                                                 localizer: Localizer) throws -> (any Sendable)? {
        guard let preparing = A() as? any PreparedAction else { return nil }
        return try store.read { db in
            let context = try prepare(A.self, owner: owner, principal: principal, schoolReference: schoolReference, localizer: localizer, db: db)
            return try preparing.prepareAny(input, in: context)
        }
    }

    /// Passes the door, then builds the context the action runs with, all inside the action's own transaction.
    private func prepare<A: Action>(_ action: A.Type, owner: ModuleID, principal: Principal, schoolReference: String, localizer: Localizer,
                                    db: any StorageConnection) throws -> ActionContext {
        let (school, enabled, scope) = try gate(permission: A.permission, owner: owner, principal: principal, schoolReference: schoolReference, db: db)
        let context = ActionContext(
            principal: principal, school: school, scope: scope,
            database: SchoolDatabase(schoolID: school.id, connection: db),
            localizer: localizer, now: now(), settings: SettingsReader(connection: db, databaseFolder: databaseFolder), policy: registry.policy, enabledModules: enabled)
        context.database.enter(owner, registry.ownership)
        return context
    }

    /// The stored output of an earlier run with this request id, or nil if there was none.
    /// The same id with another action or another input is a client bug: refused, not guessed.
    private func replay<A: Action>(_ action: A.Type, requestID: String, inputHash: String, school: School, db: any StorageConnection) throws -> A.Output? {
        let row = try db.fetchOne(sql: "SELECT action, input_hash, output FROM kernel_requests WHERE school_id = ? AND request_id = ?", arguments: [school.id, requestID])
        guard let row else { return nil }
        guard row.string("action") == A.id, row.string("input_hash") == inputHash else {
            throw KernelError.requestIDReused(requestID: requestID, action: row.string("action"))
        }
        let output = row.string("output")
        return try JSONDecoder().decode(A.Output.self, from: Data(output.utf8))
    }

    /// A stable digest of an input: the same values give the same digest whatever the key order.
    /// JSON has no NaN or infinity, so such a number (from a caller that skipped the transport's
    /// own checks) is refused here as bad input, naming the field, before anything runs.
    static func fingerprint(_ input: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            return Digest.sha256Hex(try encoder.encode(input))
        } catch EncodingError.invalidValue(_, let context) {
            let field = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
            throw InputError("kernel.error.input-not-finite", ["field": field.isEmpty ? "input" : field])
        }
    }
}
