import Core
import Foundation

/// The signed-in user's notifications, newest first, without expired ones: a page of them
/// (`offset`, `limit` up to 200), how many match, and how many are unread.
public struct ListNotifications: Action {
    public struct Input: Codable, Sendable {
        public var unreadOnly: Bool
        public var offset: Int
        public var limit: Int
        public init(unreadOnly: Bool = false, offset: Int = 0, limit: Int = 200) {
            self.unreadOnly = unreadOnly
            self.offset = offset
            self.limit = limit
        }
    }

    public struct Output: Codable, Sendable {
        public let notifications: [UserNotification]
        public let unread: Int
        /// How many match (all, or the unread ones), across pages.
        public let total: Int
    }

    public static let id = "notifications.list"
    public static let permission = NotificationsPermissions.own
    public static let isReadOnly = true
    public static let maximumLimit = 200

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        guard (0...Self.maximumLimit).contains(input.limit), (0...100_000_000).contains(input.offset) else {
            throw InputError("notifications.error.page", ["max": String(Self.maximumLimit)])
        }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Output {
        let arguments: SQLArguments = ["me": .text(context.principal.userID), "now": SQLValue(context.now), "unread": .integer(input.unreadOnly ? 1 : 0)]
        let matching = "school_id = :school_id AND user_id = :me AND expires_at > :now AND (:unread = 0 OR read_at IS NULL)"
        let rows = try context.database.fetchAll("""
            SELECT * FROM notifications_items WHERE \(matching) ORDER BY created_at DESC, id DESC LIMIT :limit OFFSET :offset
            """, arguments.merging(["limit": .integer(Int64(input.limit)), "offset": .integer(Int64(input.offset))]) { $1 })
        let total: Int = try context.database.fetchValue("SELECT COUNT(*) FROM notifications_items WHERE \(matching)", arguments) ?? 0
        return Output(notifications: rows.map(UserNotification.init(row:)), unread: try Self.unread(of: context.principal.userID, context), total: total)
    }

    /// A person's unread notifications that have not expired: the list's count and a push's badge.
    static func unread(of user: String, _ context: ActionContext) throws -> Int {
        try context.database.fetchValue("""
            SELECT COUNT(*) FROM notifications_items WHERE school_id = :school_id AND user_id = :user AND expires_at > :now AND read_at IS NULL
            """, ["user": .text(user), "now": SQLValue(context.now)]) ?? 0
    }
}

/// Marks one notification (by id or prefix), or all of them, read. With `exact`, the id must be
/// whole and nothing is refused: a notification that is not the caller's is neither marked nor
/// revealed (the API's "never 404").
public struct MarkNotificationsRead: Action {
    public struct Input: Codable, Sendable {
        public var notification: String?
        public var exact: Bool
        public init(notification: String? = nil, exact: Bool = false) {
            self.notification = notification
            self.exact = exact
        }
    }

    public static let id = "notifications.read"
    public static let permission = NotificationsPermissions.own

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        if let reference = input.notification {
            let match = input.exact ? "id = :id" : "id LIKE :prefix \(LikePattern.escapeClause)"
            let count: Int = try context.database.fetchValue(
                "SELECT COUNT(*) FROM notifications_items WHERE school_id = :school_id AND user_id = :me AND \(match)",
                ["me": .text(context.principal.userID), input.exact ? "id" : "prefix": .text(input.exact ? reference : LikePattern.prefix(reference))]) ?? 0
            guard !reference.isEmpty, count == 1 else { throw NotificationsError.unknown(reference) }
        }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Int {
        let arguments: SQLArguments = ["now": SQLValue(context.now), "me": .text(context.principal.userID)]
        let which = switch (input.notification, input.exact) {
        case (nil, _): ""
        case (_?, true): "AND id = :id"
        case (_?, false): "AND id LIKE :prefix \(LikePattern.escapeClause)"
        }
        try context.database.execute("""
            UPDATE notifications_items SET read_at = :now WHERE school_id = :school_id AND user_id = :me AND read_at IS NULL \(which)
            """, arguments.merging(["id": .text(input.notification ?? ""), "prefix": .text(LikePattern.prefix(input.notification ?? ""))]) { $1 })
        return context.database.changedRowCount
    }
}

/// Deletes one of the caller's notifications by its whole id. Another user's, another school's or
/// none is refused as unknown (404), alike: deleting twice answers so the second time.
public struct DeleteNotification: Action {
    public struct Input: Codable, Sendable {
        public var notification: String
        public init(notification: String) { self.notification = notification }
    }

    public static let id = "notifications.delete"
    public static let permission = NotificationsPermissions.own

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        let count: Int = try context.database.fetchValue(
            "SELECT COUNT(*) FROM notifications_items WHERE school_id = :school_id AND user_id = :me AND id = :id",
            ["me": .text(context.principal.userID), "id": .text(input.notification)]) ?? 0
        guard count == 1 else { throw NotificationsError.unknown(input.notification) }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Int {
        try context.database.execute("DELETE FROM notifications_items WHERE school_id = :school_id AND user_id = :me AND id = :id",
                                     ["me": .text(context.principal.userID), "id": .text(input.notification)])
        return context.database.changedRowCount
    }
}

public struct Preference: Codable, Sendable, Equatable {
    public let type: NotificationType
    public let enabled: Bool
    public let quietHours: String?
}

