import Core
import Foundation
import Students

/// A teacher (of that class and subject) or an admin adds an assessment to a term.
public struct CreateAssessment: Action {
    public struct Input: Codable, Sendable {
        public var code: String
        public var classCode: String
        public var subjectCode: String
        public var term: String
        public var kind: AssessmentKind
        public var title: String
        public var date: String
        public var maxMarks: Double
        public var passingMarks: Double
        /// Groups assessments for category weights: `exams`, `coursework`, ...
        public var category: String

        public init(code: String, classCode: String, subjectCode: String, term: String, kind: AssessmentKind, title: String, date: String,
                    maxMarks: Double, passingMarks: Double, category: String) {
            self.code = code
            self.classCode = classCode
            self.subjectCode = subjectCode
            self.term = term
            self.kind = kind
            self.title = title
            self.date = date
            self.maxMarks = maxMarks
            self.passingMarks = passingMarks
            self.category = category
        }
    }

    public static let id = "grades.create-assessment"
    public static let permission = GradesPermissions.enter

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        guard !input.code.isEmpty, !input.title.trimmingCharacters(in: .whitespaces).isEmpty, !input.category.isEmpty else {
            throw InputError("grades.error.assessment-fields")
        }
        try TextInput.check(input.code, field: "<code>", maxLength: TextLimit.code)
        try TextInput.check(input.title, field: "title", maxLength: TextLimit.title)
        try TextInput.check(input.category, field: "category", maxLength: TextLimit.code)
        // `>` and `<=` are false for NaN, so a NaN from any transport is refused here too.
        guard input.maxMarks > 0, input.maxMarks <= 1000, input.passingMarks >= 0, input.passingMarks <= input.maxMarks else {
            throw GradesError.invalidMarks("\(GradeScale.number(input.passingMarks))/\(GradeScale.number(input.maxMarks))")
        }
        let term = try GradesData.term(input.term, context)
        guard CivilDate(input.date) != nil, input.date >= term.startsOn, input.date <= term.endsOn else { throw GradesError.invalidDate(input.date) }
        let (classID, subjectID) = try place(input, context)
        try GradesAccess.requireSubjectTeacher(classID: classID, subjectID: subjectID, classCode: input.classCode, subjectCode: input.subjectCode, context)
        if (try? GradesData.assessment(input.code, context)) != nil { throw InputError("grades.error.code-taken", ["code": input.code]) }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Assessment {
        let (classID, subjectID) = try place(input, context)
        try context.database.insert(into: "grades_assessments", [
            "id": .text(context.newID()), "code": .text(input.code), "class_id": .text(classID), "subject_id": .text(subjectID),
            "term_id": .text(try GradesData.term(input.term, context).id), "kind": .text(input.kind.rawValue), "title": .text(input.title),
            "date": .text(input.date), "max_marks": .real(input.maxMarks), "passing_marks": .real(input.passingMarks),
            "category": .text(input.category), "created_by": .text(context.principal.userID), "created_at": SQLValue(context.now),
        ])
        return try GradesData.assessment(input.code, context)
    }

    private func place(_ input: Input, _ context: ActionContext) throws -> (String, String) {
        let classID = try Roster.classID(code: input.classCode, context)
        guard let subjectID = try Roster.subjectID(code: input.subjectCode, context) else { throw GradesError.unknownSubject(input.subjectCode) }
        return (classID, subjectID)
    }
}

public struct ListAssessments: Action {
    public struct Input: Codable, Sendable {
        public var classCode: String?
        public var subjectCode: String?
        public init(classCode: String? = nil, subjectCode: String? = nil) {
            self.classCode = classCode
            self.subjectCode = subjectCode
        }
    }

    public static let id = "grades.list-assessments"
    public static let permission = GradesPermissions.enter
    public static let isReadOnly = true

    public init() {}

