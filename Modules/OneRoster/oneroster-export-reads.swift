import Core
import Foundation

/// What the export needs that Students' and Grades' Swift APIs do not offer yet: all teaching
/// assignments, the school years' dates, every guardian link at once, and (only where Grades is
/// on, as Attendance reads Timetable's periods) assessments and results. Read-only, in one place,
/// so the day those modules publish these reads this file is all that changes.
enum OneRosterExportReads {
    struct Teaching {
        let classID: String
        let subjectID: String
        let teacherID: String
    }

    static func teaching(_ context: ActionContext) throws -> [Teaching] {
        try context.database.fetchAll("""
            SELECT t.class_id, t.subject_id, t.teacher_user_id FROM students_teaching t
            WHERE t.school_id = :school_id ORDER BY t.class_id, t.subject_id
            """).map { Teaching(classID: $0.string("class_id"), subjectID: $0.string("subject_id"), teacherID: $0.string("teacher_user_id")) }
    }

    static func schoolYears(_ context: ActionContext) throws -> [(id: String, name: String, startsOn: String, endsOn: String)] {
        try context.database.fetchAll("SELECT id, name, starts_on, ends_on FROM students_school_years WHERE school_id = :school_id ORDER BY starts_on")
            .map { ($0.string("id"), $0.string("name"), $0.string("starts_on"), $0.string("ends_on")) }
    }

    struct GuardianLink {
        let guardianID: String
        let studentID: String
        let givenName: String
        let surname: String
        let email: String?
        let relation: String
    }

    static func guardianLinks(_ context: ActionContext) throws -> [GuardianLink] {
        try context.database.fetchAll("""
            SELECT sg.guardian_id, sg.student_id, sg.relation, g.given_name, g.surname, g.email FROM students_student_guardians sg
            JOIN students_guardians g ON g.school_id = sg.school_id AND g.id = sg.guardian_id
            WHERE sg.school_id = :school_id ORDER BY sg.guardian_id, sg.student_id
            """).map {
            GuardianLink(guardianID: $0.string("guardian_id"), studentID: $0.string("student_id"), givenName: $0.string("given_name"),
                         surname: $0.string("surname"), email: $0["email"], relation: $0.string("relation"))
        }
    }

    struct Assessment {
        let id: String
        let classID: String
        let subjectID: String
        let termID: String
        let title: String
        let date: String
        let maxMarks: Double
        let category: String
    }

    struct Result {
        let assessmentID: String
        let studentID: String
        let state: String
        let score: Double?
        let enteredAt: String
    }

    /// Nothing unless Grades is on for the school.
    static func grades(_ context: ActionContext) throws -> (assessments: [Assessment], results: [Result]) {
        guard context.enabledModules.contains("grades") else { return ([], []) }
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
        return (assessments, results)
    }
}
