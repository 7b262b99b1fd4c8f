import Core
import Foundation
import Students

/// What the export reads from other modules, in one place: Students' published reads (all
/// teaching, the school years, every guardian link) and, only where Grades is on, Grades' answer
/// to the named query below, asked through the kernel (OneRoster does not depend on Grades).
enum OneRosterExportReads {
    typealias Teaching = StudentsPublishedReads.TeachingAssignment

    static func teaching(_ context: ActionContext) throws -> [Teaching] {
        try StudentsPublishedReads.teaching(context)
    }

    static func schoolYears(_ context: ActionContext) throws -> [StudentsPublishedReads.SchoolYear] {
        try StudentsPublishedReads.schoolYears(context)
    }

    static func guardianLinks(_ context: ActionContext) throws -> [StudentsPublishedReads.GuardianLink] {
        try StudentsPublishedReads.guardianLinks(context)
    }

    /// Nothing where Grades is off (or not installed).
    static func grades(_ context: ActionContext) throws -> GradebookQuery.Answer {
        try context.ask(GradebookQuery.self, .init()) ?? GradebookQuery.Answer(assessments: [], results: [])
    }
}

/// OneRoster's side of Grades' `grades.assessments-and-results`: the fields the gradebook files
/// need, in Grades' shape (`OneRosterTests` checks it against the real answer).
enum GradebookQuery: NamedQuery {
    static let name = "grades.assessments-and-results"

    struct Request: Codable, Sendable {}

    struct Answer: Codable, Sendable {
        var assessments: [Assessment]
        var results: [Result]
    }

    struct Assessment: Codable, Sendable {
        let id: String
        let classID: String
        let subjectID: String
        let termID: String
        let title: String
        let date: String
        let maxMarks: Double
        let category: String
    }

    struct Result: Codable, Sendable {
        let assessmentID: String
        let studentID: String
        let state: String
        let score: Double?
        let enteredAt: String
    }
}
