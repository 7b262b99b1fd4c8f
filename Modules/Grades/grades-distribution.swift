import Core
import Foundation
import Students

/// How a term's marks spread over the scale's letters, subject by subject, over the principal's
/// reach (the whole school for staff, a teacher's classes): what a dashboard draws. Each result
/// counts once, at its own letter; results not yet marked (pending, exempt) are left out.
public struct GradeDistribution: Action {
    public struct Input: Codable, Sendable {
        /// A term id or name; nil: the latest term that has results.
        public var term: String?
        public init(term: String? = nil) { self.term = term }
    }

    public struct Subject: Codable, Sendable, Equatable {
        public let code: String
        public let name: LocalizedText
        /// One count per letter of `Output.letters`, in the same order.
        public let counts: [Int]
        public let total: Int
    }

    public struct Output: Codable, Sendable {
        /// Nil when no term has results yet.
        public let termID: String?
        public let termName: LocalizedText?
        /// The scale's letters, highest first.
        public let letters: [String]
        public let subjects: [Subject]
    }

    public static let id = "grades.distribution"
    public static let permission = GradesPermissions.enter
    public static let isReadOnly = true

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        if let term = input.term { _ = try GradesData.term(term, context) }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Output {
        let scale = try GradesData.scale(context)
        let letters = scale.bands.map(\.letter)
        let termID: String? = if let reference = input.term { try GradesData.term(reference, context).id } else {
            try context.database.fetchValue("""
                SELECT a.term_id FROM grades_assessments a JOIN students_v1_terms t ON t.school_id = a.school_id AND t.id = a.term_id
                WHERE a.school_id = :school_id AND EXISTS (SELECT 1 FROM grades_results r WHERE r.school_id = a.school_id AND r.assessment_id = a.id)
                ORDER BY t.starts_on DESC LIMIT 1
                """)
        }
        guard let termID else { return Output(termID: nil, termName: nil, letters: letters, subjects: []) }
        let term = try GradesData.term(termID, context)
        var arguments = StudentVisibility.arguments(for: context)
        arguments["term"] = .text(term.id)
        var counts: [String: (name: LocalizedText, counts: [Int])] = [:]
        for row in try context.database.fetchAll("""
            SELECT r.state, r.score, a.max_marks, a.passing_marks, sub.code, sub.name_ar, sub.name_en FROM grades_results r
            JOIN grades_assessments a ON a.school_id = r.school_id AND a.id = r.assessment_id
            JOIN students_v1_subjects sub ON sub.school_id = a.school_id AND sub.id = a.subject_id
            JOIN students_v1_students s ON s.school_id = r.school_id AND s.id = r.student_id
            WHERE r.school_id = :school_id AND a.term_id = :term AND \(StudentVisibility.viewerCondition(for: context.scope))
            """, arguments) {
            guard let letter = GradesData.shown(row, scale).letter, let index = letters.firstIndex(of: letter) else { continue }
            let code = row.string("code")
            var entry = counts[code] ?? (LocalizedText(ar: row.string("name_ar"), en: row.string("name_en")), Array(repeating: 0, count: letters.count))
            entry.counts[index] += 1
            counts[code] = entry
        }
        return Output(termID: term.id, termName: term.name, letters: letters, subjects: counts.sorted { $0.key < $1.key }.map { code, entry in
            Subject(code: code, name: entry.name, counts: entry.counts, total: entry.counts.reduce(0, +))
        })
    }
}
