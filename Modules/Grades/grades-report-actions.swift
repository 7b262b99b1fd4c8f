import Core
import Foundation
import Students

/// A student's results, each with its letter and pass or fail (green and red in the PRD).
public struct StudentResults: Action {
    public struct Input: Codable, Sendable {
        /// Nil: the signed-in student, or a guardian's only child.
        public var grNumber: String?
        public var term: String?
        public var subjectCode: String?
        public init(grNumber: String? = nil, term: String? = nil, subjectCode: String? = nil) {
            self.grNumber = grNumber
            self.term = term
            self.subjectCode = subjectCode
        }
    }

    public static let id = "grades.results"
    public static let permission = GradesPermissions.read
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> [AssessmentResult] {
        let student = try Roster.studentOfRead(input.grNumber, context)
        let scale = try GradesData.scale(context)
        let termID = try input.term.map { try GradesData.term($0, context).id }
        return try context.database.fetchAll("""
            SELECT a.code, a.title, a.date, a.max_marks, a.passing_marks, sub.code AS subject_code, r.state, r.score FROM grades_results r
            JOIN grades_assessments a ON a.school_id = r.school_id AND a.id = r.assessment_id
            JOIN students_v1_subjects sub ON sub.school_id = a.school_id AND sub.id = a.subject_id
            WHERE r.school_id = :school_id AND r.student_id = :student AND (:term IS NULL OR a.term_id = :term) AND (:subject IS NULL OR sub.code = :subject)
            ORDER BY a.date, a.code
            """, ["student": .text(student.id), "term": SQLValue(termID), "subject": SQLValue(input.subjectCode)]).map { row in
            let shown = GradesData.shown(row, scale)
            return AssessmentResult(
                assessment: row.string("code"), title: row.string("title"), subjectCode: row.string("subject_code"), date: row.string("date"),
                state: shown.state, score: shown.score, maxMarks: shown.maxMarks, percentage: shown.percentage, letter: shown.letter, passed: shown.passed)
        }
    }
}

/// A term's report card: every subject with mark, letter and pass or fail, the GPA, the rank in
/// the class, and attendance totals where Attendance is on. Students and guardians see only
/// published report cards; staff see drafts, marked as such.
public struct ReportCard: Action {
    public struct Input: Codable, Sendable {
        /// Nil: the signed-in student, or a guardian's only child.
        public var grNumber: String?
        public var term: String
        public init(grNumber: String? = nil, term: String) {
            self.grNumber = grNumber
            self.term = term
        }
    }

    public struct Output: Codable, Sendable {
        public let grNumber: String
        public let studentName: String
        public let classCode: String
        public let term: LocalizedText
        public let published: Bool
        public let record: TermRecord
        public let rank: Int?
        public let classSize: Int
        /// The term's attendance, when Attendance is on.
        public let attendance: AttendanceCounts?
    }

    /// Records per status within the term, with the same keys as Attendance's own totals.
    public struct AttendanceCounts: Codable, Sendable, Equatable {
        public var present = 0
        public var late = 0
        public var absent = 0
        public var excused = 0
        public var sick = 0
        public var holiday = 0

        mutating func add(_ status: String, _ count: Int) {
            switch status {
            case "PRESENT": present += count
            case "LATE": late += count
            case "ABSENT": absent += count
            case "EXCUSED": excused += count
            case "SICK": sick += count
            case "HOLIDAY": holiday += count
            default: break
            }
        }
    }

    public static let id = "grades.report-card"
    public static let permission = GradesPermissions.read
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> Output {
        let student = try Roster.studentOfRead(input.grNumber, context)
        let term = try GradesData.term(input.term, context)
        let published = try GradesData.isPublished(termID: term.id, context)
        if !published && [.ownRecord, .linkedChildren].contains(context.scope) { throw GradesError.notPublished(term.name.text(in: context.localizer.language)) }
        let card = try GradesData.card(of: student, term: term, context)
        return Output(grNumber: student.grNumber, studentName: student.fullName, classCode: card.classCode, term: term.name, published: published,
                      record: card.record, rank: card.rank, classSize: card.classSize, attendance: card.attendance)
    }
}

/// A student's marks in one subject over time, for the small chart in `grades history`.
public struct GradeHistory: Action {
    public struct Input: Codable, Sendable {
        /// Nil: the signed-in student, or a guardian's only child.
        public var grNumber: String?
        public var subjectCode: String
        public init(grNumber: String? = nil, subjectCode: String) {
            self.grNumber = grNumber
            self.subjectCode = subjectCode
        }
    }

