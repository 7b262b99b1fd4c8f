import Core

/// The results already entered for one assessment, by student id (no read of the roster's tables): what a teacher sees before
/// correcting a mark (the console's grade entry fills its sheet from it). The same door as
/// entering them: the class's subject teacher, or an administrator.
public struct AssessmentResults: Action {
    public struct Input: Codable, Sendable {
        public var assessment: String
        public init(assessment: String) { self.assessment = assessment }
    }

    public struct Entered: Codable, Sendable, Equatable {
        public let studentID: String
        public let state: ResultState
        public let score: Double?
    }

    public static let id = "grades.assessment-results"
    public static let permission = GradesPermissions.enter
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> [Entered] {
        let assessment = try GradesData.assessment(input.assessment, context)
        _ = try GradesAccess.requireAssessmentTeacher(assessment, named: input.assessment, context)
        let rows = try context.database.fetchAll("""
            SELECT student_id, state, score FROM grades_results WHERE school_id = :school_id AND assessment_id = :id ORDER BY student_id
            """, ["id": .text(assessment.id)])
        return rows.compactMap { row in
            ResultState(rawValue: row.string("state")).map { Entered(studentID: row.string("student_id"), state: $0, score: row["score"]) }
        }
    }
}
