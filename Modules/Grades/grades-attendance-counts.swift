import Core
import Foundation

/// A term's attendance as report cards ask for it (`attendance.student-counts`, answered by
/// Attendance where it is on): Grades does not depend on Attendance, so it declares the shape it
/// relies on and prints no attendance where Attendance is off. `GradesQueryTests` checks the shape.
enum AttendanceCountsQuery: NamedQuery {
    static let name = "attendance.student-counts"

    struct Request: Codable, Sendable {
        var studentID: String
        var from: String
        var to: String
    }

    struct Answer: Codable, Sendable, Equatable {
        var counts: [String: Int]
    }

    /// The student's counts between the term's first and last day; nil where Attendance is off.
    static func counts(student: String, from: String, to: String, _ context: ActionContext) throws -> ReportCard.AttendanceCounts? {
        guard let answer = try context.ask(AttendanceCountsQuery.self, Request(studentID: student, from: from, to: to)) else { return nil }
        var counts = ReportCard.AttendanceCounts()
        for (status, count) in answer.counts.sorted(by: { $0.key < $1.key }) { counts.add(status, count) }
        return counts
    }
}