/// Reads or changes the user's preference for one type: on or off, and quiet hours (`21:00-07:00`).
public struct NotificationPreferences: Action {
    public struct Input: Codable, Sendable {
        public var type: String?
        public var enabled: Bool?
        public var quietHours: String?
        public init(type: String? = nil, enabled: Bool? = nil, quietHours: String? = nil) {
            self.type = type
            self.enabled = enabled
            self.quietHours = quietHours
        }
    }

    public static let id = "notifications.preferences"
    public static let permission = NotificationsPermissions.own

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        if let type = input.type, !NotificationType.known.contains(NotificationType(rawValue: type.uppercased())) {
            throw InputError("notifications.error.unknown-type", ["value": type, "types": NotificationType.known.map(\.rawValue).joined(separator: "|")])
        }
        if let quiet = input.quietHours, !quiet.isEmpty, Self.quiet(quiet) == nil { throw InputError("notifications.error.quiet-hours", ["value": quiet]) }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> [Preference] {
        let me = context.principal.userID
        if let type = input.type?.uppercased(), input.enabled != nil || input.quietHours != nil {
            let current = try context.database.fetchOne("SELECT enabled, quiet_from, quiet_to FROM notifications_preferences WHERE school_id = :school_id AND user_id = :me AND type = :type",
                                                        ["me": .text(me), "type": .text(type)])
            let quiet = input.quietHours.map { $0.isEmpty ? nil : Self.quiet($0) } ?? (current.map { ($0["quiet_from"] ?? "", $0["quiet_to"] ?? "") })
            try context.database.execute("""
                INSERT INTO notifications_preferences (school_id, user_id, type, enabled, quiet_from, quiet_to) VALUES (:school_id, :me, :type, :enabled, :from, :to)
                ON CONFLICT (school_id, user_id, type) DO UPDATE SET enabled = excluded.enabled, quiet_from = excluded.quiet_from, quiet_to = excluded.quiet_to
                """, ["me": .text(me), "type": .text(type), "enabled": .integer((input.enabled ?? current?["enabled"] ?? true) ? 1 : 0),
                      "from": quiet.flatMap { $0.0.isEmpty ? nil : $0.0 }.map { .text($0) } ?? .null,
                      "to": quiet.flatMap { $0.1.isEmpty ? nil : $0.1 }.map { .text($0) } ?? .null])
        }
        var stored: [String: SQLRow] = [:]
        for row in try context.database.fetchAll("SELECT * FROM notifications_preferences WHERE school_id = :school_id AND user_id = :me", ["me": .text(me)]) {
            stored[row.string("type")] = row
        }
        return NotificationType.known.map { type in
            let row = stored[type.rawValue]
            let quiet = row.flatMap { r -> String? in (r["quiet_from"] as String?).map { "\($0)-\(r.string("quiet_to"))" } }
            return Preference(type: type, enabled: row?["enabled"] ?? true, quietHours: quiet)
        }
    }

    static func quiet(_ text: String) -> (String, String)? {
        let parts = text.split(separator: "-").map(String.init)
        guard parts.count == 2, QuietHours.minutes(parts[0]) != nil, QuietHours.minutes(parts[1]) != nil else { return nil }
        return (parts[0], parts[1])
    }
}

/// The outbox: what is waiting, what failed and why. Nothing fails silently.
public struct ListOutbox: Action {
    public struct Input: Codable, Sendable {
        public var all: Bool
        /// Only the dead letters: entries given up on after the last attempt.
        public var failedOnly: Bool
        public init(all: Bool = false, failedOnly: Bool = false) {
            self.all = all
            self.failedOnly = failedOnly
        }
    }

    public static let id = "notifications.outbox"
    public static let permission = NotificationsPermissions.outbox
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> [OutboxEntry] {
        try context.database.fetchAll("""
            SELECT o.*, u.email FROM notifications_outbox o LEFT JOIN auth_v1_people u ON u.school_id = o.school_id AND u.id = o.recipient
            WHERE o.school_id = :school_id AND (:all = 1 OR o.state != 'SENT') AND (:failed = 0 OR o.state = 'FAILED')
            ORDER BY o.next_attempt_at LIMIT 500
            """, ["all": .integer(input.all ? 1 : 0), "failed": .integer(input.failedOnly ? 1 : 0)]).map { row in
            OutboxEntry(id: row.string("id"), channel: row.string("channel"), recipient: row["email"] ?? row.string("recipient"), state: row.string("state"),
                        attempts: row.int("attempts"), lastError: row["last_error"], nextAttemptAt: row["next_attempt_at"])
        }
    }
}

/// Whether any outbox entry is due: the cheap, unaudited look `hogwarts serve` takes every few
/// seconds before it runs `DeliverOutbox`. A SENDING entry whose claim has lapsed (its server died
/// mid-send) is due again.
public struct OutboxDue: Action {
    public struct Input: Codable, Sendable { public init() {} }

    public static let id = "notifications.outbox-due"
    public static let permission = NotificationsPermissions.outbox
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> Bool {
        let due: Bool? = try context.database.fetchValue("""
            SELECT EXISTS (SELECT 1 FROM notifications_outbox WHERE school_id = :school_id AND state IN ('PENDING', 'SENDING') AND next_attempt_at <= :now)
            """, ["now": SQLValue(context.now)])
        return due ?? false
    }
}
