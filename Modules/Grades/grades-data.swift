import Core
import Foundation
import Students

/// A subject on a report card.
public struct SubjectMark: Codable, Sendable, Equatable {
    public let subjectCode: String
    public let subjectName: LocalizedText
    public let credits: Double
    public let percentage: Double?
    public let letter: String?
    public let points: Double?
    public let passed: Bool?
    /// Set when an admin replaced the computed letter: the reason shown beside it.
    public let overrideReason: String?
}

public struct TermRecord: Codable, Sendable, Equatable {
    public let subjects: [SubjectMark]
    public let gpa: Double?
}

public struct TermInfo: Codable, Sendable, Equatable {
    public let id: String
    public let name: LocalizedText
    public let startsOn: String
    public let endsOn: String
}

/// Reads shared by the grades actions: terms, scales, weights and term records.
enum GradesData {
    /// A term by its English or Arabic name, or its id.
    static func term(_ reference: String, _ context: ActionContext) throws -> TermInfo {
        guard let row = try context.database.fetchOne("""
            SELECT * FROM students_terms WHERE school_id = :school_id AND (id = :ref OR name_en = :ref OR name_ar = :ref) ORDER BY starts_on DESC LIMIT 1
            """, ["ref": .text(reference)]) else { throw GradesError.unknownTerm(reference) }
        return TermInfo(id: row.string("id"), name: LocalizedText(ar: row.string("name_ar"), en: row.string("name_en")),
                        startsOn: row.string("starts_on"), endsOn: row.string("ends_on"))
    }

    /// The school's active scale, or the standard one.
    static func scale(_ context: ActionContext) throws -> GradeScale {
        guard let row = try context.database.fetchOne("SELECT name, bands FROM grades_scales WHERE school_id = :school_id AND is_active = 1"),
              let scale = try? JSONDecoder().decode([GradeBand].self, from: Data(row.string("bands").utf8))
        else { return .standard }
        return GradeScale(name: row.string("name"), bands: scale)
    }

    static func weights(_ context: ActionContext) throws -> [String: Double] {
        var weights: [String: Double] = [:]
        for row in try context.database.fetchAll("SELECT category, weight FROM grades_weights WHERE school_id = :school_id") {
            weights[row.string("category")] = row["weight"] ?? 0
        }
        return weights
    }

    static func assessment(_ code: String, _ context: ActionContext) throws -> Assessment {
        guard let row = try context.database.fetchOne("\(Assessment.select) WHERE a.school_id = :school_id AND (a.code = :code OR a.id = :code)", ["code": .text(code)])
        else { throw GradesError.unknownAssessment(code) }
        return Assessment(row: row)
    }

    static func isPublished(termID: String, _ context: ActionContext) throws -> Bool {
        let count: Int = try context.database.fetchValue("SELECT COUNT(*) FROM grades_publications WHERE school_id = :school_id AND term_id = :term", ["term": .text(termID)]) ?? 0
        return count > 0
    }

    /// Term records for one student or one class, computed in one pass over their results.
    static func records(students: [String], term: TermInfo, _ context: ActionContext) throws -> [String: TermRecord] {
        guard let first = students.first else { return [:] }
        // The term's results of these students only: one student's, or one class's.
        let classID: String? = students.count == 1 ? nil : try context.database.fetchValue(
            "SELECT class_id FROM students_enrolments WHERE school_id = :school_id AND student_id = :student AND school_year_id = :year",
            ["student": .text(first), "year": SQLValue(try Roster.currentSchoolYearID(context))])
        return try build(students: students, term: term, context) { visit in
            try termResults(term, classID: classID, student: classID == nil ? first : nil, context, visit)
        }
    }

    /// Visits the results of a term with what computing marks needs, for a class, a student or
    /// (both nil) the whole school, one row at a time.
    static func termResults(_ term: TermInfo, classID: String?, student: String?, _ context: ActionContext, _ visit: (SQLRow) throws -> Void) throws {
        try context.database.forEachRow("""
            SELECT r.student_id, r.state, r.score, a.max_marks, a.category, sub.id AS subject_id, sub.code AS subject_code,
                   sub.name_ar, sub.name_en, sub.credits
            FROM grades_results r
            JOIN grades_assessments a ON a.school_id = r.school_id AND a.id = r.assessment_id
            JOIN students_subjects sub ON sub.school_id = a.school_id AND sub.id = a.subject_id
            WHERE r.school_id = :school_id AND a.term_id = :term AND (:class IS NULL OR a.class_id = :class) AND (:student IS NULL OR r.student_id = :student)
            """, ["term": .text(term.id), "class": SQLValue(classID), "student": SQLValue(student)], visit)
    }