    /// Teachers list the assessments of the subjects they teach and of their homeroom classes.
    public func perform(_ input: Input, in context: ActionContext) throws -> [Assessment] {
        var arguments = GradesAccess.listArguments(context)
        arguments["class"] = SQLValue(input.classCode)
        arguments["subject"] = SQLValue(input.subjectCode)
        return try context.database.fetchAll("""
            \(Assessment.select) WHERE a.school_id = :school_id AND (:class IS NULL OR c.code = :class) AND (:subject IS NULL OR sub.code = :subject)
              AND \(GradesAccess.listable)
            ORDER BY a.date, a.code
            """, arguments).map(Assessment.init(row:))
    }
}

/// One line of a results batch: a GR number (or a number in the class list) and a score,
/// `absent` or `exempt`, with an optional note for the student.
public struct ResultLine: Codable, Sendable, Equatable {
    public var student: String
    public var result: String
    public var feedback: String?
    public init(student: String, result: String, feedback: String? = nil) {
        self.student = student
        self.result = result
        self.feedback = feedback
    }
}

/// Enters a batch of results for one assessment in one transaction. Every bad row is reported
/// (row, student, reason) and nothing is written unless all rows are good. Entering again
/// updates the result and keeps the previous one in the history.
public struct EnterResults: Action {
    public struct Input: Codable, Sendable {
        public var assessment: String
        public var lines: [ResultLine]
        /// The class the caller reached the assessment through (the API's `:classId`): an
        /// assessment of another class is unknown there.
        public var classID: String?
        /// Students are named by their id only (the API), never by GR number or list position.
        public var byStudentID: Bool?
        public init(assessment: String, lines: [ResultLine], classID: String? = nil, byStudentID: Bool? = nil) {
            self.assessment = assessment
            self.lines = lines
            self.classID = classID
            self.byStudentID = byStudentID
        }
    }

    public struct Output: Codable, Sendable, Equatable {
        public let assessment: String
        public let entered: Int
        public let changed: Int
    }

    public static let id = "grades.enter-results"
    public static let permission = GradesPermissions.enter

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        _ = try checked(input, context)
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Output {
        let (assessment, lines) = try checked(input, context)
        var changed = 0
        for line in lines {
            if let previous = try context.database.fetchOne(
                "SELECT state, score FROM grades_results WHERE school_id = :school_id AND assessment_id = :a AND student_id = :s",
                ["a": .text(assessment.id), "s": .text(line.studentID)]) {
                if previous.string("state") == line.state.rawValue && (previous["score"] as Double?) == line.score {
                    // The same result: only a new note is written, and it is no change of result.
                    if let feedback = line.feedback {
                        try context.database.execute(
                            "UPDATE grades_results SET feedback = :feedback WHERE school_id = :school_id AND assessment_id = :a AND student_id = :s",
                            ["a": .text(assessment.id), "s": .text(line.studentID), "feedback": .text(feedback)])
                    }
                    continue
                }
                changed += 1
                try context.database.insert(into: "grades_result_changes", [
                    "assessment_id": .text(assessment.id), "student_id": .text(line.studentID), "previous_state": .text(previous.string("state")),
                    "previous_score": previous.columns["score"] ?? .null, "changed_by": .text(context.principal.userID), "changed_at": SQLValue(context.now),
                ])
            }
            try context.database.execute("""
                INSERT INTO grades_results (school_id, assessment_id, student_id, state, score, entered_by, entered_at, feedback)
                VALUES (:school_id, :a, :s, :state, :score, :me, :now, :feedback)
                ON CONFLICT (school_id, assessment_id, student_id) DO UPDATE SET
                    state = excluded.state, score = excluded.score, entered_by = excluded.entered_by, entered_at = excluded.entered_at,
                    feedback = COALESCE(excluded.feedback, grades_results.feedback)
                """, ["a": .text(assessment.id), "s": .text(line.studentID), "state": .text(line.state.rawValue),
                      "score": line.score.map { .real($0) } ?? .null, "me": .text(context.principal.userID), "now": SQLValue(context.now),
                      "feedback": SQLValue(line.feedback)])
        }
        try context.publish(ResultsPublished(assessmentCode: assessment.code, title: assessment.title, classCode: assessment.classCode,
                                             subjectCode: assessment.subjectCode, studentIDs: lines.map(\.studentID)))
        context.auditDetail = "\(assessment.code): \(lines.count) results, \(changed) changed"
        return Output(assessment: assessment.code, entered: lines.count, changed: changed)
    }

