import Core
import Foundation

/// The contract's announcements (§10): `GET /api/mobile/announcements` lists what is published
/// for the caller, `GET /api/mobile/announcements/:id` opens one and records the read. Posting and
/// withdrawing, which the web app has no route for, are ours under `/api/v1/announcements`.
enum AnnouncementsRoutes {
    static var all: [APIRoute] { [list, detail, post, withdraw] }

    static let itemFields: [(String, APISchema)] = [
        ("id", .id), ("title", .text), ("content", .text), ("priority", .values(of: AnnouncementPriority.self)), ("published_at", .dateTime),
        ("expires_at", .nullable(.dateTime)), ("author_name", .text), ("author_avatar", .nullable(.text)),
    ]

    static let detailFields: [(String, APISchema)] = itemFields + [
        ("scope", .values(["school", "role", "class", "year-level"])), ("is_published", .boolean), ("is_pinned", .boolean), ("is_featured", .boolean),
        ("target_class", .nullable(.text)), ("target_role", .nullable(.values(of: Role.self))), ("read_count", .integer(minimum: 0)),
        ("created_at", .dateTime),
    ]

    /// One announcement as the apps list it; we keep no avatars.
    struct Item: Encodable, Sendable {
        let id: String
        let title: String
        let content: String
        let priority: AnnouncementPriority
        let publishedAt: Date
        let expiresAt: Nullable<Date>
        let authorName: String
        let authorAvatar: Nullable<String>

        init(_ announcement: Announcement) {
            id = announcement.id
            title = announcement.title
            content = announcement.content
            priority = announcement.priority
            publishedAt = announcement.publishAt
            expiresAt = Nullable(announcement.expiresAt)
            authorName = announcement.authorName
            authorAvatar = Nullable(nil)
        }
    }

    /// The detail adds whom it is for, its state and how many have read it. A year level's code
    /// goes in `target_class` too: the contract has no field of its own for it.
    struct Detail: Encodable, Sendable {
        let item: Item
        let scope: String
        let isPublished: Bool
        let isPinned: Bool
        let isFeatured: Bool
        let targetClass: Nullable<String>
        let targetRole: Nullable<String>
        let readCount: Int
        let createdAt: Date

        init(_ announcement: Announcement) {
            item = Item(announcement)
            scope = announcement.audience.kind
            isPublished = announcement.isPublished
            isPinned = announcement.pinned
            isFeatured = announcement.pinned
            targetClass = Nullable(announcement.audienceCode)
            if case .role(let role) = announcement.audience { targetRole = Nullable(role.rawValue) } else { targetRole = Nullable(nil) }
            readCount = announcement.readCount
            createdAt = announcement.createdAt
        }

        func encode(to encoder: any Encoder) throws {
            try item.encode(to: encoder)
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(scope, forKey: .scope)
            try container.encode(isPublished, forKey: .isPublished)
            try container.encode(isPinned, forKey: .isPinned)
            try container.encode(isFeatured, forKey: .isFeatured)
            try container.encode(targetClass, forKey: .targetClass)
            try container.encode(targetRole, forKey: .targetRole)
            try container.encode(readCount, forKey: .readCount)
            try container.encode(createdAt, forKey: .createdAt)
        }

        enum Keys: String, CodingKey {
            case scope, isPublished, isPinned, isFeatured, targetClass, targetRole, readCount, createdAt
        }
    }

    static var list: APIRoute {
        APIRoute(.get, "/api/mobile/announcements", summary: "The published announcements addressed to the caller, pinned first, then the newest",
                 query: APIParameter.paging, response: .page(of: .object(itemFields))) { request in
            let paging = try request.paging(defaultPerPage: 20)
            let page = try await request.run(ListAnnouncements.self, .init(offset: paging.offset, limit: paging.perPage))
            return try .json(APIPage(data: page.items.map(Item.init), total: page.total, paging: paging))
        }
    }

    static var detail: APIRoute {
        APIRoute(.get, "/api/mobile/announcements/:id", summary: "One announcement; opening it records that the caller read it",
                 response: .object(detailFields)) { request in
            let announcement = try await request.run(OpenAnnouncement.self, .init(id: try request.parameter("id")))
            return try .json(Detail(announcement))
        }
    }

    struct NewAnnouncement: Decodable {
        let title: String
        let content: String
        let priority: AnnouncementPriority?
        let audience: String?
        let publishAt: Date?
        let expiresAt: Date?
        let pinned: Bool?
    }

    static var post: APIRoute {
        APIRoute(.post, "/api/v1/announcements", summary: "Posts an announcement to the school, a role (`role:TEACHER`), a class (`class:7A`) or a year level (`year-level:G7`), now or at `publish_at`",
                 body: .object([("title", .string(maxLength: TextLimit.title)), ("content", .string(maxLength: TextLimit.body)),
                                ("priority", .optional(.values(of: AnnouncementPriority.self))), ("audience", .optional(.string(maxLength: TextLimit.name))),
                                ("publish_at", .optional(.dateTime)), ("expires_at", .optional(.dateTime)), ("pinned", .optional(.boolean))]),
                 status: 201, response: .object(detailFields)) { request in
            let body = try request.decode(NewAnnouncement.self)
            let posted = try await request.run(PostAnnouncement.self, .init(
                title: body.title, content: body.content, priority: body.priority ?? .normal, audience: body.audience ?? "school",
                publishAt: body.publishAt, expiresAt: body.expiresAt, pinned: body.pinned ?? false))
            return try .json(Detail(posted), status: 201)
        }
    }

    static var withdraw: APIRoute {
        APIRoute(.delete, "/api/v1/announcements/:id", summary: "Withdraws an announcement (its author, or an administrator); it is kept, not deleted",
                 response: .success) { request in
            _ = try await request.run(WithdrawAnnouncement.self, .init(id: try request.parameter("id")))
            return try .json(["success": true])
        }
    }
}
