import Core
import Foundation

/// The contract's announcements (§10): `GET /api/mobile/announcements` lists what is published
/// for the caller, `GET /api/mobile/announcements/:id` opens one and records the read. Posting and
/// withdrawing, which the web app has no route for, are ours under `/api/v1/announcements`.
enum AnnouncementsRoutes {
    static var all: [APIRoute] { [list, detail, post, withdraw] }

    static var list: APIRoute {
        APIRoute(.get, "/api/mobile/announcements", summary: "The published announcements addressed to the caller, pinned first, then the newest",
                 query: APIParameter.paging, response: .page(of: .of(AnnouncementItem.self))) { request in
            let paging = try request.paging(defaultPerPage: 20)
            let page = try await request.run(ListAnnouncements.self, .init(offset: paging.offset, limit: paging.perPage))
            return try .json(APIPage(data: page.items.map(AnnouncementItem.init), total: page.total, paging: paging))
        }
    }

    static var detail: APIRoute {
        APIRoute(.get, "/api/mobile/announcements/:id", summary: "One announcement; opening it records that the caller read it",
                 response: .of(AnnouncementDetail.self)) { request in
            let announcement = try await request.run(OpenAnnouncement.self, .init(id: try request.parameter("id")))
            return try .json(AnnouncementDetail(announcement))
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
                 status: 201, response: .of(AnnouncementDetail.self)) { request in
            let body = try request.decode(NewAnnouncement.self)
            let posted = try await request.run(PostAnnouncement.self, .init(
                title: body.title, content: body.content, priority: body.priority ?? .normal, audience: body.audience ?? "school",
                publishAt: body.publishAt, expiresAt: body.expiresAt, pinned: body.pinned ?? false))
            return try .json(AnnouncementDetail(posted), status: 201)
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
