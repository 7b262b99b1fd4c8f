import Core
import Foundation
import Students

/// Named queries Attendance answers for modules that do not depend on it (report cards show a
/// term's attendance only where Attendance is on). Their shapes are a contract: a field is never
/// renamed or removed under the same name; `AttendanceQueryTests` checks the shape.
enum AttendancePublishedQueries {
    static let all: [NamedQueryProvider] = [
        NamedQueryProvider(StudentAttendanceCounts.self, permission: AttendancePermissions.read) { request, context in
            try StudentAttendanceCounts.answer(request, context)
        },
    ]
}

/// How many of a student's records between two days (both included) have each status: what a
/// report card prints. A student the asker's attendance grant does not reach gets no counts.
public enum StudentAttendanceCounts: NamedQuery {
    public static let name = "attendance.student-counts"

    public struct Request: Codable, Sendable {
        public var studentID: String
        /// `YYYY-MM-DD`.
        public var from: String
        public var to: String

        public init(studentID: String, from: String, to: String) {
            self.studentID = studentID
            self.from = from
            self.to = to
        }
    }

    public struct Answer: Codable, Sendable, Equatable {
        /// Records by status (`PRESENT`, `LATE`, `ABSENT`, `EXCUSED`, `SICK`, `HOLIDAY`); a status with none is left out.
        public var counts: [String: Int]
    }

    static func answer(_ request: Request, _ context: ActionContext) throws -> Answer {
        let scope = context.scope(for: AttendancePermissions.read)
        guard try StudentVisibility.canSee(studentID: request.studentID, scope: scope, in: context) else { return Answer(counts: [:]) }
        var counts: [String: Int] = [:]
        for row in try context.database.fetchAll("""
            SELECT status, COUNT(*) AS n FROM attendance_records WHERE school_id = :school_id AND student_id = :student AND date >= :from AND date <= :to GROUP BY status
            """, ["student": .text(request.studentID), "from": .text(request.from), "to": .text(request.to)]) {
            counts[row.string("status")] = row.int("n")
        }
        return Answer(counts: counts)
    }
}
