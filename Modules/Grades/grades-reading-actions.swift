import Core
import Foundation
import Students

/// The student a read names: by id (or GR number), within the running action's scope, so a
/// foreign student is refused by name and another school's is unknown. A guardian's child route
/// (`childOnly`) is for guardians alone, as the contract's "Not a guardian".
enum GradesStudents {
    static func named(_ reference: String, childOnly: Bool = false, _ context: ActionContext) throws -> Student {
        if childOnly && context.scope != .linkedChildren {
            throw KernelError.permissionDenied(permission: GradesPermissions.read.id, role: context.principal.role)
        }
        guard let gr = try grNumber(reference, context) else { throw StudentsError.unknownStudent(reference) }
        // Refused as named: a student out of reach must not answer with their GR number.
        do { return try Roster.visibleStudent(gr: gr, context) } catch StudentsError.unknownStudent { throw StudentsError.unknownStudent(reference) }
    }

    /// The GR number of the (not archived) student a reference names: their id, else their GR number.
    static func grNumber(_ reference: String, _ context: ActionContext) throws -> String? {
        try context.database.fetchValue("""
            SELECT gr_number FROM students_v1_students WHERE school_id = :school_id AND archived_at IS NULL AND (id = :reference OR gr_number = :reference)
            ORDER BY id = :reference DESC LIMIT 1
            """, ["reference": .text(reference)])
    }

    /// The names of a student's class and its year level this year, nil when not enrolled.
    static func placement(of studentID: String, _ context: ActionContext) throws -> (className: LocalizedText, yearLevel: LocalizedText)? {
        guard let row = try context.database.fetchOne("""
            SELECT c.name_ar, c.name_en, y.name_ar AS level_ar, y.name_en AS level_en FROM students_v1_enrolments e
            JOIN students_v1_classes c ON c.school_id = e.school_id AND c.id = e.class_id
            JOIN students_v1_year_levels y ON y.school_id = c.school_id AND y.id = c.year_level_id
            WHERE e.school_id = :school_id AND e.student_id = :student AND e.school_year_id = :year
            """, ["student": .text(studentID), "year": SQLValue(try Roster.currentSchoolYearID(context))]) else { return nil }
        return (LocalizedText(ar: row.string("name_ar"), en: row.string("name_en")), LocalizedText(ar: row.string("level_ar"), en: row.string("level_en")))
    }

    /// Rows to skip and to return, kept within one page of at most 100.
    static func window(_ offset: Int, _ limit: Int) -> SQLArguments {
        ["offset": SQLValue(max(0, offset)), "limit": SQLValue(min(max(1, limit), 100))]
    }
}

/// One page of a student's results, newest first, with each result's letter, pass or fail and
/// the teacher's note: what the mobile apps list.
public struct ResultsPage: Action {
    public struct Input: Codable, Sendable {
        /// The student's id or GR number.
        public var student: String
        /// Only a guardian may ask, for one of their children.
        public var childOnly: Bool?
        public var offset: Int
        public var limit: Int

        public init(student: String, childOnly: Bool? = nil, offset: Int = 0, limit: Int = 50) {
            self.student = student
            self.childOnly = childOnly
            self.offset = offset
            self.limit = limit
        }
    }

    public struct Row: Codable, Sendable, Equatable {
        public let assessmentID: String
        public let title: String
        public let kind: AssessmentKind
        public let subjectName: LocalizedText
        /// `YYYY-MM-DD`, the day it was sat.
        public let date: String
        public let state: ResultState
        public let score: Double?
        public let maxMarks: Double
        public let percentage: Double?
        public let letter: String?
        public let passed: Bool?
        public let feedback: String?
        public let enteredAt: Date?
    }

    public struct Output: Codable, Sendable {
        public let total: Int
        public let rows: [Row]
    }