    struct Checked {
        let studentID: String
        let state: ResultState
        let score: Double?
        var feedback: String?
    }

    /// The longest note a result carries.
    static let feedbackLimit = 2000

    /// Every problem at once: unknown student, someone outside the class, a duplicate, a score
    /// that is not a number or not between 0 and the maximum.
    private func checked(_ input: Input, _ context: ActionContext) throws -> (Assessment, [Checked]) {
        guard !input.lines.isEmpty else { throw GradesError.noResults }
        let assessment = try GradesData.assessment(input.assessment, context)
        if let wanted = input.classID {
            let actual: String? = try context.database.fetchValue("SELECT class_id FROM grades_assessments WHERE school_id = :school_id AND id = :id",
                                                                  ["id": .text(assessment.id)])
            guard actual == wanted else { throw GradesError.unknownAssessment(input.assessment) }
        }
        let classID = try GradesAccess.requireAssessmentTeacher(assessment, named: input.assessment, context)
        let members = try context.database.fetchAll("""
            SELECT s.id, s.gr_number FROM students_v1_enrolments e JOIN students_v1_students s ON s.school_id = e.school_id AND s.id = e.student_id
            WHERE e.school_id = :school_id AND e.class_id = :class AND s.archived_at IS NULL ORDER BY s.surname, s.given_name, s.gr_number
            """, ["class": .text(classID)])
        var problems: [ResultProblem] = []
        var lines: [Checked] = []
        var seen: Set<String> = []
        for (index, line) in input.lines.enumerated() {
            let row = index + 1
            let member = input.byStudentID == true ? members.first { $0.string("id") == line.student }
                : line.student.allSatisfy(\.isNumber) && !line.student.isEmpty
                ? Int(line.student).flatMap { $0 >= 1 && $0 <= members.count ? members[$0 - 1] : nil }
                : members.first { $0.string("gr_number") == line.student }
            guard let member else {
                problems.append(ResultProblem(row: row, student: line.student, reason: context.localizer("grades.invalid.not-in-class", ["class": assessment.classCode])))
                continue
            }
            guard seen.insert(member.string("id")).inserted else {
                problems.append(ResultProblem(row: row, student: line.student, reason: context.localizer("grades.invalid.duplicate")))
                continue
            }
            if let feedback = line.feedback, TextInput.problem(in: feedback, maxLength: Self.feedbackLimit, multiline: true) != nil {
                problems.append(ResultProblem(row: row, student: line.student, reason: context.localizer("grades.invalid.feedback", ["max": String(Self.feedbackLimit)])))
                continue
            }
            let text = line.result.trimmingCharacters(in: .whitespaces).lowercased()
            switch text {
            case "absent", "a": lines.append(Checked(studentID: member.string("id"), state: .absent, score: nil, feedback: line.feedback))
            case "exempt", "x": lines.append(Checked(studentID: member.string("id"), state: .exempt, score: nil, feedback: line.feedback))
            default:
                // Plain digits only: Swift's Double("0x10") is 16 and Double("nan") is NaN.
                guard let score = StrictNumber.decimal(text) else {
                    problems.append(ResultProblem(row: row, student: line.student, reason: context.localizer("grades.invalid.not-a-score", ["value": line.result])))
                    continue
                }
                guard score >= 0, score <= assessment.maxMarks else {
                    problems.append(ResultProblem(row: row, student: line.student, reason: context.localizer("grades.invalid.out-of-range", ["max": GradeScale.number(assessment.maxMarks)])))
                    continue
                }
                lines.append(Checked(studentID: member.string("id"), state: .scored, score: score, feedback: line.feedback))
            }
        }
        if !problems.isEmpty { throw GradesError.invalidResults(problems) }
        return (assessment, lines)
    }
}

