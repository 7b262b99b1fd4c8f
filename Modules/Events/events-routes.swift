import Core
import Foundation

/// The contract's events (§10): `GET /api/mobile/events` (`?upcoming=true`), `GET /events/:id`,
/// `POST`/`DELETE /events/:id/register`. The list is the caller's calendar: the school's events
/// for them, the timetable's holidays (`type: holiday`) and their classes' exam dates (`type: exam`).
/// Ours under `/api/v1/events`: adding and cancelling events, and the calendar feed.
enum EventsRoutes {
    static var all: [APIRoute] { [list, detail, register, leave, create, cancel, makeFeed, feed] }

    static var list: APIRoute {
        APIRoute(.get, "/api/mobile/events", summary: "The caller's calendar: the school's events for them, holidays and their classes' exam dates (`upcoming=true`: from today)",
                 query: APIParameter.paging + [APIParameter("upcoming", .boolean)], response: .page(of: .of(EventItem.self))) { request in
            let paging = try request.paging(defaultPerPage: 20)
            let upcoming = try request.queryBool("upcoming") ?? false
            let entries = try await request.run(UpcomingCalendar.self, .init(upcomingOnly: upcoming))
            let shown = entries.dropFirst(paging.offset).prefix(paging.perPage)
            return try .json(APIPage(data: shown.map(EventItem.init), total: entries.count, paging: paging))
        }
    }

    static var detail: APIRoute {
        APIRoute(.get, "/api/mobile/events/:id", summary: "One entry of the caller's calendar, with registration", response: .of(EventDetail.self)) { request in
            try .json(EventDetail(try await request.run(ShowCalendarEntry.self, .init(id: try request.parameter("id")))))
        }
    }

    static var register: APIRoute {
        APIRoute(.post, "/api/mobile/events/:id/register", summary: "Registers the caller: a seat while there is one, else the waiting list",
                 response: .of(EventRegistered.self)) { request in
            let status = try await request.run(RegisterForEvent.self, .init(id: try request.parameter("id")))
            return try .json(EventRegistered(success: true, status: status,
                                             message: request.localizer(status == .registered ? "events.registered" : "events.waitlisted")))
        }
    }

    static var leave: APIRoute {
        APIRoute(.delete, "/api/mobile/events/:id/register", summary: "Takes the caller off the event's list", response: .success) { request in
            _ = try await request.run(LeaveEvent.self, .init(id: try request.parameter("id")))
            return try .success()
        }
    }

    struct NewEvent: Decodable {
        let title: String
        let description: String?
        let type: EventType?
        let startDate: String
        let endDate: String?
        let startTime: String?
        let endTime: String?
        let location: String?
        let classCode: String?
        let registrationRequired: Bool?
        let maxAttendees: Int?
    }

    static var create: APIRoute {
        APIRoute(.post, "/api/v1/events", summary: "Puts an event on the calendar, for the school or one class (`class_code`); days `YYYY-MM-DD`, times `HH:MM`",
                 body: .object([("title", .string(maxLength: TextLimit.title)), ("description", .optional(.string(maxLength: TextLimit.body))),
                                ("type", .optional(.values(EventType.allCases.filter { $0 != .holiday && $0 != .exam }.map(\.rawValue)))),
                                ("start_date", .date), ("end_date", .optional(.date)), ("start_time", .optional(.text)), ("end_time", .optional(.text)),
                                ("location", .optional(.string(maxLength: TextLimit.title))), ("class_code", .optional(.string(maxLength: TextLimit.code))),
                                ("registration_required", .optional(.boolean)), ("max_attendees", .optional(.integer(minimum: 1, maximum: 100_000)))]),
                 status: 201, response: .of(EventDetail.self)) { request in
            let body = try request.decode(NewEvent.self)
            let made = try await request.run(CreateEvent.self, .init(
                title: body.title, description: body.description ?? "", type: body.type ?? .other, startsOn: body.startDate, endsOn: body.endDate,
                startTime: body.startTime, endTime: body.endTime, location: body.location ?? "", classCode: body.classCode,
                registrationRequired: body.registrationRequired ?? false, maxAttendees: body.maxAttendees))
            return try .json(EventDetail(made), status: 201)
        }
    }

    static var cancel: APIRoute {
        APIRoute(.delete, "/api/v1/events/:id", summary: "Cancels an event (its organizer, or an administrator); it stays on the calendar, marked cancelled",
                 response: .success) { request in
            _ = try await request.run(CancelEvent.self, .init(id: try request.parameter("id")))
            return try .success()
        }
    }

    static var makeFeed: APIRoute {
        APIRoute(.post, "/api/v1/events/feed", summary: "A new address of the caller's calendar for a phone to subscribe to; the previous one stops working",
                 response: .of(MakeCalendarFeed.Output.self)) { request in
            try .json(try await request.run(MakeCalendarFeed.self, .init()))
        }
    }

    static var feed: APIRoute {
        APIRoute(.get, "/api/v1/events/feed/:token", summary: "A calendar feed (iCalendar), read with the secret in its address instead of a sign-in",
                 access: .everyone, response: .text, contentType: "text/calendar; charset=utf-8") { request in
            guard let address = EventsFeed.split(try request.parameter("token")) else { throw EventsError.unknownFeed }
            let (school, secret) = address
            let text: String
            do {
                text = try await request.run(ReadCalendarFeed.self, .init(secret: secret), as: .system(in: school), in: school)
            } catch let error as KernelError {
                // Another school, one that does not exist, or Events off there: the same answer as a wrong secret.
                if case .databaseUnavailable = error { throw error }
                throw EventsError.unknownFeed
            }
            return APIResponse(status: 200, body: Data(text.utf8), headers: ["Content-Type": "text/calendar; charset=utf-8", "Cache-Control": "private, max-age=300"])
        }
    }
}