    /// Marks, letters, overrides and GPA for each student from their result rows, which `results` visits.
    static func build(students: [String], term: TermInfo, _ context: ActionContext,
                      results: ((SQLRow) throws -> Void) throws -> Void) throws -> [String: TermRecord] {
        let scale = try scale(context)
        let weights = try weights(context)
        let wanted = Set(students)
        var marks: [String: [String: [TermMarks.Mark]]] = [:]
        var subjects: [String: (code: String, name: LocalizedText, credits: Double)] = [:]
        try results { row in
            guard wanted.contains(row.string("student_id")) else { return }
            let subjectID = row.string("subject_id")
            if subjects[subjectID] == nil {
                subjects[subjectID] = (row.string("subject_code"), LocalizedText(ar: row.string("name_ar"), en: row.string("name_en")), row["credits"] ?? 1)
            }
            marks[row.string("student_id"), default: [:]][subjectID, default: []].append(TermMarks.Mark(
                category: row.string("category"), score: row["score"], maxMarks: row["max_marks"] ?? 0,
                state: ResultState(rawValue: row.string("state")) ?? .scored))
        }
        var overrides: [String: (letter: String, reason: String)] = [:]
        for row in try context.database.fetchAll("SELECT student_id, subject_id, letter, reason FROM grades_overrides WHERE school_id = :school_id AND term_id = :term",
                                                 ["term": .text(term.id)]) {
            overrides["\(row.string("student_id"))|\(row.string("subject_id"))"] = (row.string("letter"), row.string("reason"))
        }
        var records: [String: TermRecord] = [:]
        for student in students {
            let lines = (marks[student] ?? [:]).map { subjectID, subjectMarks -> SubjectMark in
                let info = subjects[subjectID] ?? ("?", LocalizedText(ar: "?", en: "?"), 1)
                let percentage = TermMarks.percentage(subjectMarks, weights: weights)
                let override = overrides["\(student)|\(subjectID)"]
                let band = override.flatMap { o in scale.bands.first { $0.letter == o.letter } } ?? percentage.map(scale.band(for:))
                return SubjectMark(subjectCode: info.code, subjectName: info.name, credits: info.credits, percentage: percentage,
                                   letter: band?.letter, points: band?.points, passed: band?.passing, overrideReason: override?.reason)
            }.sorted { $0.subjectCode < $1.subjectCode }
            let gpa = TermMarks.gpa(lines.compactMap { line in line.points.map { ($0, line.credits) } })
            records[student] = TermRecord(subjects: lines, gpa: gpa)
        }
        return records
    }

    /// What a report card shows besides the student: their class, the term's record, the rank
    /// among classmates (competition ranking by GPA) and the term's attendance where Attendance is on.
    struct Card {
        let classCode: String
        let record: TermRecord
        let rank: Int?
        let classSize: Int
        let attendance: ReportCard.AttendanceCounts?
    }

    static func card(of student: Student, term: TermInfo, _ context: ActionContext) throws -> Card {
        let (classCode, classmates) = try classmates(of: student.id, context)
        let records = try records(students: classmates.isEmpty ? [student.id] : classmates, term: term, context)
        let ranks = TermMarks.ranks(records.compactMapValues(\.gpa))
        var attendance: ReportCard.AttendanceCounts?
        if context.enabledModules.contains("attendance") {
            var counts = ReportCard.AttendanceCounts()
            for row in try context.database.fetchAll("""
                SELECT status, COUNT(*) AS n FROM attendance_records WHERE school_id = :school_id AND student_id = :student AND date >= :from AND date <= :to GROUP BY status
                """, ["student": .text(student.id), "from": .text(term.startsOn), "to": .text(term.endsOn)]) {
                counts.add(row.string("status"), row.int("n"))
            }
            attendance = counts
        }
        return Card(classCode: classCode, record: records[student.id] ?? TermRecord(subjects: [], gpa: nil), rank: ranks[student.id],
                    classSize: ranks.count, attendance: attendance)
    }

    /// One result as students see it, from a row with `state`, `score`, `max_marks` and
    /// `passing_marks`: ABSENT counts as 0, EXEMPT has no score, letter or pass.
    static func shown(_ row: SQLRow, _ scale: GradeScale) -> (state: ResultState, score: Double?, maxMarks: Double, percentage: Double?, letter: String?, passed: Bool?) {
        let state = ResultState(rawValue: row.string("state")) ?? .scored
        let max: Double = row["max_marks"] ?? 1
        let score: Double? = state == .scored ? row["score"] : (state == .absent ? 0 : nil)
        let percentage = score.map { $0 / max * 100 }
        return (state, score, max, percentage, percentage.map { scale.band(for: $0).letter }, score.map { $0 >= (row["passing_marks"] ?? 0) })
    }

    /// The students enrolled this year in the same class as `studentID` (itself included).
    static func classmates(of studentID: String, _ context: ActionContext) throws -> (classCode: String, ids: [String]) {
        let year = try Roster.currentSchoolYearID(context)
        let rows = try context.database.fetchAll("""
            SELECT e2.student_id, c.code FROM students_enrolments e
            JOIN students_enrolments e2 ON e2.school_id = e.school_id AND e2.class_id = e.class_id AND e2.school_year_id = e.school_year_id
            JOIN students_classes c ON c.school_id = e.school_id AND c.id = e.class_id
            WHERE e.school_id = :school_id AND e.student_id = :student AND e.school_year_id = :year
            """, ["student": .text(studentID), "year": SQLValue(year)])
        return (rows.first?.string("code") ?? "", rows.map { $0.string("student_id") })
    }
}