/// Where an assessment stands, as the mobile apps filter exams: ahead, today, or past. Nothing
/// is cancelled here (an assessment is deleted instead), so CANCELLED lists nothing.
public enum AssessmentStatus: String, Codable, Sendable, CaseIterable {
    case planned = "PLANNED"
    case inProgress = "IN_PROGRESS"
    case completed = "COMPLETED"
    case cancelled = "CANCELLED"

    /// The status of `a.date` against `:today`, as SQL.
    static let sql = "CASE WHEN a.date > :today THEN 'PLANNED' WHEN a.date = :today THEN 'IN_PROGRESS' ELSE 'COMPLETED' END"
}

/// One page of a class's assessments with how many results each has, newest first: a subject
/// teacher sees her subjects', the homeroom teacher all of them, admins all. A teacher who
/// neither teaches the class nor is its homeroom teacher is refused.
public struct ClassAssessments: Action {
    public struct Input: Codable, Sendable {
        /// The class's id.
        public var classID: String
        public var status: AssessmentStatus?
        public var offset: Int
        public var limit: Int

        public init(classID: String, status: AssessmentStatus? = nil, offset: Int = 0, limit: Int = 30) {
            self.classID = classID
            self.status = status
            self.offset = offset
            self.limit = limit
        }
    }

    public struct Item: Codable, Sendable, Equatable {
        public let assessment: Assessment
        public let subjectName: LocalizedText
        public let status: AssessmentStatus
        public let resultsCount: Int
    }

    public struct Output: Codable, Sendable {
        public let total: Int
        public let items: [Item]
    }

    public static let id = "grades.class-assessments"
    public static let permission = GradesPermissions.enter
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> Output {
        guard try context.database.fetchOne("SELECT id FROM students_v1_classes WHERE school_id = :school_id AND id = :class",
                                             ["class": .text(input.classID)]) != nil
        else { throw StudentsError.unknownClass(input.classID) }
        // Another teacher's class answers as a class that does not exist.
        if context.scope != .school, try !Roster.teaches(classID: input.classID, context) { throw StudentsError.unknownClass(input.classID) }
        var arguments = GradesAccess.listArguments(context).merging(GradesStudents.window(input.offset, input.limit)) { $1 }
        arguments["class"] = .text(input.classID)
        arguments["status"] = SQLValue(input.status?.rawValue)
        arguments["today"] = .text(context.today.description)
        let filter = "a.school_id = :school_id AND a.class_id = :class AND (:status IS NULL OR \(AssessmentStatus.sql) = :status) AND \(GradesAccess.listable)"
        let total: Int = try context.database.fetchValue("SELECT COUNT(*) FROM grades_assessments a WHERE \(filter)", arguments) ?? 0
        let rows = try context.database.fetchAll("""
            SELECT a.*, c.code AS class_code, sub.code AS subject_code, t.name_en AS term_name, sub.name_ar AS subject_ar, sub.name_en AS subject_en,
                   \(AssessmentStatus.sql) AS status,
                   (SELECT COUNT(*) FROM grades_results r WHERE r.school_id = a.school_id AND r.assessment_id = a.id) AS results_count
            FROM grades_assessments a
            JOIN students_v1_classes c ON c.school_id = a.school_id AND c.id = a.class_id
            JOIN students_v1_subjects sub ON sub.school_id = a.school_id AND sub.id = a.subject_id
            JOIN students_v1_terms t ON t.school_id = a.school_id AND t.id = a.term_id
            WHERE \(filter) ORDER BY a.date DESC, a.code LIMIT :limit OFFSET :offset
            """, arguments)
        return Output(total: total, items: rows.map { row in
            Item(assessment: Assessment(row: row), subjectName: LocalizedText(ar: row.string("subject_ar"), en: row.string("subject_en")),
                 status: AssessmentStatus(rawValue: row.string("status")) ?? .completed, resultsCount: row.int("results_count"))
        })
    }
}
