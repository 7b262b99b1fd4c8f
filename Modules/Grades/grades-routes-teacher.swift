import Core
import Foundation

/// `GET /teacher/classes/:classId/assessments` and `POST /teacher/classes/:classId/grades`
/// (`classId` is a class's id). Our assessments have no start or end time, duration,
/// description or instructions: those keys are null. `status` follows the date (PLANNED ahead,
/// IN_PROGRESS today, COMPLETED past).
enum GradesTeacherRoutes {
    static var all: [APIRoute] { [assessments, enterGrades] }

    struct AssessmentItem: Encodable, Sendable {
        let id: String
        let title: String
        @Null var description: String?
        let examDate: String
        @Null var startTime: String?
        @Null var endTime: String?
        @Null var duration: Int?
        let totalMarks: Double
        let passingMarks: Double
        let examType: String
        let status: String
        @Null var instructions: String?
        let subjectName: String
        let resultsCount: Int

        init(_ item: ClassAssessments.Item, _ language: Language) {
            id = item.assessment.id
            title = item.assessment.title
            description = nil
            examDate = GradesRoutes.midnight(item.assessment.date)
            startTime = nil
            endTime = nil
            duration = nil
            totalMarks = item.assessment.maxMarks
            passingMarks = item.assessment.passingMarks
            examType = item.assessment.kind.rawValue
            status = item.status.rawValue
            instructions = nil
            subjectName = item.subjectName.text(in: language)
            resultsCount = item.resultsCount
        }
    }

    private static var assessments: APIRoute {
        let item: APISchema = .object([
            ("id", .id), ("title", .text), ("description", .nullable(.text)), ("exam_date", .dateTime), ("start_time", .nullable(.text)),
            ("end_time", .nullable(.text)), ("duration", .nullable(.integer(minimum: 0))), ("total_marks", .number), ("passing_marks", .number),
            ("exam_type", .values(of: AssessmentKind.self)), ("status", .values(of: AssessmentStatus.self)), ("instructions", .nullable(.text)),
            ("subject_name", .text), ("results_count", .integer(minimum: 0)),
        ])
        return APIRoute(.get, "/api/mobile/teacher/classes/:classId/assessments",
                        summary: "A class's assessments, newest first, with how many results each has (its subject teachers, its homeroom teacher, admins)",
                        query: APIParameter.paging + [APIParameter("status", .values(of: AssessmentStatus.self))], response: .page(of: item)) { request in
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

    /// Every result in one transaction: a student outside the class, a duplicate or a score
    /// outside 0...max is 400 with a detail per bad row (`results[i]`), and nothing is written.
    private static var enterGrades: APIRoute {
        let result: APISchema = .object([("student_id", .id), ("score", .number), ("feedback", .optional(.nullable(.text)))])
        return APIRoute(.post, "/api/mobile/teacher/classes/:classId/grades",
                        summary: "Enters or corrects an assessment's results (the class's subject teacher, admins)",
                        body: .object([("exam_id", .id), ("results", .array(result))]),
                        response: .object([("count", .integer(minimum: 0))])) { request in
            let classID = try request.parameter("classId")
            let body = try request.decode(GradesBody.self)
            let lines = body.results.map { ResultLine(student: $0.studentId, result: String($0.score), feedback: $0.feedback) }
            do {
                let output = try await request.run(EnterResults.self, .init(assessment: body.examId, lines: lines, classID: classID, byStudentID: true))
                return try .json(["count": output.entered])
            } catch GradesError.invalidResults(let problems) {
                throw APIError(status: 400, code: APIError.from(GradesError.invalidResults(problems)).code, messageKey: "grades.error.invalid-results",
                               arguments: ["count": String(problems.count)],
                               details: problems.map { APIErrorDetail(field: "results[\($0.row - 1)]", reason: "\($0.student): \($0.reason)") })
            }
        }
    }
}
