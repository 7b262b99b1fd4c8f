import Core
import Foundation

/// What a teacher is told before taking a register: who took it before and when, and whether
/// the school's calendar calls the day a day off. Attendance depends on neither Timetable nor
/// Auth, so it asks them by name (`timetable.school-day`, `auth.staff-names`) and goes on
/// without the answer where they are off or the person may not ask.
enum RegisterFacts {
    /// The latest save of the class's register for the date and period, nil when never taken.
    static func taken(classID: String, date: CivilDate, period: String, _ context: ActionContext) throws -> RegisterTaken? {
        guard let row = try context.database.fetchOne("""
            SELECT marked_by, marked_at FROM attendance_records
            WHERE school_id = :school_id AND class_id = :class AND date = :date AND period = :period ORDER BY marked_at DESC LIMIT 1
            """, ["class": .text(classID), "date": .text(date.description), "period": .text(period)]),
              let at: Date = row["marked_at"] else { return nil }
        let by = row.string("marked_by")
        let name = by == context.principal.userID ? context.principal.displayName : (try? ask(AuthStaffNames.self, .init(userIDs: [by]), context))??.names[by]
        return RegisterTaken(at: at, byUserID: by, byName: name)
    }

    /// Why the date is not a school day, nil on a school day or where the timetable is off.
    static func dayOff(_ date: CivilDate, _ context: ActionContext) -> RegisterDayOff? {
        guard let answer = (try? ask(TimetableSchoolDay.self, .init(date: date.description), context)) ?? nil, !answer.isSchoolDay else { return nil }
        return RegisterDayOff(reason: answer.reason ?? "closure", closure: answer.closure)
    }

    /// A named query, nil (not a refusal) when the person's role may not ask it.
    private static func ask<Q: NamedQuery>(_ query: Q.Type, _ request: Q.Request, _ context: ActionContext) throws -> Q.Answer? {
        do { return try context.ask(query, request) } catch KernelError.permissionDenied { return nil }
    }
}

/// Who saved a register last, and when.
public struct RegisterTaken: Codable, Sendable, Equatable {
    public let at: Date
    public let byUserID: String
    /// Their name where Auth gives it (staff accounts only); nil otherwise.
    public let byName: String?
}

/// A date the school's calendar calls a day off.
public struct RegisterDayOff: Codable, Sendable, Equatable {
    /// `weekend`, `closure` or `outside-term`.
    public let reason: String
    /// The holiday's or closure's name.
    public let closure: String?
}

/// Timetable's answer to "is this a school day?", as Attendance relies on it.
enum TimetableSchoolDay: NamedQuery {
    static let name = "timetable.school-day"

    struct Request: Codable, Sendable {
        var date: String
    }

    struct Answer: Codable, Sendable, Equatable {
        var isSchoolDay: Bool
        var reason: String?
        var closure: String?
    }
}

/// Auth's names of staff accounts, as Attendance relies on them.
enum AuthStaffNames: NamedQuery {
    static let name = "auth.staff-names"

    struct Request: Codable, Sendable {
        var userIDs: [String]
    }

    struct Answer: Codable, Sendable, Equatable {
        var names: [String: String]
    }
}
