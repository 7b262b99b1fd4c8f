import Core
import Foundation

/// Named queries Grades answers for modules that do not depend on it (asked through the kernel,
/// so the asker gets nothing where Grades is off). Their shapes are a contract: a field is never
/// renamed or removed under the same name; `GradesQueryTests` checks the shape.
enum GradesPublishedQueries {
    static let all: [NamedQueryProvider] = [
        NamedQueryProvider(AssessmentsAndResults.self, permission: GradesPermissions.manage) { _, context in
            try AssessmentsAndResults.answer(context)
        },
        NamedQueryProvider(ExamDates.self, permission: GradesPermissions.read) { request, context in
            try ExamDates.answer(request, context)
        },
    ]
}

/// The dates of exams and tests in a span of days, by class, for a calendar. Asked with
/// `grades.read`; the asker shows each person only their own classes' dates.
public enum ExamDates: NamedQuery {
    public static let name = "grades.exam-dates"

    public struct Request: Codable, Sendable {
        /// `YYYY-MM-DD`, both days included.
        public var from: String
        public var to: String
        public init(from: String, to: String) {
            self.from = from
            self.to = to
        }
    }

    public struct Answer: Codable, Sendable, Equatable {
        public var exams: [Exam]
    }

    public struct Exam: Codable, Sendable, Equatable {
        public var id: String
        public var classID: String
        public var subjectID: String
        public var title: String
        /// `EXAM`, `TEST`, ...
        public var kind: String
        /// `YYYY-MM-DD`.
        public var date: String
    }

    static func answer(_ request: Request, _ context: ActionContext) throws -> Answer {
        let exams = try context.database.fetchAll("""
            SELECT id, class_id, subject_id, title, kind, date FROM grades_assessments
            WHERE school_id = :school_id AND kind IN ('EXAM', 'TEST') AND date >= :from AND date <= :to ORDER BY date, id
            """, ["from": .text(request.from), "to": .text(request.to)]).map {
            Exam(id: $0.string("id"), classID: $0.string("class_id"), subjectID: $0.string("subject_id"), title: $0.string("title"),
                 kind: $0.string("kind"), date: $0.string("date"))
        }
        return Answer(exams: exams)
    }
}

/// Every assessment of the school and every result entered for it, for a whole-school export (a
/// OneRoster gradebook). Asked with `grades.manage`, which only school-wide roles hold.
public enum AssessmentsAndResults: NamedQuery {
    public static let name = "grades.assessments-and-results"

    public struct Request: Codable, Sendable {
        public init() {}
    }

    public struct Answer: Codable, Sendable, Equatable {
        public var assessments: [Assessment]
        public var results: [Result]
    }

    public struct Assessment: Codable, Sendable, Equatable {
        public var id: String
        public var classID: String
        public var subjectID: String
        public var termID: String
        public var title: String
        /// `YYYY-MM-DD`.
        public var date: String
        public var maxMarks: Double
        public var category: String
    }

    public struct Result: Codable, Sendable, Equatable {
        public var assessmentID: String
        public var studentID: String
        /// `SCORED`, `ABSENT` or `EXEMPT`.
        public var state: String
        public var score: Double?
        /// When it was entered, as stored (ISO 8601).
        public var enteredAt: String
    }

    static func answer(_ context: ActionContext) throws -> Answer {
        let assessments = try context.database.fetchAll("""
            SELECT id, class_id, subject_id, term_id, title, date, max_marks, category FROM grades_assessments WHERE school_id = :school_id ORDER BY date, id
            """).map {
            Assessment(id: $0.string("id"), classID: $0.string("class_id"), subjectID: $0.string("subject_id"), termID: $0.string("term_id"),
                       title: $0.string("title"), date: $0.string("date"), maxMarks: $0["max_marks"] ?? 0, category: $0.string("category"))
        }
        let results = try context.database.fetchAll("""
            SELECT assessment_id, student_id, state, score, entered_at FROM grades_results WHERE school_id = :school_id ORDER BY assessment_id, student_id
            """).map {
            Result(assessmentID: $0.string("assessment_id"), studentID: $0.string("student_id"), state: $0.string("state"),
                   score: $0["score"], enteredAt: $0.string("entered_at"))
        }
        return Answer(assessments: assessments, results: results)
    }
}
