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
            SELECT * FROM students_v1_terms WHERE school_id = :school_id AND (id = :ref OR name_en = :ref OR name_ar = :ref) ORDER BY starts_on DESC LIMIT 1
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
            "SELECT class_id FROM students_v1_enrolments WHERE school_id = :school_id AND student_id = :student AND school_year_id = :year",
            ["student": .text(first), "year": SQLValue(try Roster.currentSchoolYearID(context))])
        return try build(students: students, term: term, context) { visit in
            try termResults(term, classID: classID, student: classID == nil ? first : nil, context, visit)
        }
    }

    /// Visits the results of a term with what computing marks needs, for a class, a student or
    /// (both nil) the whole school, one row at a time, by column position: student, state,
    /// score, maximum, category, subject id, code, Arabic and English names, credits.
    static func termResults(_ term: TermInfo, classID: String?, student: String?, _ context: ActionContext, _ visit: (SQLColumns) throws -> Void) throws {
        try context.database.forEachRow("""
            SELECT r.student_id, r.state, r.score, a.max_marks, a.category, sub.id AS subject_id, sub.code AS subject_code,
                   sub.name_ar, sub.name_en, sub.credits
            FROM grades_results r
            JOIN grades_assessments a ON a.school_id = r.school_id AND a.id = r.assessment_id
            JOIN students_v1_subjects sub ON sub.school_id = a.school_id AND sub.id = a.subject_id
            WHERE r.school_id = :school_id AND a.term_id = :term AND (:class IS NULL OR a.class_id = :class) AND (:student IS NULL OR r.student_id = :student)
            """, ["term": .text(term.id), "class": SQLValue(classID), "student": SQLValue(student)], columns: visit)
    }

    /// Marks, letters, overrides and GPA for each student from their result rows, which `results` visits.
    static func build(students: [String], term: TermInfo, _ context: ActionContext,
                      results: ((SQLColumns) throws -> Void) throws -> Void) throws -> [String: TermRecord] {
        var records: [String: TermRecord] = [:]
        try forEachRecord(students: students, term: term, context, results: results) { student, record in records[student] = record }
        return records
    }

    /// Each student's term record, handed to `body` one at a time in the order given and not
    /// kept: a whole school's records never have to be held at once. The results are summed as
    /// they are read, per student, subject and category (what a subject's mark needs), so
    /// memory grows with students and subjects, not with results.
    static func forEachRecord(students: [String], term: TermInfo, _ context: ActionContext,
                              results: ((SQLColumns) throws -> Void) throws -> Void,
                              _ body: (String, TermRecord) throws -> Void) throws {
        let scale = try scale(context)
        let weights = try weights(context)
        var tally = TermTally(students: students)
        try results { row in tally.add(row) }
        var overrides: [String: (letter: String, reason: String)] = [:]
        for row in try context.database.fetchAll("SELECT student_id, subject_id, letter, reason FROM grades_overrides WHERE school_id = :school_id AND term_id = :term",
                                                 ["term": .text(term.id)]) {
            overrides["\(row.string("student_id"))|\(row.string("subject_id"))"] = (row.string("letter"), row.string("reason"))
        }
        for student in students {
            let lines = tally.subjectSums(of: student).map { subject, sums -> SubjectMark in
                let info = tally.subjects[subject]
                let percentage = TermMarks.percentage(sums, weights: weights)
                let override = overrides["\(student)|\(info.id)"]
                let band = override.flatMap { o in scale.bands.first { $0.letter == o.letter } } ?? percentage.map(scale.band(for:))
                return SubjectMark(subjectCode: info.code, subjectName: info.name, credits: info.credits, percentage: percentage,
                                   letter: band?.letter, points: band?.points, passed: band?.passing, overrideReason: override?.reason)
            }.sorted { $0.subjectCode < $1.subjectCode }
            let gpa = TermMarks.gpa(lines.compactMap { line in line.points.map { ($0, line.credits) } })
            try body(student, TermRecord(subjects: lines, gpa: gpa))
        }
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
        let attendance = try AttendanceCountsQuery.counts(student: student.id, from: term.startsOn, to: term.endsOn, context)
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
            SELECT e2.student_id, c.code FROM students_v1_enrolments e
            JOIN students_v1_enrolments e2 ON e2.school_id = e.school_id AND e2.class_id = e.class_id AND e2.school_year_id = e.school_year_id
            JOIN students_v1_classes c ON c.school_id = e.school_id AND c.id = e.class_id
            WHERE e.school_id = :school_id AND e.student_id = :student AND e.school_year_id = :year
            """, ["student": .text(studentID), "year": SQLValue(year)])
        return (rows.first?.string("code") ?? "", rows.map { $0.string("student_id") })
    }
}

/// A term's results summed as they are read: per student, subject and category, the score and
/// maximum counted (what `TermMarks` needs), instead of every result kept until the end.
struct TermTally {
    struct Sum {
        let subject: Int32
        let category: Int32
        var score: Double
        var max: Double
    }

    private var positions: [String: Int] = [:]
    /// Each wanted student's sums, by position.
    private var sums: [[Sum]]
    private(set) var subjects: [(id: String, code: String, name: LocalizedText, credits: Double)] = []
    private var subjectPositions: [String: Int32] = [:]
    private var categories: [String] = []
    private var categoryPositions: [String: Int32] = [:]

    init(students: [String]) {
        positions.reserveCapacity(students.count)
        for student in students where positions[student] == nil { positions[student] = positions.count }
        sums = Array(repeating: [], count: positions.count)
    }

    /// One result row, as `GradesData.termResults` reads it; other students' rows are skipped.
    /// ABSENT counts its maximum with no score; EXEMPT counts nothing, but its subject is still
    /// on the card (with no mark).
    mutating func add(_ row: SQLColumns) {
        guard let student = positions[row.string(0)] else { return }
        let state = ResultState(rawValue: row.string(1)) ?? .scored
        let subjectID = row.string(5)
        let subject: Int32
        if let known = subjectPositions[subjectID] {
            subject = known
        } else {
            subject = Int32(subjects.count)
            subjectPositions[subjectID] = subject
            subjects.append((subjectID, row.string(6), LocalizedText(ar: row.string(7), en: row.string(8)), row.double(9) ?? 1))
        }
        let categoryName = row.string(4)
        let category: Int32
        if let known = categoryPositions[categoryName] {
            category = known
        } else {
            category = Int32(categories.count)
            categoryPositions[categoryName] = category
            categories.append(categoryName)
        }
        let score = state == .scored ? row.double(2) ?? 0 : 0
        let max = state == .exempt ? 0 : row.double(3) ?? 0
        if let slot = sums[student].firstIndex(where: { $0.subject == subject && $0.category == category }) {
            sums[student][slot].score += score
            sums[student][slot].max += max
        } else {
            sums[student].append(Sum(subject: subject, category: category, score: score, max: max))
        }
    }

    /// A student's subjects (positions in `subjects`) with each category's sums; none when the
    /// student has no result.
    func subjectSums(of student: String) -> [(subject: Int, sums: [TermMarks.CategorySum])] {
        guard let position = positions[student] else { return [] }
        var bySubject: [Int32: [TermMarks.CategorySum]] = [:]
        for sum in sums[position] {
            bySubject[sum.subject, default: []].append(TermMarks.CategorySum(category: categories[Int(sum.category)], score: sum.score, max: sum.max))
        }
        return bySubject.map { (Int($0.key), $0.value) }
    }
}
