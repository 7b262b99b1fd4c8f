import Auth
import Core
import Foundation

/// Posts an announcement: now, or at a time to come (a job inside `serve` publishes it then).
/// Its audience is told through the school's notification channels once it is published.
public struct PostAnnouncement: Action {
    public struct Input: Codable, Sendable {
        public var title: String
        public var content: String
        public var priority: AnnouncementPriority
        /// `school` (the default), `role:TEACHER`, `class:7A`, `year-level:G7`.
        public var audience: String
        /// Nil: at once.
        public var publishAt: Date?
        public var expiresAt: Date?
        public var pinned: Bool

        public init(title: String, content: String, priority: AnnouncementPriority = .normal, audience: String = "school",
                    publishAt: Date? = nil, expiresAt: Date? = nil, pinned: Bool = false) {
            self.title = title
            self.content = content
            self.priority = priority
            self.audience = audience
            self.publishAt = publishAt
            self.expiresAt = expiresAt
            self.pinned = pinned
        }
    }

    public static let id = "announcements.post"
    public static let permission = AnnouncementsPermissions.post

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        try TextInput.check(input.title, field: "title", maxLength: TextLimit.title)
        try TextInput.check(input.content, field: "content", maxLength: TextLimit.body, multiline: true)
        for (field, value) in [("title", input.title), ("content", input.content)] where value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            throw InputError("announcements.error.empty", ["field": field])
        }
        try TextInput.check(input.audience, field: "audience", maxLength: TextLimit.name)
        _ = try AnnouncementsAudience.resolve(input.audience, context)
        if let expiresAt = input.expiresAt, expiresAt <= (input.publishAt ?? context.now) { throw AnnouncementsError.expiresBeforePublished }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Announcement {
        let audience = try AnnouncementsAudience.resolve(input.audience, context)
        let publishAt = max(input.publishAt ?? context.now, context.now)
        let id = try Self.store(input, audience: audience, publishAt: publishAt, announced: false, context)
        if publishAt <= context.now { try AnnouncementsPublishing.announce(id, context) }
        context.auditDetail = "\(audience.kind) \(audience.target)"
        guard let posted = try AnnouncementsStore.visible(id, context) else { throw AnnouncementsError.unknownAnnouncement(id) }
        return posted
    }

    /// Writes the announcement; `announced` marks one whose audience needs no telling (the demo's history).
    static func store(_ input: Input, audience: AnnouncementAudience, publishAt: Date, announced: Bool, _ context: ActionContext) throws -> String {
        let id = context.newOrderedID()
        try context.database.insert(into: "announcements_posts", [
            "id": .text(id), "title": .text(input.title.trimmingCharacters(in: .whitespacesAndNewlines)),
            "content": .text(input.content.trimmingCharacters(in: .whitespacesAndNewlines)), "priority": .text(input.priority.rawValue),
            "audience": .text(audience.kind), "target": .text(audience.target), "publish_at": SQLValue(publishAt),
            "expires_at": SQLValue(input.expiresAt), "pinned": .integer(input.pinned ? 1 : 0), "author_id": .text(context.principal.userID),
            "author_name": .text(context.principal.displayName), "created_at": SQLValue(context.now),
            "announced_at": announced ? SQLValue(context.now) : .null,
        ])
        return id
    }
}

/// One page of announcements and how many there are in all.
public struct AnnouncementPage: Codable, Sendable, Equatable {
    public let items: [Announcement]
    public let total: Int
}

/// The announcements addressed to the caller that are published and not expired, pinned first,
/// then the newest. With `includeUnpublished`, a poster also sees what they scheduled, withdrew
/// or let expire (an administrator: everyone's).
public struct ListAnnouncements: Action {
    public struct Input: Codable, Sendable {
        public var includeUnpublished: Bool
        public var offset: Int
        public var limit: Int

        public init(includeUnpublished: Bool = false, offset: Int = 0, limit: Int = 100) {
            self.includeUnpublished = includeUnpublished
            self.offset = offset
            self.limit = limit
        }
    }

