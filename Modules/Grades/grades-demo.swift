import Core
import Foundation

/// Term 1 so far for every class and subject taught: a quiz, a test, an assignment and a
/// mid-term exam, with results drawn around each student's own level; exams weigh 60% and
/// coursework 40%. Term 1's report cards are published so students and parents can read them.
enum GradesDemo {
    static let plan: [(kind: AssessmentKind, code: String, title: String, date: String, max: Double, pass: Double, category: String)] = [
        (.quiz, "Q1", "Quiz 1", "2026-09-17", 20, 10, "coursework"),
        (.assignment, "H1", "Homework project", "2026-10-08", 10, 5, "coursework"),
        (.test, "T1", "Unit test", "2026-10-22", 50, 25, "coursework"),
        (.exam, "MID", "Mid-term exam", "2026-11-17", 100, 50, "exams"),
    ]

    static func seed(_ context: ActionContext, size: DemoSize) throws {
        var random = DemoRandom(seed: size == .full ? 31 : 37)
        guard let termID: String = try context.database.fetchValue(
            "SELECT id FROM students_v1_terms WHERE school_id = :school_id ORDER BY starts_on LIMIT 1") else { return }
        let teaching = try context.database.fetchAll("""
            SELECT t.class_id, t.subject_id, t.teacher_user_id, c.code AS class_code, s.code AS subject_code FROM students_v1_teaching t
            JOIN students_v1_classes c ON c.school_id = t.school_id AND c.id = t.class_id
            JOIN students_v1_subjects s ON s.school_id = t.school_id AND s.id = t.subject_id
            WHERE t.school_id = :school_id ORDER BY c.code, s.code
            """)
        var level: [String: Double] = [:]
        for row in try context.database.fetchAll("SELECT id FROM students_v1_students WHERE school_id = :school_id ORDER BY gr_number") {
            level[row.string("id")] = 58 + Double(random.next() % 38)
        }
        for lesson in teaching {
            let members = try context.database.fetchAll("SELECT student_id FROM students_v1_enrolments WHERE school_id = :school_id AND class_id = :class ORDER BY student_id",
                                                        ["class": .text(lesson.string("class_id"))])
            let subjectShift = Double(random.next() % 11) - 5
            for item in plan {
                let assessmentID = context.newID()
                try context.database.insert(into: "grades_assessments", [
                    "id": .text(assessmentID), "code": .text("\(lesson.string("class_code"))-\(lesson.string("subject_code"))-\(item.code)"),
                    "class_id": .text(lesson.string("class_id")), "subject_id": .text(lesson.string("subject_id")), "term_id": .text(termID),
                    "kind": .text(item.kind.rawValue), "title": .text(item.title), "date": .text(item.date), "max_marks": .real(item.max),
                    "passing_marks": .real(item.pass), "category": .text(item.category), "created_by": .text(lesson.string("teacher_user_id")),
                    "created_at": SQLValue(context.now),
                ])
                for member in members {
                    let studentID = member.string("student_id")
                    let roll = random.next() % 100
                    let percent = min(100, max(0, (level[studentID] ?? 75) + subjectShift + Double(Int(random.next() % 21) - 10)))
                    let score = (percent / 100 * item.max * 2).rounded() / 2
                    try context.database.insert(into: "grades_results", [
                        "assessment_id": .text(assessmentID), "student_id": .text(studentID),
                        "state": .text(roll < 2 ? ResultState.absent.rawValue : ResultState.scored.rawValue),
                        "score": roll < 2 ? .null : .real(score), "entered_by": .text(lesson.string("teacher_user_id")), "entered_at": SQLValue(context.now),
                    ])
                }
            }
        }
        try context.database.insert(into: "grades_weights", ["category": "exams", "weight": .real(60)])
        try context.database.insert(into: "grades_weights", ["category": "coursework", "weight": .real(40)])
        try context.database.insert(into: "grades_publications", ["term_id": .text(termID), "published_by": "operator", "published_at": SQLValue(context.now)])
    }
}
