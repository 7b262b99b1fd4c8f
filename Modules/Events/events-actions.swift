import Core
import Foundation
import Students

/// Puts an event on the school's calendar: for the whole school, or for one class (a teacher's
/// own). Days are the school's; times are `HH:MM`, or none for an all-day event.
public struct CreateEvent: Action {
    public struct Input: Codable, Sendable {
        public var title: String
        public var description: String
        public var type: EventType
        /// `YYYY-MM-DD`.
        public var startsOn: String
        /// The last day; nil for a one-day event.
        public var endsOn: String?
        public var startTime: String?
        public var endTime: String?
        public var location: String
        /// A class code (`7A`); nil for the whole school.
        public var classCode: String?
        public var registrationRequired: Bool
        public var maxAttendees: Int?

        public init(title: String, description: String = "", type: EventType = .other, startsOn: String, endsOn: String? = nil,
                    startTime: String? = nil, endTime: String? = nil, location: String = "", classCode: String? = nil,
                    registrationRequired: Bool = false, maxAttendees: Int? = nil) {
            self.title = title
            self.description = description
            self.type = type
            self.startsOn = startsOn
            self.endsOn = endsOn
            self.startTime = startTime
            self.endTime = endTime
            self.location = location
            self.classCode = classCode
            self.registrationRequired = registrationRequired
            self.maxAttendees = maxAttendees
        }
    }

    public static let id = "events.create"
    public static let permission = EventsPermissions.manage

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        try TextInput.check(input.title, field: "title", maxLength: TextLimit.title)
        guard !input.title.trimmingCharacters(in: .whitespaces).isEmpty else { throw InputError("events.error.empty-title", [:]) }
        try TextInput.check(input.description, field: "description", maxLength: TextLimit.body, multiline: true)
        try TextInput.check(input.location, field: "location", maxLength: TextLimit.title)
        guard input.type != .holiday, input.type != .exam else { throw InputError("events.error.type", ["type": input.type.rawValue]) }
        let first = try EventsTime.day(input.startsOn, field: "starts_on")
        let last = try EventsTime.day(input.endsOn ?? input.startsOn, field: "ends_on")
        for (field, time) in [("start_time", input.startTime), ("end_time", input.endTime)] {
            if let time, !EventsTime.isClockTime(time) { throw InputError("events.error.time", ["field": field, "value": TextInput.printable(time)]) }
        }
        guard first <= last else { throw EventsError.endsBeforeStart }
        if first == last, let start = input.startTime, let end = input.endTime, end <= start { throw EventsError.endsBeforeStart }
        if let limit = input.maxAttendees, !(1...100_000).contains(limit) { throw InputError("events.error.max-attendees", ["max": "100000"]) }
        _ = try classID(input, context)
    }

    /// The class it is for, checked: one of the school's, and a teacher's own.
    func classID(_ input: Input, _ context: ActionContext) throws -> String {
        guard let code = input.classCode?.trimmingCharacters(in: .whitespaces), !code.isEmpty else {
            guard context.scope == .school else { throw EventsError.notYourClass("") }
            return ""
        }
        let id = try Roster.classID(code: code, context)
        if context.scope != .school, try !Roster.teaches(classID: id, context) { throw EventsError.notYourClass(code) }
        return id
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> CalendarEntry {
        let id = context.newOrderedID()
        try context.database.insert(into: "events_items", [
            "id": .text(id), "title": .text(input.title.trimmingCharacters(in: .whitespaces)),
            "description": .text(input.description.trimmingCharacters(in: .whitespacesAndNewlines)), "type": .text(input.type.rawValue),
            "starts_on": .text(input.startsOn), "ends_on": .text(input.endsOn ?? input.startsOn), "start_time": SQLValue(input.startTime),
            "end_time": SQLValue(input.endTime), "location": .text(input.location.trimmingCharacters(in: .whitespaces)),
            "class_id": .text(try classID(input, context)), "registration_required": .integer(input.registrationRequired ? 1 : 0),
            "max_attendees": SQLValue(input.maxAttendees.map { Int64($0) }), "organizer_id": .text(context.principal.userID),
            "organizer_name": .text(context.principal.displayName), "created_at": SQLValue(context.now),
        ])
        context.auditDetail = "\(input.startsOn) \(input.classCode ?? "school")"
        guard let made = try EventsCalendar.entry(id, context) else { throw EventsError.unknownEvent(id) }
        return made
    }
}

/// The caller's calendar over a span of days (both included): their events, holidays and exam dates.
public struct ListCalendar: Action {
    public struct Input: Codable, Sendable {
        public var from: String
        public var to: String
        public init(from: String, to: String) {
            self.from = from
            self.to = to
        }
    }

    public static let id = "events.calendar"
    public static let permission = EventsPermissions.read
    public static let isReadOnly = true

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        let first = try EventsTime.day(input.from, field: "from")
        let last = try EventsTime.day(input.to, field: "to")
        guard first <= last else { throw EventsError.endsBeforeStart }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> [CalendarEntry] {
        try EventsCalendar.entries(from: input.from, to: input.to, context)
    }
}

