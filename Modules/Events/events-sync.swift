import Core
import Foundation

/// What the school's own events share with offline apps: each event, to everyone for a
/// school-wide one, to a class's members and teachers for a class's. A cancelled event is sent
/// with its `cancelledAt`, as the calendar shows it; a registration re-sends its event's count.
/// Holidays and exam dates belong to the timetable and grades, and are not sent here.
enum EventsSync {
    /// Held by school-wide readers (administrators), who read every event.
    static let everything = SyncScopeKey.other("events", "all")

    static var entities: [SyncEntityType] { [item] }

    static let item = SyncEntityType(
        "events.item",
        sources: [SyncSource(table: "events_items"), SyncSource(table: "events_registrations", idColumn: "event_id")],
        load: { ids, context in
            var result: [String: SyncEntity] = [:]
            try context.database.forEachRow("""
                SELECT e.id, e.title, e.description, e.type, e.starts_on, e.ends_on, e.start_time, e.end_time, e.location, e.class_id,
                       e.registration_required, e.max_attendees, e.organizer_name, e.cancelled_at,
                       (SELECT COUNT(*) FROM events_registrations r WHERE r.school_id = e.school_id AND r.event_id = e.id) AS registrations
                FROM events_items e WHERE e.school_id = :school_id AND e.id IN (SELECT value FROM json_each(:ids))
                """, ["ids": .text(SyncScope.json(ids))]) { row in
                let id = row.string("id")
                let classID = row.string("class_id")
                let maxAttendees: Int? = row["max_attendees"]
                result[id] = SyncEntity(
                    data: ["id": .string(id), "title": .string(row.string("title")), "description": .string(row.string("description")),
                           "type": .string(row.string("type")), "startsOn": .string(row.string("starts_on")), "endsOn": .string(row.string("ends_on")),
                           "startTime": .optional(row["start_time"]), "endTime": .optional(row["end_time"]), "location": .string(row.string("location")),
                           "classId": classID.isEmpty ? .null : .string(classID), "registrationRequired": .bool(row.int("registration_required") != 0),
                           "maxAttendees": maxAttendees.map(APIValue.int) ?? .null, "registrations": .int(row.int("registrations")),
                           "organizerName": .string(row.string("organizer_name")), "cancelledAt": .optional(row["cancelled_at"])],
                    scopes: (classID.isEmpty ? [.school] : [.classMembers(classID), .class(classID)]) + [everything])
            }
            return result
        },
        snapshot: { scope, after, limit, context in
            let filter = scope.contains(everything) ? "" : """
                AND (class_id = '' OR class_id IN (SELECT value FROM json_each(:classes)) OR class_id IN (SELECT value FROM json_each(:members)))
                """
            return try context.database.fetchAll("""
                SELECT id FROM events_items WHERE school_id = :school_id AND id > :after \(filter) ORDER BY id LIMIT :limit
                """, ["after": .text(after), "limit": .integer(Int64(limit)), "classes": .text(scope.jsonIDs(of: "class")),
                      "members": .text(scope.jsonIDs(of: "class-members"))]).map { $0.string("id") }
        })

    /// A school-wide reader gets everything; the class keys of everyone else come from Students.
    static let scopes: SyncScopeRule = { _, context in
        context.scope(for: EventsPermissions.read) == .school ? [everything] : []
    }
}