    public static let id = "grades.history"
    public static let permission = GradesPermissions.read
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> [AssessmentResult] {
        try StudentResults().perform(.init(grNumber: input.grNumber, subjectCode: input.subjectCode), in: context).filter { $0.percentage != nil }
    }
}

/// Publishes a term's report cards: students and guardians can read them from now on.
public struct PublishReportCards: Action {
    public struct Input: Codable, Sendable {
        public var term: String
        public init(term: String) { self.term = term }
    }

    public static let id = "grades.publish"
    public static let permission = GradesPermissions.manage

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        let term = try GradesData.term(input.term, context)
        if try GradesData.isPublished(termID: term.id, context) { throw InputError("grades.error.already-published", ["term": input.term]) }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Int {
        let term = try GradesData.term(input.term, context)
        try context.database.insert(into: "grades_publications", ["term_id": .text(term.id), "published_by": .text(context.principal.userID), "published_at": SQLValue(context.now)])
        let students = try context.database.fetchAll("""
            SELECT DISTINCT s.id, s.gr_number FROM grades_results r JOIN grades_assessments a ON a.school_id = r.school_id AND a.id = r.assessment_id
            JOIN students_v1_students s ON s.school_id = r.school_id AND s.id = r.student_id WHERE r.school_id = :school_id AND a.term_id = :term
            """, ["term": .text(term.id)])
        for student in students {
            try context.publish(ReportCardPublished(studentID: student.string("id"), grNumber: student.string("gr_number"), term: term.name.en))
        }
        context.auditDetail = "\(term.name.en): \(students.count) report cards"
        return students.count
    }
}

/// Replaces a computed subject grade on a report card, with a reason that the card shows.
public struct OverrideGrade: Action {
    public struct Input: Codable, Sendable {
        public var grNumber: String
        public var term: String
        public var subjectCode: String
        public var letter: String
        public var reason: String
        public init(grNumber: String, term: String, subjectCode: String, letter: String, reason: String) {
            self.grNumber = grNumber
            self.term = term
            self.subjectCode = subjectCode
            self.letter = letter
            self.reason = reason
        }
    }

    public static let id = "grades.override"
    public static let permission = GradesPermissions.manage

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        _ = try Roster.student(gr: input.grNumber, context)
        _ = try GradesData.term(input.term, context)
        guard try GradesData.scale(context).bands.contains(where: { $0.letter == input.letter }) else {
            throw InputError("grades.error.unknown-letter", ["letter": input.letter])
        }
        guard !input.reason.trimmingCharacters(in: .whitespaces).isEmpty else { throw InputError("grades.error.reason-required") }
        try TextInput.check(input.reason, field: "reason", maxLength: TextLimit.title)
        guard try Roster.subjectID(code: input.subjectCode, context) != nil else { throw GradesError.unknownSubject(input.subjectCode) }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> String {
        let student = try Roster.student(gr: input.grNumber, context)
        try context.database.execute("""
            INSERT INTO grades_overrides (school_id, student_id, term_id, subject_id, letter, reason, overridden_by, overridden_at)
            VALUES (:school_id, :student, :term, :subject, :letter, :reason, :me, :now)
            ON CONFLICT (school_id, student_id, term_id, subject_id) DO UPDATE SET
                letter = excluded.letter, reason = excluded.reason, overridden_by = excluded.overridden_by, overridden_at = excluded.overridden_at
            """, ["student": .text(student.id), "term": .text(try GradesData.term(input.term, context).id),
                  "subject": .text(try Roster.subjectID(code: input.subjectCode, context) ?? ""), "letter": .text(input.letter), "reason": .text(input.reason),
                  "me": .text(context.principal.userID), "now": SQLValue(context.now)])
        context.auditDetail = "\(input.grNumber) \(input.subjectCode) \(input.term) -> \(input.letter): \(input.reason)"
        return input.letter
    }
}

/// The active grade scale.
public struct ShowScale: Action {
    public struct Input: Codable, Sendable { public init() {} }
    public static let id = "grades.show-scale"
    public static let permission = GradesPermissions.read
    public static let isReadOnly = true
    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> GradeScale {
        try GradesData.scale(context)
    }
}

/// Saves a new active scale (the previous ones are kept) after checking it covers 0-100 once.
public struct SetScale: Action {
    public struct Input: Codable, Sendable {
        public var name: String
        public var bands: String
        public init(name: String, bands: String) {
            self.name = name
            self.bands = bands
        }
    }

