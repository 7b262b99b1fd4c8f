import Core
import Foundation

/// The contract's events (§10): `GET /api/mobile/events` (`?upcoming=true`), `GET /events/:id`,
/// `POST`/`DELETE /events/:id/register`. The list is the caller's calendar: the school's events
/// for them, the timetable's holidays (`type: holiday`) and their classes' exam dates (`type: exam`).
/// Ours under `/api/v1/events`: adding and cancelling events, and the calendar feed.
enum EventsRoutes {
    static var all: [APIRoute] { [list, detail, register, leave, create, cancel, makeFeed, feed] }

    static let itemFields: [(String, APISchema)] = [
        ("id", .id), ("title", .text), ("description", .text), ("start_date", .dateTime), ("start_time", .nullable(.text)),
        ("end_time", .nullable(.text)), ("location", .text), ("type", .values(of: EventType.self)), ("is_public", .boolean),
        ("organizer_name", .text), ("status", .values(["SCHEDULED", "CANCELLED"])),
    ]

    static let detailFields: [(String, APISchema)] = itemFields + [
        ("end_date", .dateTime), ("registration_required", .boolean), ("max_attendees", .nullable(.integer(minimum: 1))),
        ("current_attendees", .integer(minimum: 0)), ("registration_count", .integer(minimum: 0)), ("target_audience", .text),
        ("notes", .nullable(.text)), ("created_at", .nullable(.dateTime)), ("is_registered", .boolean),
        ("registration_status", .nullable(.values(of: EventRegistration.self))),
    ]

    /// A day as the web app writes a date column: midnight UTC.
    static func midnight(_ day: String) -> String { "\(day)T00:00:00.000Z" }

    struct Item: Encodable, Sendable {
        let id: String
        let title: String
        let description: String
        let startDate: String
        let startTime: Nullable<String>
        let endTime: Nullable<String>
        let location: String
        let type: EventType
        let isPublic: Bool
        let organizerName: String
        let status: String

        init(_ entry: CalendarEntry) {
            id = entry.id
            title = entry.title
            description = entry.description
            startDate = EventsRoutes.midnight(entry.startsOn)
            startTime = Nullable(entry.startTime)
            endTime = Nullable(entry.endTime)
            location = entry.location
            type = entry.type
            isPublic = entry.classCode == nil
            organizerName = entry.organizerName
            status = entry.cancelled ? "CANCELLED" : "SCHEDULED"
        }
    }

    /// The detail adds registration: `current_attendees` have a seat, `registration_count` counts
    /// the waiting list too. `target_audience` is `school` or the class's code.
    struct Detail: Encodable, Sendable {
        let item: Item
        let endDate: String
        let registrationRequired: Bool
        let maxAttendees: Nullable<Int>
        let currentAttendees: Int
        let registrationCount: Int
        let targetAudience: String
        let notes: Nullable<String>
        let createdAt: Nullable<Date>
        let isRegistered: Bool
        let registrationStatus: Nullable<EventRegistration>

        init(_ entry: CalendarEntry) {
            item = Item(entry)
            endDate = EventsRoutes.midnight(entry.endsOn)
            registrationRequired = entry.registrationRequired
            maxAttendees = Nullable(entry.maxAttendees)
            currentAttendees = entry.maxAttendees.map { min($0, entry.registrations) } ?? entry.registrations
            registrationCount = entry.registrations
            targetAudience = entry.classCode ?? "school"
            notes = Nullable(nil)
            createdAt = Nullable(entry.createdAt)
            isRegistered = entry.myRegistration != nil
            registrationStatus = Nullable(entry.myRegistration)
        }

        func encode(to encoder: any Encoder) throws {
            try item.encode(to: encoder)
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(endDate, forKey: .endDate)
            try container.encode(registrationRequired, forKey: .registrationRequired)
            try container.encode(maxAttendees, forKey: .maxAttendees)
            try container.encode(currentAttendees, forKey: .currentAttendees)
            try container.encode(registrationCount, forKey: .registrationCount)
            try container.encode(targetAudience, forKey: .targetAudience)
            try container.encode(notes, forKey: .notes)
            try container.encode(createdAt, forKey: .createdAt)
            try container.encode(isRegistered, forKey: .isRegistered)
            try container.encode(registrationStatus, forKey: .registrationStatus)
        }

        enum Keys: String, CodingKey {
            case endDate, registrationRequired, maxAttendees, currentAttendees, registrationCount, targetAudience, notes, createdAt, isRegistered,
                 registrationStatus
        }
    }

    static var list: APIRoute {
        APIRoute(.get, "/api/mobile/events", summary: "The caller's calendar: the school's events for them, holidays and their classes' exam dates (`upcoming=true`: from today)",
                 query: APIParameter.paging + [APIParameter("upcoming", .boolean)], response: .page(of: .object(itemFields))) { request in
            let paging = try request.paging(defaultPerPage: 20)
            let upcoming = try request.queryBool("upcoming") ?? false
            let entries = try await request.run(UpcomingCalendar.self, .init(upcomingOnly: upcoming))
            let shown = entries.dropFirst(paging.offset).prefix(paging.perPage)
            return try .json(APIPage(data: shown.map(Item.init), total: entries.count, paging: paging))
        }
    }

    static var detail: APIRoute {
        APIRoute(.get, "/api/mobile/events/:id", summary: "One entry of the caller's calendar, with registration", response: .object(detailFields)) { request in
            try .json(Detail(try await request.run(ShowCalendarEntry.self, .init(id: try request.parameter("id")))))
        }
    }

    static let registered: APISchema = .object([("success", .boolean), ("status", .values(of: EventRegistration.self)), ("message", .text)])

    static var register: APIRoute {
        APIRoute(.post, "/api/mobile/events/:id/register", summary: "Registers the caller: a seat while there is one, else the waiting list",
                 response: registered) { request in
            let status = try await request.run(RegisterForEvent.self, .init(id: try request.parameter("id")))
            return try .json(["success": .bool(true), "status": .string(status.rawValue),
                              "message": .string(request.localizer(status == .registered ? "events.registered" : "events.waitlisted"))] as [String: APIValue])
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
                 status: 201, response: .object(detailFields)) { request in
            let body = try request.decode(NewEvent.self)
            let made = try await request.run(CreateEvent.self, .init(
                title: body.title, description: body.description ?? "", type: body.type ?? .other, startsOn: body.startDate, endsOn: body.endDate,
                startTime: body.startTime, endTime: body.endTime, location: body.location ?? "", classCode: body.classCode,
                registrationRequired: body.registrationRequired ?? false, maxAttendees: body.maxAttendees))
            return try .json(Detail(made), status: 201)
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
                 response: .object([("path", .text)])) { request in
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