/// One entry of the caller's calendar; one that is not theirs answers as one that does not exist.
public struct ShowCalendarEntry: Action {
    public struct Input: Codable, Sendable {
        public var id: String
        public init(id: String) { self.id = id }
    }

    public static let id = "events.show"
    public static let permission = EventsPermissions.read
    public static let isReadOnly = true

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        try TextInput.check(input.id, field: "id", maxLength: TextLimit.code * 2)
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> CalendarEntry {
        guard let entry = try EventsCalendar.entry(input.id, context) else { throw EventsError.unknownEvent(input.id) }
        return entry
    }
}

/// Registers the caller for an event on their calendar: a seat while there is one, else the
/// waiting list (first come, first served). Registering twice changes nothing.
public struct RegisterForEvent: Action {
    public struct Input: Codable, Sendable {
        public var id: String
        public init(id: String) { self.id = id }
    }

    public static let id = "events.register"
    public static let permission = EventsPermissions.read

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        try TextInput.check(input.id, field: "id", maxLength: TextLimit.code * 2)
        guard let entry = try EventsCalendar.entry(input.id, context) else { throw EventsError.unknownEvent(input.id) }
        guard entry.isEvent, !entry.cancelled else { throw EventsError.notOpenForRegistration(input.id) }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> EventRegistration {
        try context.database.execute("""
            INSERT INTO events_registrations (school_id, event_id, user_id, registered_at, id) VALUES (:school_id, :id, :me, :now, :order)
            ON CONFLICT (school_id, event_id, user_id) DO NOTHING
            """, ["id": .text(input.id), "me": .text(context.principal.userID), "now": SQLValue(context.now), "order": .text(context.newOrderedID())])
        context.auditDetail = input.id
        return try EventsCalendar.entry(input.id, context)?.myRegistration ?? .registered
    }
}

/// Takes the caller off an event's list; the first on the waiting list moves up.
public struct LeaveEvent: Action {
    public struct Input: Codable, Sendable {
        public var id: String
        public init(id: String) { self.id = id }
    }

    public static let id = "events.leave"
    public static let permission = EventsPermissions.read

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        try TextInput.check(input.id, field: "id", maxLength: TextLimit.code * 2)
        guard try EventsCalendar.entry(input.id, context) != nil else { throw EventsError.unknownEvent(input.id) }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Bool {
        try context.database.execute("DELETE FROM events_registrations WHERE school_id = :school_id AND event_id = :id AND user_id = :me",
                                     ["id": .text(input.id), "me": .text(context.principal.userID)])
        context.auditDetail = input.id
        return true
    }
}

/// Cancels an event: it stays on the calendar, marked cancelled. Its organizer or an administrator may.
public struct CancelEvent: Action {
    public struct Input: Codable, Sendable {
        public var id: String
        public init(id: String) { self.id = id }
    }

    public static let id = "events.cancel"
    public static let permission = EventsPermissions.manage

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        try TextInput.check(input.id, field: "id", maxLength: TextLimit.code * 2)
        guard let entry = try EventsCalendar.entry(input.id, context), entry.isEvent else { throw EventsError.unknownEvent(input.id) }
        let organizer: String? = try context.database.fetchValue("SELECT organizer_id FROM events_items WHERE school_id = :school_id AND id = :id",
                                                                 ["id": .text(input.id)])
        guard context.scope == .school || organizer == context.principal.userID else { throw EventsError.notYours(input.id) }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Bool {
        try context.database.execute("UPDATE events_items SET cancelled_at = :now WHERE school_id = :school_id AND id = :id AND cancelled_at IS NULL",
                                     ["id": .text(input.id), "now": SQLValue(context.now)])
        context.auditDetail = input.id
        return true
    }
}

enum EventsTime {
    /// A day written `YYYY-MM-DD`, exactly.
    static func day(_ text: String, field: String) throws -> CivilDate {
        guard let day = CivilDate(text), day.description == text else {
            throw InputError("events.error.date", ["field": field, "value": TextInput.printable(text)])
        }
        return day
    }

    /// `HH:MM`, 00:00 to 23:59.
    static func isClockTime(_ text: String) -> Bool {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) }), let hour = Int(parts[0]), let minute = Int(parts[1]) else { return false }
        return (0...23).contains(hour) && (0...59).contains(minute)
    }
}

/// The caller's calendar as the apps list it: a year back and a year ahead, or from today on.
public struct UpcomingCalendar: Action {
    public struct Input: Codable, Sendable {
        public var upcomingOnly: Bool
        public init(upcomingOnly: Bool) { self.upcomingOnly = upcomingOnly }
    }

    public static let id = "events.upcoming"
    public static let permission = EventsPermissions.read
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> [CalendarEntry] {
        let today = context.today
        let entries = try EventsCalendar.entries(from: (input.upcomingOnly ? today : today.adding(days: -365)).description,
                                                 to: today.adding(days: 365).description, context)
        return input.upcomingOnly ? entries.filter { $0.endsOn >= today.description } : entries
    }
}
