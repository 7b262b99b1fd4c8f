import Core
import Foundation
import Students

/// A person's calendar over a span of days: the school's events for them (the whole school's and
/// their classes'), the timetable's holidays and their classes' exam dates, where those modules
/// are on. Everything is read as the person, so nobody sees another class's events or exams.
enum EventsCalendar {
    /// Whether the caller reads every event (an administrator), not only those for them.
    static func seesAll(_ context: ActionContext) -> Bool {
        context.scope(for: EventsPermissions.read) == .school
    }

    static func entries(from: String, to: String, _ context: ActionContext) throws -> [CalendarEntry] {
        let all = seesAll(context)
        let mine = all ? [] : try Roster.memberClassIDs(context)
        let codes = try Roster.classCodes(context)
        var entries = try events(from: from, to: to, context).filter { all || $0.classID.isEmpty || mine.contains($0.classID) }
            .map { $0.entry(codes: codes, me: context.principal.userID) }
        if let holidays = try context.ask(ClosuresQuery.self, .init(from: from, to: to)) {
            entries += holidays.closures.map {
                CalendarEntry(id: CalendarEntry.holidayPrefix + $0.id, title: $0.name, description: "", type: .holiday, startsOn: $0.startsOn,
                              endsOn: $0.endsOn, startTime: nil, endTime: nil, location: "", classCode: nil, organizerName: context.school.name.text(in: context.localizer.language),
                              cancelled: false, registrationRequired: false, maxAttendees: nil, registrations: 0, myRegistration: nil, organizedByMe: false, createdAt: nil)
            }
        }
        entries += try exams(from: from, to: to, context).filter { all || mine.contains($0.classID) }.map {
            CalendarEntry(id: CalendarEntry.examPrefix + $0.id, title: $0.title, description: "", type: .exam, startsOn: $0.date, endsOn: $0.date,
                          startTime: nil, endTime: nil, location: "", classCode: codes[$0.classID], organizerName: "", cancelled: false,
                          registrationRequired: false, maxAttendees: nil, registrations: 0, myRegistration: nil, organizedByMe: false, createdAt: nil)
        }
        return entries.sorted { ($0.startsOn, $0.startTime ?? "", $0.title, $0.id) < ($1.startsOn, $1.startTime ?? "", $1.title, $1.id) }
    }

    /// One entry by id, if the caller's calendar has it; nil otherwise (unknown and not theirs alike).
    static func entry(_ id: String, _ context: ActionContext) throws -> CalendarEntry? {
        try entries(from: "0001-01-01", to: "9999-12-31", context).first { $0.id == id }
    }

    /// Exam and test dates where Grades is on and the caller may read grades; none otherwise.
    static func exams(from: String, to: String, _ context: ActionContext) throws -> [ExamDatesQuery.Exam] {
        do {
            return try context.ask(ExamDatesQuery.self, .init(from: from, to: to))?.exams ?? []
        } catch KernelError.permissionDenied {
            return []
        }
    }

    /// A stored event with its registrations, before it is filtered for the caller.
    struct Stored {
        let row: SQLRow
        let registrants: [String]

        var classID: String { row.string("class_id") }

        func entry(codes: [String: String], me: String) -> CalendarEntry {
            let limit: Int? = row["max_attendees"]
            let cancelledAt: String? = row["cancelled_at"]
            let mine = registrants.firstIndex(of: me).map { index in
                limit.map { index < $0 ? EventRegistration.registered : .waitlisted } ?? .registered
            }
            return CalendarEntry(
                id: row.string("id"), title: row.string("title"), description: row.string("description"),
                type: EventType(rawValue: row.string("type")) ?? .other, startsOn: row.string("starts_on"), endsOn: row.string("ends_on"),
                startTime: row["start_time"], endTime: row["end_time"], location: row.string("location"),
                classCode: classID.isEmpty ? nil : codes[classID], organizerName: row.string("organizer_name"),
                cancelled: cancelledAt != nil, registrationRequired: row.int("registration_required") == 1,
                maxAttendees: limit, registrations: registrants.count, myRegistration: mine, organizedByMe: row.string("organizer_id") == me,
                createdAt: row["created_at"])
        }
    }

    static func events(from: String, to: String, _ context: ActionContext) throws -> [Stored] {
        let range: SQLArguments = ["from": .text(from), "to": .text(to)]
        var registrants: [String: [String]] = [:]
        for row in try context.database.fetchAll("""
            SELECT r.event_id, r.user_id FROM events_registrations r JOIN events_items e ON e.school_id = r.school_id AND e.id = r.event_id
            WHERE r.school_id = :school_id AND e.starts_on <= :to AND e.ends_on >= :from ORDER BY r.registered_at, r.id
            """, range) {
            registrants[row.string("event_id"), default: []].append(row.string("user_id"))
        }
        return try context.database.fetchAll("""
            SELECT id, title, description, type, starts_on, ends_on, start_time, end_time, location, class_id, registration_required,
                   max_attendees, organizer_id, organizer_name, created_at, cancelled_at
            FROM events_items WHERE school_id = :school_id AND starts_on <= :to AND ends_on >= :from
            """, range).map { Stored(row: $0, registrants: registrants[$0.string("id")] ?? []) }
    }
}
