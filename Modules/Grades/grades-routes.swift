import Core
import Foundation

/// The grades part of the mobile API (contract §6, §7's teacher assessments and grades, §4's
/// child grades), each route one action. Students are named by their id (a GR number works too);
/// a report card by `<studentId>_<termId>`.
enum GradesRoutes {
    static var all: [APIRoute] {
        [studentResults, childResults, summary] + GradesCardRoutes.all + GradesTeacherRoutes.all
    }

    // MARK: Results

    /// One result. `id` is the assessment's (unique in one student's list); `submitted_at` is the
    /// day it was sat, `graded_at` when the result was entered. An EXEMPT result has no score,
    /// percentage or grade; an ABSENT one scores 0.
    struct ResultItem: Codable, Sendable {
        let id: String
        let title: String
        let description: Nullable<String>
        let score: Nullable<Double>
        let maxScore: Nullable<Double>
        let percentage: Nullable<Double>
        let grade: Nullable<String>
        let feedback: Nullable<String>
        /// Always a day here; the contract has the key nullable, and so does this schema.
        let submittedAt: Nullable<APIInstant>
        let gradedAt: Nullable<Date>
        let subjectName: String

        init(_ row: ResultsPage.Row, _ language: Language) {
            id = row.assessmentID
            title = row.title
            description = Nullable(nil)
            score = Nullable(row.score)
            maxScore = Nullable(row.maxMarks)
            percentage = Nullable(row.percentage.map(Self.rounded))
            grade = Nullable(row.letter)
            feedback = Nullable(row.feedback)
            submittedAt = Nullable(.midnight(of: row.date))
            gradedAt = Nullable(row.enteredAt)
            subjectName = row.subjectName.text(in: language)
        }

        static func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }
    }

    private static var studentResults: APIRoute {
        APIRoute(.get, "/api/mobile/grades/student/:studentId", summary: "A student's results, newest first (the student, their guardians, their teachers, admins)",
                 query: APIParameter.paging, response: .of(APIPage<ResultItem>.self)) { request in
            try await results(request, student: try request.parameter("studentId"), childOnly: false)
        }
    }

    private static var childResults: APIRoute {
        APIRoute(.get, "/api/mobile/guardian/children/:childId/grades", summary: "One of the caller's children's results (guardians only)",
                 query: APIParameter.paging, response: .of(APIPage<ResultItem>.self)) { request in
            try await results(request, student: try request.parameter("childId"), childOnly: true)
        }
    }

    private static func results(_ request: APIRequest, student: String, childOnly: Bool) async throws -> APIResponse {
        let paging = try request.paging(defaultPerPage: 50)
        let page = try await request.run(ResultsPage.self, .init(student: student, childOnly: childOnly, offset: paging.offset, limit: paging.perPage))
        return try .json(APIPage(data: page.rows.map { ResultItem($0, request.language) }, total: page.total, paging: paging))
    }

    // MARK: Summary

    struct SummaryBody: Codable, Sendable {
        struct Subject: Codable, Sendable {
            let subjectName: String
            let averagePercentage: Double
            let totalResults: Int
        }

        let totalResults: Int
        let averagePercentage: Double
        let gpa: Nullable<Double>
        let overallGrade: Nullable<String>
        let subjects: [Subject]
    }

    private static var summary: APIRoute {
        APIRoute(.get, "/api/mobile/grades/summary/:studentId",
                 summary: "A student's results at a glance: count, mean percentage, GPA and letter, per subject (same access as the results)",
                 response: .of(SummaryBody.self)) { request in
            let output = try await request.run(ResultsSummary.self, .init(student: try request.parameter("studentId")))
            return try .json(SummaryBody(
                totalResults: output.totalResults, averagePercentage: ResultItem.rounded(output.averagePercentage),
                gpa: Nullable(output.gpa.map(ResultItem.rounded)), overallGrade: Nullable(output.overallGrade),
                subjects: output.subjects.map { .init(subjectName: $0.subjectName.text(in: request.language),
                                                      averagePercentage: ResultItem.rounded($0.averagePercentage), totalResults: $0.totalResults) }))
        }
    }

    // MARK: Dashboard

    /// STUDENT: `upcoming_exams`, the assessments still ahead for their class.
    static var dashboard: DashboardContribution {
        DashboardContribution(fields: [("upcoming_exams", .integer(minimum: 0))]) { request in
            guard request.principal.role == .student else { return [:] }
            return ["upcoming_exams": .int(try await request.run(UpcomingAssessments.self, .init()))]
        }
    }

    /// `upcoming_exams`: the school's assessments still ahead.
    static var adminStats: DashboardContribution {
        DashboardContribution(fields: [("upcoming_exams", .integer(minimum: 0))]) { request in
            ["upcoming_exams": .int(try await request.run(UpcomingAssessments.self, .init()))]
        }
    }
}
