import Core
import Foundation

/// An announcement was published: its audience is told through the school's notification
/// channels (Notifications reads this by name and shape, without importing this module).
public struct AnnouncementPublished: DomainEvent, Equatable {
    public static let name = "announcements.published"
    public let announcementID: String
    public let title: String
    /// `low`, `normal`, `high` or `urgent`.
    public let priority: String
    public let authorName: String
    /// Everyone the audience reaches, but its author.
    public let recipients: [String]
}

enum AnnouncementsPublishing {
    /// Raises the announcement's event once, whichever server gets there first: the update is
    /// guarded on "not yet announced", so a second server (or a second pass) changes nothing.
    static func announce(_ id: String, _ context: ActionContext) throws {
        try context.database.execute("""
            UPDATE announcements_posts SET announced_at = :now
            WHERE school_id = :school_id AND id = :id AND announced_at IS NULL AND withdrawn_at IS NULL
            """, ["id": .text(id), "now": SQLValue(context.now)])
        guard context.database.changedRowCount == 1,
              let row = try context.database.fetchOne(
                "SELECT title, priority, audience, target, author_id, author_name FROM announcements_posts WHERE school_id = :school_id AND id = :id",
                ["id": .text(id)]),
              let audience = AnnouncementAudience(kind: row.string("audience"), target: row.string("target")) else { return }
        let author = row.string("author_id")
        try context.publish(AnnouncementPublished(
            announcementID: id, title: row.string("title"), priority: row.string("priority"), authorName: row.string("author_name"),
            recipients: try AnnouncementsAudience.recipients(audience, context).filter { $0 != author }))
    }

    /// Scheduled announcements whose time has come and whose audience has not been told.
    static let dueSelect = """
        SELECT id FROM announcements_posts
        WHERE school_id = :school_id AND announced_at IS NULL AND withdrawn_at IS NULL AND publish_at <= :now ORDER BY publish_at, id
        """
}

/// Whether a scheduled announcement has come due: the cheap check `serve` makes each minute.
public struct AnnouncementsDue: Action {
    public struct Input: Codable, Sendable { public init() {} }

    public static let id = "announcements.due"
    public static let permission = AnnouncementsPermissions.post
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> Bool {
        try !context.database.fetchAll(AnnouncementsPublishing.dueSelect, ["now": SQLValue(context.now)]).isEmpty
    }
}

/// Publishes every scheduled announcement whose time has come, telling each audience once.
public struct PublishDueAnnouncements: Action {
    public struct Input: Codable, Sendable { public init() {} }

    public static let id = "announcements.publish-due"
    public static let permission = AnnouncementsPermissions.post

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> Int {
        let due = try context.database.fetchAll(AnnouncementsPublishing.dueSelect, ["now": SQLValue(context.now)]).map { $0.string("id") }
        for id in due { try AnnouncementsPublishing.announce(id, context) }
        context.auditDetail = "\(due.count) published"
        return due.count
    }
}
