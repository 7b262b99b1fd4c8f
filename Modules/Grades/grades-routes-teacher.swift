import Core
import Foundation

/// `GET /teacher/classes/:classId/assessments` and `POST /teacher/classes/:classId/grades`
/// (`classId` is a class's id). Our assessments have no start or end time, duration,
/// description or instructions: those keys are null. `status` follows the date (PLANNED ahead,
/// IN_PROGRESS today, COMPLETED past).
enum GradesTeacherRoutes {
    static var all: [APIRoute] { [assessments, enterGrades] }

    struct AssessmentItem: Codable, Sendable {
        let id: String
        let title: String
        let description: Nullable<String>
        let examDate: APIInstant
        let startTime: Nullable<String>
        let endTime: Nullable<String>
        let duration: Nullable<Int>
        let totalMarks: Double
        let passingMarks: Double
        let examType: AssessmentKind
        let status: AssessmentStatus
        let instructions: Nullable<String>
        let subjectName: String
        let resultsCount: Int

        init(_ item: ClassAssessments.Item, _ language: Language) {
            id = item.assessment.id
            title = item.assessment.title
            description = Nullable(nil)
            examDate = .midnight(of: item.assessment.date)
            startTime = Nullable(nil)
            endTime = Nullable(nil)
            duration = Nullable(nil)
            totalMarks = item.assessment.maxMarks
            passingMarks = item.assessment.passingMarks
            examType = item.assessment.kind
            status = item.status
            instructions = Nullable(nil)
            subjectName = item.subjectName.text(in: language)
            resultsCount = item.resultsCount
        }
    }

    private static var assessments: APIRoute {
        APIRoute(.get, "/api/mobile/teacher/classes/:classId/assessments",
                 summary: "A class's assessments, newest first, with how many results each has (its subject teachers, its homeroom teacher, admins)",
                 query: APIParameter.paging + [APIParameter("status", .values(of: AssessmentStatus.self))],
                 response: .of(APIPage<AssessmentItem>.self)) { request in
            let paging = try request.paging(defaultPerPage: 30)
            let status = try request.queryEnum("status", as: AssessmentStatus.self)
            let output = try await request.run(ClassAssessments.self, .init(classID: try request.parameter("classId"), status: status,
                                                                           offset: paging.offset, limit: paging.perPage))
            return try .json(APIPage(data: output.items.map { AssessmentItem($0, request.language) }, total: output.total, paging: paging))
        }
    }

    struct GradesBody: Decodable {
        struct Result: Decodable {
            let studentId: String
            let score: Double
            let feedback: String?
        }

        let examId: String
        let results: [Result]
    }

    struct Entered: Codable, Sendable {
        let count: Int
    }

    /// Every result in one transaction: a student outside the class, a duplicate or a score
    /// outside 0...max is 400 with a detail per bad row (`results[i]`), and nothing is written.
    private static var enterGrades: APIRoute {
        let result: APISchema = .object([("student_id", .id), ("score", .number), ("feedback", .optional(.nullable(.text)))])
        return APIRoute(.post, "/api/mobile/teacher/classes/:classId/grades",
                        summary: "Enters or corrects an assessment's results (the class's subject teacher, admins)",
                        body: .object([("exam_id", .id), ("results", .array(result))]),
                        response: .of(Entered.self)) { request in
            let classID = try request.parameter("classId")
            let body = try request.decode(GradesBody.self)
            let lines = body.results.map { ResultLine(student: $0.studentId, result: String($0.score), feedback: $0.feedback) }
            do {
                let output = try await request.run(EnterResults.self, .init(assessment: body.examId, lines: lines, classID: classID, byStudentID: true))
                return try .json(Entered(count: output.entered))
            } catch GradesError.invalidResults(let problems) {
                throw APIError(status: 400, code: APIError.from(GradesError.invalidResults(problems)).code, messageKey: "grades.error.invalid-results",
                               arguments: ["count": String(problems.count)],
                               details: problems.map { APIErrorDetail(field: "results[\($0.row - 1)]", reason: "\($0.student): \($0.reason)") })
            }
        }
    }
}
