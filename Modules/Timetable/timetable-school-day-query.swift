import Core
import Foundation

/// Whether a date is a school day by the school's calendar (working days, terms, holidays and
/// closures), and why not: what Attendance asks before a register is taken on a day off. The
/// shape is a contract (`timetable.school-day`); `AttendanceRegisterFactsTests` checks it against
/// Attendance's own copy.
public enum SchoolDayQuery: NamedQuery {
    public static let name = "timetable.school-day"

    public struct Request: Codable, Sendable {
        /// `YYYY-MM-DD`.
        public var date: String
        public init(date: String) { self.date = date }
    }

    public struct Answer: Codable, Sendable, Equatable {
        public var isSchoolDay: Bool
        /// Why it is not: `weekend` (not a working day), `closure` (a holiday or closure),
        /// `outside-term` (between terms); nil on a school day.
        public var reason: String?
        /// The holiday's or closure's name when `reason` is `closure`.
        public var closure: String?
    }

    static let provider = NamedQueryProvider(SchoolDayQuery.self, permission: TimetablePermissions.read) { request, context in
        try answer(request, context)
    }

    static func answer(_ request: Request, _ context: ActionContext) throws -> Answer {
        guard let date = CivilDate(request.date) else { return Answer(isSchoolDay: true, reason: nil, closure: nil) }
        let calendar = try SchoolCalendar.load(context)
        if calendar.isSchoolDay(date) { return Answer(isSchoolDay: true, reason: nil, closure: nil) }
        if !calendar.workingDays.contains(date.weekday) { return Answer(isSchoolDay: false, reason: "weekend", closure: nil) }
        let closure = try context.database.fetchAll("""
            SELECT name FROM timetable_closures WHERE school_id = :school_id AND starts_on <= :date AND ends_on >= :date ORDER BY starts_on, id
            """, ["date": .text(date.description)]).first
        if let closure { return Answer(isSchoolDay: false, reason: "closure", closure: closure.string("name")) }
        return Answer(isSchoolDay: false, reason: "outside-term", closure: nil)
    }
}
