import Foundation

/// Something that happened in a module that others may react to, such as a student marked absent.
/// Events are stored in the same transaction as the action that raised them and delivered after
/// it commits, so a committed event is never lost even if the process stops right then.
public protocol DomainEvent: Codable, Sendable {
    /// `<module>.<what-happened>`, e.g. `attendance.absence-recorded`.
    static var name: String { get }
}

/// A reaction to one kind of event. It runs in its own transaction, as the system in the
/// event's school, only where its module is enabled; a failure is retried with backoff.
public struct EventHandler: Sendable {
    /// `<module>.<handler>`, unique, e.g. `notifications.notify-guardian-of-absence`.
    public let id: String
    public let eventName: String
    /// An optional handler listens to a module that may not be installed (Notifications hears
    /// Attendance where there is one); a required one makes a missing publisher a start-up error.
    public let isOptional: Bool
    let handle: @Sendable (Data, ActionContext) throws -> Void

    public init<E: DomainEvent>(_ id: String, on event: E.Type, optional: Bool = false, _ body: @escaping @Sendable (E, ActionContext) throws -> Void) {
        self.id = id
        self.eventName = E.name
        self.isOptional = optional
        self.handle = { payload, context in
            try body(try JSONDecoder().decode(E.self, from: payload), context)
        }
    }
}

/// An event raised inside a running transaction, encoded and waiting to be stored with it.
package struct PendingEvent {
    let name: String
    let payload: String

    package init(name: String, payload: String) {
        self.name = name
        self.payload = payload
    }

    package init<E: DomainEvent>(_ event: E) throws {
        name = E.name
        payload = String(decoding: try JSONEncoder().encode(event), as: UTF8.self)
    }
}