    public static let id = "grades.set-scale"
    public static let permission = GradesPermissions.manage

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        guard !input.name.trimmingCharacters(in: .whitespaces).isEmpty else { throw InputError("grades.error.scale-name") }
        try TextInput.check(input.name, field: "name", maxLength: TextLimit.name)
        _ = try GradeScale.parse(name: input.name, input.bands)
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> GradeScale {
        let scale = try GradeScale.parse(name: input.name, input.bands)
        try context.database.execute("UPDATE grades_scales SET is_active = 0 WHERE school_id = :school_id")
        try context.database.insert(into: "grades_scales", [
            "id": .text(context.newID()), "name": .text(input.name), "bands": .text(String(decoding: try JSONEncoder().encode(scale.bands), as: UTF8.self)),
            "is_active": .integer(1), "created_at": SQLValue(context.now),
        ])
        context.auditDetail = scale.text
        return scale
    }
}

/// Category weights for term marks, e.g. `exams=60,coursework=40`; empty clears them.
public struct SetWeights: Action {
    public struct Input: Codable, Sendable {
        public var weights: [String: Double]
        public init(weights: [String: Double]) { self.weights = weights }
    }

    public static let id = "grades.set-weights"
    public static let permission = GradesPermissions.manage

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        for (category, weight) in input.weights {
            try TextInput.check(category, field: "<weights>", maxLength: TextLimit.code)
            // Written so that NaN fails too: every comparison with NaN is false.
            if category.isEmpty || !(weight > 0 && weight <= 100) { throw GradesError.invalidWeights("\(category)=\(GradeScale.number(weight))") }
        }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> [String: Double] {
        // Two admins saving at once take turns: on PostgreSQL both would delete nothing, then collide.
        try context.database.serializeWriters(on: "grades.weights")
        try context.database.execute("DELETE FROM grades_weights WHERE school_id = :school_id")
        for (category, weight) in input.weights {
            try context.database.insert(into: "grades_weights", ["category": .text(category), "weight": .real(weight)])
        }
        return input.weights
    }
}

/// Every student's GPA and rank in their class for a term, for the whole school at once: what a
/// school prints at the end of term. One pass over the term's results.
public struct SchoolReportCards: Action {
    public struct Input: Codable, Sendable {
        public var term: String
        public init(term: String) { self.term = term }
    }

    public struct Line: Codable, Sendable, Equatable {
        public let grNumber: String
        public let classCode: String
        public let gpa: Double?
        public let rank: Int?
        public let failedSubjects: Int
    }

    public static let id = "grades.school-report-cards"
    public static let permission = GradesPermissions.manage
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> [Line] {
        let term = try GradesData.term(input.term, context)
        let members = try context.database.fetchAll("""
            SELECT s.id, s.gr_number, c.code AS class_code FROM students_v1_enrolments e
            JOIN students_v1_students s ON s.school_id = e.school_id AND s.id = e.student_id AND s.archived_at IS NULL
            JOIN students_v1_classes c ON c.school_id = e.school_id AND c.id = e.class_id
            WHERE e.school_id = :school_id AND e.school_year_id = :year
            """, ["year": SQLValue(try Roster.currentSchoolYearID(context))]) { row in (id: row.string(0), grNumber: row.string(1), classCode: row.string(2)) }
        // Each record is reduced to its GPA and failed subjects as it is computed: a whole
        // school's report cards are never held at once.
        var summaries: [String: (gpa: Double?, failed: Int)] = [:]
        summaries.reserveCapacity(members.count)
        try GradesData.forEachRecord(students: members.map(\.id), term: term, context, results: { visit in
            try GradesData.termResults(term, classID: nil, student: nil, context, visit)
        }) { student, record in
            summaries[student] = (record.gpa, record.subjects.filter { $0.passed == false }.count)
        }
        var byClass: [String: [String: Double]] = [:]
        for member in members {
            if let gpa = summaries[member.id]?.gpa { byClass[member.classCode, default: [:]][member.id] = gpa }
        }
        let ranks = byClass.mapValues { TermMarks.ranks($0) }
        return members.map { member in
            let summary = summaries[member.id]
            return Line(grNumber: member.grNumber, classCode: member.classCode, gpa: summary?.gpa,
                        rank: ranks[member.classCode]?[member.id], failedSubjects: summary?.failed ?? 0)
        }.sorted { ($0.classCode, $0.rank ?? .max, $0.grNumber) < ($1.classCode, $1.rank ?? .max, $1.grNumber) }
    }
}