    public static let id = "grades.results-page"
    public static let permission = GradesPermissions.read
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> Output {
        let student = try GradesStudents.named(input.student, childOnly: input.childOnly == true, context)
        let scale = try GradesData.scale(context)
        let total: Int = try context.database.fetchValue("SELECT COUNT(*) FROM grades_results WHERE school_id = :school_id AND student_id = :student",
                                                         ["student": .text(student.id)]) ?? 0
        let rows = try context.database.fetchAll("""
            SELECT a.id, a.title, a.kind, a.date, a.max_marks, a.passing_marks, sub.name_ar, sub.name_en, r.state, r.score, r.feedback, r.entered_at
            FROM grades_results r
            JOIN grades_assessments a ON a.school_id = r.school_id AND a.id = r.assessment_id
            JOIN students_v1_subjects sub ON sub.school_id = a.school_id AND sub.id = a.subject_id
            WHERE r.school_id = :school_id AND r.student_id = :student
            ORDER BY a.date DESC, a.code LIMIT :limit OFFSET :offset
            """, GradesStudents.window(input.offset, input.limit).merging(["student": .text(student.id)]) { $1 })
        return Output(total: total, rows: rows.map { row in
            let shown = GradesData.shown(row, scale)
            let feedback: String? = row["feedback"]
            return Row(assessmentID: row.string("id"), title: row.string("title"), kind: AssessmentKind(rawValue: row.string("kind")) ?? .test,
                       subjectName: LocalizedText(ar: row.string("name_ar"), en: row.string("name_en")), date: row.string("date"), state: shown.state,
                       score: shown.score, maxMarks: shown.maxMarks, percentage: shown.percentage, letter: shown.letter, passed: shown.passed,
                       feedback: feedback?.isEmpty == false ? feedback : nil, enteredAt: row["entered_at"])
        })
    }
}

/// A student's results at a glance (every term): how many, their mean, a GPA, and the same per
/// subject. The web app answered this for anyone who asked; here the student's scope applies.
public struct ResultsSummary: Action {
    public struct Input: Codable, Sendable {
        public var student: String
        public var childOnly: Bool?
        public init(student: String, childOnly: Bool? = nil) {
            self.student = student
            self.childOnly = childOnly
        }
    }

    public struct Subject: Codable, Sendable, Equatable {
        public let subjectCode: String
        public let subjectName: LocalizedText
        public let averagePercentage: Double
        public let totalResults: Int
    }

    public struct Output: Codable, Sendable {
        public let totalResults: Int
        public let averagePercentage: Double
        public let gpa: Double?
        public let overallGrade: String?
        public let subjects: [Subject]
    }

    public static let id = "grades.summary"
    public static let permission = GradesPermissions.read
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> Output {
        let student = try GradesStudents.named(input.student, childOnly: input.childOnly == true, context)
        let scale = try GradesData.scale(context)
        var names: [String: LocalizedText] = [:]
        var results: [ResultsAverage.Result] = []
        for row in try context.database.fetchAll("""
            SELECT r.state, r.score, a.max_marks, a.passing_marks, sub.code, sub.name_ar, sub.name_en, sub.credits FROM grades_results r
            JOIN grades_assessments a ON a.school_id = r.school_id AND a.id = r.assessment_id
            JOIN students_v1_subjects sub ON sub.school_id = a.school_id AND sub.id = a.subject_id
            WHERE r.school_id = :school_id AND r.student_id = :student
            """, ["student": .text(student.id)]) {
            guard let percentage = GradesData.shown(row, scale).percentage else { continue }
            names[row.string("code")] = LocalizedText(ar: row.string("name_ar"), en: row.string("name_en"))
            results.append(.init(subject: row.string("code"), percentage: percentage, credits: row["credits"] ?? 1))
        }
        let summary = ResultsAverage.summarize(results, scale: scale)
        return Output(totalResults: summary.count, averagePercentage: summary.average, gpa: summary.gpa, overallGrade: summary.letter,
                      subjects: summary.subjects.sorted { $0.key < $1.key }.map { code, subject in
                          Subject(subjectCode: code, subjectName: names[code] ?? LocalizedText(ar: code, en: code),
                                  averagePercentage: subject.average, totalResults: subject.count)
                      })
    }
}