    public static let id = "announcements.list"
    public static let permission = AnnouncementsPermissions.read
    public static let isReadOnly = true

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        guard input.offset >= 0, (1...1_000).contains(input.limit) else { throw InputError("announcements.error.page", ["max": "1000"]) }
        if input.includeUnpublished, context.scope(for: AnnouncementsPermissions.post) == nil {
            throw KernelError.permissionDenied(permission: AnnouncementsPermissions.post.id, role: context.principal.role)
        }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> AnnouncementPage {
        let (condition, visibility) = AnnouncementsAudience.visibility(context)
        var arguments = visibility
        arguments["now"] = SQLValue(context.now)
        var shown = "(\(AnnouncementsStore.live) AND \(condition))"
        if input.includeUnpublished {
            shown = context.scope(for: AnnouncementsPermissions.post) == .school ? "1 = 1" : "(\(shown) OR p.author_id = :me)"
        }
        let total: Int = try context.database.fetchValue(
            "SELECT COUNT(*) FROM announcements_posts p WHERE p.school_id = :school_id AND \(shown)", arguments) ?? 0
        arguments["limit"] = .integer(Int64(input.limit))
        arguments["offset"] = .integer(Int64(input.offset))
        let items = try context.database.fetchAll(
            "\(AnnouncementsStore.select) WHERE p.school_id = :school_id AND \(shown) \(AnnouncementsStore.order) LIMIT :limit OFFSET :offset", arguments)
            .map(AnnouncementsStore.announcement)
        return AnnouncementPage(items: items, total: total)
    }
}

/// Opens one announcement and records that the caller read it (once: the first time counts).
/// One the caller may not see answers exactly as one that does not exist.
public struct OpenAnnouncement: Action {
    public struct Input: Codable, Sendable {
        public var id: String
        public init(id: String) { self.id = id }
    }

    public static let id = "announcements.open"
    public static let permission = AnnouncementsPermissions.read

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        try TextInput.check(input.id, field: "id", maxLength: TextLimit.code * 2)
        guard try AnnouncementsStore.visible(input.id, context) != nil else { throw AnnouncementsError.unknownAnnouncement(input.id) }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Announcement {
        guard let seen = try AnnouncementsStore.visible(input.id, context) else { throw AnnouncementsError.unknownAnnouncement(input.id) }
        if seen.isPublished {
            try context.database.execute("""
                INSERT INTO announcements_reads (school_id, post_id, user_id, read_at) VALUES (:school_id, :id, :me, :now)
                ON CONFLICT (school_id, post_id, user_id) DO NOTHING
                """, ["id": .text(seen.id), "me": .text(context.principal.userID), "now": SQLValue(context.now)])
        }
        context.auditDetail = seen.id
        return try AnnouncementsStore.visible(input.id, context) ?? seen
    }
}

/// Withdraws an announcement: it stops showing at once and is kept, never deleted. Its author
/// or a school-wide poster may; someone who cannot see it is told it does not exist.
public struct WithdrawAnnouncement: Action {
    public struct Input: Codable, Sendable {
        public var id: String
        public init(id: String) { self.id = id }
    }

    public static let id = "announcements.withdraw"
    public static let permission = AnnouncementsPermissions.post

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        try TextInput.check(input.id, field: "id", maxLength: TextLimit.code * 2)
        guard let seen = try AnnouncementsStore.visible(input.id, context) else { throw AnnouncementsError.unknownAnnouncement(input.id) }
        guard context.scope == .school || seen.authorID == context.principal.userID else { throw AnnouncementsError.notYours(input.id) }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Bool {
        try context.database.execute("""
            UPDATE announcements_posts SET withdrawn_at = :now WHERE school_id = :school_id AND id = :id AND withdrawn_at IS NULL
            """, ["id": .text(input.id), "now": SQLValue(context.now)])
        context.auditDetail = input.id
        return true
    }
}
