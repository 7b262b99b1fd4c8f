import Core

public enum AssessmentKind: String, Codable, Sendable, CaseIterable {
    case exam = "EXAM"
    case quiz = "QUIZ"
    case test = "TEST"
    case practical = "PRACTICAL"
    case assignment = "ASSIGNMENT"
}

/// A result is a score, or a reason there is none: ABSENT counts as zero, EXEMPT is left out.
public enum ResultState: String, Codable, Sendable {
    case scored = "SCORED"
    case absent = "ABSENT"
    case exempt = "EXEMPT"
}

public struct Assessment: Codable, Sendable, Equatable {
    public let id: String
    public let code: String
    public let classCode: String
    public let subjectCode: String
    public let term: String
    public let kind: AssessmentKind
    public let title: String
    public let date: String
    public let maxMarks: Double
    public let passingMarks: Double
    public let category: String

    init(row: SQLRow) {
        id = row.string("id")
        code = row.string("code")
        classCode = row.string("class_code")
        subjectCode = row.string("subject_code")
        term = row.string("term_name")
        kind = AssessmentKind(rawValue: row.string("kind")) ?? .test
        title = row.string("title")
        date = row.string("date")
        maxMarks = row["max_marks"] ?? 0
        passingMarks = row["passing_marks"] ?? 0
        category = row.string("category")
    }

    static let select = """
        SELECT a.*, c.code AS class_code, sub.code AS subject_code, t.name_en AS term_name FROM grades_assessments a
        JOIN students_v1_classes c ON c.school_id = a.school_id AND c.id = a.class_id
        JOIN students_v1_subjects sub ON sub.school_id = a.school_id AND sub.id = a.subject_id
        JOIN students_v1_terms t ON t.school_id = a.school_id AND t.id = a.term_id
        """
}

/// One student's result on one assessment, with pass or fail against its passing marks.
public struct AssessmentResult: Codable, Sendable, Equatable {
    public let assessment: String
    public let title: String
    public let subjectCode: String
    public let date: String
    public let state: ResultState
    public let score: Double?
    public let maxMarks: Double
    public let percentage: Double?
    public let letter: String?
    public let passed: Bool?
}

/// One band of a grade scale: every percentage from `lowerBound` up to the next band's bound.
public struct GradeBand: Codable, Sendable, Equatable {
    public let letter: String
    public let lowerBound: Double
    public let points: Double
    public let passing: Bool

    public init(letter: String, lowerBound: Double, points: Double, passing: Bool) {
        self.letter = letter
        self.lowerBound = lowerBound
        self.points = points
        self.passing = passing
    }
}
