import Foundation

extension Kernel {
    /// Whether a run's events stored deliveries: one of them has a handler in a module that is on in its school.
    func hasHandlers(_ context: ActionContext) -> Bool {
        context.publishedEvents.contains { event in
            (registry.handlersByEvent[event.name] ?? []).contains { context.enabledModules.contains($0.module) }
        }
    }

    /// Delivers events after a commit when the run stored deliveries, or when some may be waiting
    /// (this process has not looked since it started, or a failed handler waits for its retry).
    /// A run that published nothing to handle then costs no extra read transaction.
    func deliverEventsIfDue(storedDeliveries: Bool) {
        guard storedDeliveries || deliveriesMayWait.withLock({ $0 }) else { return }
        let report = deliverPendingEvents()
        // A retry not yet due, or an event a handler published (delivered by the next pass),
        // keeps the flag up until it has been delivered.
        let waiting = report.retrying > 0 || ((try? store.read { db in
            try db.tableExists("kernel_event_deliveries")
                && (try db.fetchValue(Bool.self, sql: "SELECT EXISTS (SELECT 1 FROM kernel_event_deliveries WHERE status = 'PENDING')") ?? false)
        }) ?? true)
        deliveriesMayWait.withLock { $0 = waiting }
    }
}