/// A report card as a list shows it. Our report card is one student in one term, so its id is
/// `<studentId>_<termId>` (both ids are UUIDs, which hold no `_`): stable, and safe in a URL.
public struct ReportCardSummary: Codable, Sendable, Equatable {
    public let id: String
    public let termID: String
    public let termName: LocalizedText
    public let published: Bool
    public let publishedAt: Date?
    /// The letter of the credit-weighted mean of the subjects' marks.
    public let overallGrade: String?
    public let gpa: Double?
    public let rank: Int?
    public let classSize: Int
    public let attendance: ReportCard.AttendanceCounts?

    static func id(student: String, term: String) -> String { "\(student)_\(term)" }

    init(student: Student, term: TermInfo, publishedAt: Date?, card: GradesData.Card, scale: GradeScale) {
        id = Self.id(student: student.id, term: term.id)
        termID = term.id
        termName = term.name
        published = publishedAt != nil
        self.publishedAt = publishedAt
        let overall = TermMarks.overall(card.record.subjects.compactMap { line in line.percentage.map { ($0, line.credits) } })
        overallGrade = overall.map { scale.band(for: $0).letter }
        gpa = card.record.gpa
        rank = card.rank
        classSize = card.classSize
        attendance = card.attendance
    }
}

/// A student's published report cards, newest term first: the terms published so far in which
/// they have results. Nil student: the signed-in student, or a guardian's only child.
public struct ReportCardList: Action {
    public struct Input: Codable, Sendable {
        public var student: String?
        public var offset: Int
        public var limit: Int
        public init(student: String? = nil, offset: Int = 0, limit: Int = 20) {
            self.student = student
            self.offset = offset
            self.limit = limit
        }
    }

    public struct Output: Codable, Sendable {
        public let total: Int
        public let cards: [ReportCardSummary]
    }

    public static let id = "grades.report-cards"
    public static let permission = GradesPermissions.read
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> Output {
        let student = try input.student.map { try GradesStudents.named($0, context) } ?? Roster.studentOfRead(nil, context)
        let scale = try GradesData.scale(context)
        let published = """
            FROM grades_publications p JOIN students_v1_terms t ON t.school_id = p.school_id AND t.id = p.term_id
            WHERE p.school_id = :school_id AND EXISTS (
                SELECT 1 FROM grades_results r JOIN grades_assessments a ON a.school_id = r.school_id AND a.id = r.assessment_id
                WHERE r.school_id = p.school_id AND r.student_id = :student AND a.term_id = t.id)
            """
        let total: Int = try context.database.fetchValue("SELECT COUNT(*) \(published)", ["student": .text(student.id)]) ?? 0
        let rows = try context.database.fetchAll("""
            SELECT t.id, p.published_at \(published) ORDER BY t.starts_on DESC, t.id LIMIT :limit OFFSET :offset
            """, GradesStudents.window(input.offset, input.limit).merging(["student": .text(student.id)]) { $1 })
        return Output(total: total, cards: try rows.map { row in
            let term = try GradesData.term(row.string("id"), context)
            return ReportCardSummary(student: student, term: term, publishedAt: row["published_at"],
                                     card: try GradesData.card(of: student, term: term, context), scale: scale)
        })
    }
}

/// One report card by its id (`<studentId>_<termId>`): the list's figures, the student, and a
/// line per subject. Students and guardians read published cards only; staff see drafts too.
public struct ReportCardDetail: Action {
    public struct Input: Codable, Sendable {
        public var id: String
        public init(id: String) { self.id = id }
    }

