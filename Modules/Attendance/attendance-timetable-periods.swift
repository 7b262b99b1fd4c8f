import Core
import Foundation

/// The timetable's periods as Attendance asks for them (`timetable.periods`, answered by Timetable
/// where it is on): Attendance does not depend on Timetable, so it declares the shape it relies
/// on and gets nil where the timetable is off. `AttendanceQueryTests` checks the shape.
enum TimetablePeriods: NamedQuery {
    static let name = "timetable.periods"

    struct Request: Codable, Sendable {}

    struct Answer: Codable, Sendable, Equatable {
        var periods: [Period]
    }

    struct Period: Codable, Sendable, Equatable {
        var code: String
        var nameAr: String
        var nameEn: String
        var startsAt: String
        var isBreak: Bool
    }

    /// The school's periods by code, asked once per run; nil where the timetable is off.
    static func byCode(_ context: ActionContext) throws -> [String: Period]? {
        try context.remember("attendance.timetable-periods") { () -> [String: Period]? in
            guard let answer = try context.ask(TimetablePeriods.self, Request()) else { return nil }
            return Dictionary(answer.periods.map { ($0.code, $0) }, uniquingKeysWith: { first, _ in first })
        }
    }
}
