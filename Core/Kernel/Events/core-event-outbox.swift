import Foundation
import HogwartsBase

/// Stores published events with the transaction that raised them, and delivers them after.
///
/// Each (event, handler) pair is a delivery row; a handler's work and the row's `DELIVERED`
/// mark commit together, so a delivery happens exactly once even across crashes. A failing
/// handler is retried with backoff, then parked as `FAILED` with its error for an operator.
package enum EventOutbox {
    static let maxAttempts = 8

    /// Stores what a run published, with a delivery row for each handler whose module is on in
    /// the run's school (the run already knows which modules those are).
    static func store(from context: ActionContext, source: String, registry: ModuleRegistry, in db: any StorageConnection) throws {
        try store(context.publishedEvents, source: source, school: context.school.id, enabled: context.enabledModules, registry: registry, at: context.now, in: db)
        try LiveOutbox.store(context.liveEvents, school: context.school.id, at: context.now, in: db)
    }

    package static func store(_ events: [PendingEvent], source: String, school: SchoolID, enabled: Set<ModuleID>, registry: ModuleRegistry, at time: Date, in db: any StorageConnection) throws {
        guard !events.isEmpty else { return }
        for event in events {
            // RETURNING rather than the connection's last row id: one text on every engine.
            guard let eventID = try db.fetchValue(Int64.self, sql: "INSERT INTO kernel_events (school_id, name, payload, source_action, at) VALUES (?, ?, ?, ?, ?) RETURNING id",
                                                  arguments: [school, event.name, event.payload, source, time])
            else { throw KernelError.storage("kernel_events: no id returned") }
            for (module, handler) in registry.handlersByEvent[event.name] ?? [] where enabled.contains(module) {
                try db.execute(sql: """
                    INSERT INTO kernel_event_deliveries (event_id, handler_id, module_id, school_id, status, next_attempt_at)
                    VALUES (?, ?, ?, ?, 'PENDING', ?)
                    """, arguments: [eventID, handler.id, module, school, time])
            }
        }
    }
}

/// What one delivery pass did.
public struct EventDeliveryReport: Sendable, Equatable {
    public var delivered = 0
    public var retrying = 0
    public var failed = 0

    package init(delivered: Int = 0, retrying: Int = 0, failed: Int = 0) {
        self.delivered = delivered
        self.retrying = retrying
        self.failed = failed
    }
}

extension Kernel {
    /// Delivers events whose handlers have not run yet. Called after every committed action
    /// and at start, so events left by a process that stopped after its commit still arrive.
    @discardableResult
    public func deliverPendingEvents(limit: Int = 10_000) -> EventDeliveryReport {
        var report = EventDeliveryReport()
        do {
            let due = try store.read { db -> [SQLRow] in
                guard try db.tableExists("kernel_event_deliveries") else { return [] }
                return try db.fetchAll(sql: """
                    SELECT d.event_id, d.handler_id, d.module_id, d.school_id, d.attempts, e.name, e.payload
                    FROM kernel_event_deliveries d JOIN kernel_events e ON e.id = d.event_id
                    WHERE d.status = 'PENDING' AND d.next_attempt_at <= ?
                    ORDER BY d.event_id, d.handler_id LIMIT ?
                    """, arguments: [now(), limit])
            }
            for row in due {
                deliver(row, report: &report)
            }
        } catch {
            logger.error("event delivery stopped", metadata: ["error": "\(error)"])
        }
        return report
    }

    private func deliver(_ row: SQLRow, report: inout EventDeliveryReport) {
        let eventID: Int64 = row["event_id"] ?? 0
        let handlerID = row.string("handler_id")
        let moduleID = row.string("module_id")
        let eventName = row.string("name")
        guard let handler = registry.handlersByEvent[eventName]?.first(where: { $0.handler.id == handlerID })?.handler else { return }
        do {
            let (claimed, storedLive) = try store.write { db -> (Bool, Bool) in
                // The claim comes first and is guarded: another thread or node that claimed this
                // delivery holds its row until it commits, and then this UPDATE matches nothing
                // (PostgreSQL re-checks the WHERE on the committed row). The handler's work and
                // the mark commit together; if the handler throws, the claim rolls back with it.
                let time = now()
                guard try db.fetchValue(Int64.self, sql: """
                    UPDATE kernel_event_deliveries SET status = 'DELIVERED', delivered_at = ?, attempts = attempts + 1
                    WHERE event_id = ? AND handler_id = ? AND status = 'PENDING' RETURNING event_id
                    """, arguments: [time, eventID, handlerID]) != nil
                else { return (false, false) }
                let school = try SchoolRecords.find(row.string("school_id"), in: db)
                let enabled = try ModuleSwitchRecords.enabled(for: school.id, registry: registry, in: db)
                if enabled.contains(moduleID) {
                    let context = ActionContext(
                        principal: .system(in: school.id), school: school, scope: .school,
                        database: SchoolDatabase(schoolID: school.id, connection: db),
                        localizer: localizer, now: time, settings: SettingsReader(connection: db, databaseFolder: databaseFolder), policy: registry.policy, enabledModules: enabled)
                    context.database.enter(moduleID, registry.ownership)
                    try handler.handle(Data(row.string("payload").utf8), context)
                    try EventOutbox.store(from: context, source: handlerID, registry: registry, in: db)
                    return (true, !context.liveEvents.isEmpty)
                }
                return (true, false)
            }
            if storedLive { liveBell.ring() }
            if claimed { report.delivered += 1 }
        } catch {
            recordFailure(eventID: eventID, handlerID: handlerID, attempts: row.int("attempts"), error: error, report: &report)
        }
    }

    private func recordFailure(eventID: Int64, handlerID: String, attempts: Int, error: any Error, report: inout EventDeliveryReport) {
        let attempts = attempts + 1
        let givesUp = attempts >= EventOutbox.maxAttempts
        // 2, 4, 8, ... seconds, at most an hour.
        let retryAt = now().addingTimeInterval(min(3600, pow(2, Double(attempts))))
        logger.warning("event handler failed", metadata: ["handler": "\(handlerID)", "event": "\(eventID)", "attempt": "\(attempts)", "error": "\(error)"])
        do {
            try store.write { db in
                try db.execute(sql: """
                    UPDATE kernel_event_deliveries SET attempts = ?, last_error = ?, next_attempt_at = ?, status = ?
                    WHERE event_id = ? AND handler_id = ? AND status = 'PENDING'
                    """, arguments: [attempts, localizer.message(for: error), retryAt, givesUp ? "FAILED" : "PENDING", eventID, handlerID])
            }
        } catch {
            logger.error("could not record a handler failure", metadata: ["error": "\(error)"])
        }
        if givesUp { report.failed += 1 } else { report.retrying += 1 }
    }
}