    public struct Line: Codable, Sendable, Equatable {
        public let subjectID: String
        public let subjectName: LocalizedText
        public let letter: String?
        public let percentage: Double?
        public let credits: Double
        /// Why an admin replaced the computed letter, when one did.
        public let comment: String?
    }

    public struct Output: Codable, Sendable {
        public let card: ReportCardSummary
        public let student: Student
        /// The student's class and year level this year, nil when not enrolled.
        public let className: LocalizedText?
        public let yearLevelName: LocalizedText?
        public let lines: [Line]
    }

    public static let id = "grades.report-card-detail"
    public static let permission = GradesPermissions.read
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> Output {
        let parts = input.id.split(separator: "_", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2 else { throw GradesError.unknownReportCard(input.id) }
        // A student or term this school does not have: the card does not exist.
        let known: Int = try context.database.fetchValue(
            "SELECT COUNT(*) FROM students_v1_students WHERE school_id = :school_id AND id = :student AND archived_at IS NULL", ["student": .text(parts[0])]) ?? 0
        guard known == 1, let termRow = try context.database.fetchOne("SELECT id FROM students_v1_terms WHERE school_id = :school_id AND id = :term",
                                                                      ["term": .text(parts[1])])
        else { throw GradesError.unknownReportCard(input.id) }
        let term = try GradesData.term(termRow.string("id"), context)
        let student = try GradesStudents.named(parts[0], context)
        let publishedAt: Date? = try context.database.fetchValue(
            "SELECT published_at FROM grades_publications WHERE school_id = :school_id AND term_id = :term", ["term": .text(term.id)])
        if publishedAt == nil && [.ownRecord, .linkedChildren].contains(context.scope) {
            throw GradesError.notPublished(term.name.text(in: context.localizer.language))
        }
        let card = try GradesData.card(of: student, term: term, context)
        let placement = try GradesStudents.placement(of: student.id, context)
        var subjectIDs: [String: String] = [:]
        for row in try context.database.fetchAll("SELECT id, code FROM students_v1_subjects WHERE school_id = :school_id") {
            subjectIDs[row.string("code")] = row.string("id")
        }
        return Output(card: ReportCardSummary(student: student, term: term, publishedAt: publishedAt, card: card, scale: try GradesData.scale(context)),
                      student: student, className: placement?.className, yearLevelName: placement?.yearLevel,
                      lines: card.record.subjects.map { mark in
                          Line(subjectID: subjectIDs[mark.subjectCode] ?? mark.subjectCode, subjectName: mark.subjectName, letter: mark.letter,
                               percentage: mark.percentage, credits: mark.credits, comment: mark.overrideReason)
                      })
    }
}

/// How many assessments are still ahead (today included) for the caller: a student's class, a
/// guardian's children's classes, what a teacher may grade, the whole school for admins.
public struct UpcomingAssessments: Action {
    public struct Input: Codable, Sendable { public init() {} }

    public static let id = "grades.upcoming"
    public static let permission = GradesPermissions.read
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> Int {
        var arguments = GradesAccess.listArguments(context).merging(StudentVisibility.arguments(for: context)) { $1 }
        arguments["today"] = .text(context.today.description)
        arguments["year"] = SQLValue(try Roster.currentSchoolYearID(context))
        let whose = switch context.scope {
        case .school, .ownClasses: GradesAccess.listable
        case .ownRecord, .linkedChildren:
            """
            a.class_id IN (SELECT e.class_id FROM students_v1_enrolments e
                JOIN students_v1_students s ON s.school_id = e.school_id AND s.id = e.student_id AND s.archived_at IS NULL
                WHERE e.school_id = :school_id AND e.school_year_id = :year AND \(StudentVisibility.viewerCondition(for: context.scope)))
            """
        }
        return try context.database.fetchValue("""
            SELECT COUNT(*) FROM grades_assessments a WHERE a.school_id = :school_id AND a.date >= :today AND \(whose)
            """, arguments) ?? 0
    }
}
