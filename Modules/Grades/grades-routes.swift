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

    static let resultItem: APISchema = .object([
        ("id", .id), ("title", .text), ("description", .nullable(.text)), ("score", .nullable(.number)), ("max_score", .nullable(.number)),
        ("percentage", .nullable(.number)), ("grade", .nullable(.text)), ("feedback", .nullable(.text)),
        ("submitted_at", .nullable(.dateTime)), ("graded_at", .nullable(.dateTime)), ("subject_name", .text),
    ])

    /// One result. `id` is the assessment's (unique in one student's list); `submitted_at` is the
    /// day it was sat, `graded_at` when the result was entered. An EXEMPT result has no score,
    /// percentage or grade; an ABSENT one scores 0.
    struct ResultItem: Encodable, Sendable {
        let id: String
        let title: String
        @Null var description: String?
        @Null var score: Double?
        @Null var maxScore: Double?
        @Null var percentage: Double?
        @Null var grade: String?
        @Null var feedback: String?
        @Null var submittedAt: String?
        @Null var gradedAt: Date?
        let subjectName: String

        init(_ row: ResultsPage.Row, _ language: Language) {
            id = row.assessmentID
            title = row.title
            description = nil
            score = row.score
            maxScore = row.maxMarks
            percentage = row.percentage.map(Self.rounded)
            grade = row.letter
            feedback = row.feedback
            submittedAt = GradesRoutes.midnight(row.date)
            gradedAt = row.enteredAt
            subjectName = row.subjectName.text(in: language)
        }

        static func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }
    }

    private static var studentResults: APIRoute {
        APIRoute(.get, "/api/mobile/grades/student/:studentId", summary: "A student's results, newest first (the student, their guardians, their teachers, admins)",
                 query: APIParameter.paging, response: .page(of: resultItem)) { request in
            try await results(request, student: try request.parameter("studentId"), childOnly: false)
        }
    }

    private static var childResults: APIRoute {
        APIRoute(.get, "/api/mobile/guardian/children/:childId/grades", summary: "One of the caller's children's results (guardians only)",
                 query: APIParameter.paging, response: .page(of: resultItem)) { request in
            try await results(request, student: try request.parameter("childId"), childOnly: true)
        }
    }

    private static func results(_ request: APIRequest, student: String, childOnly: Bool) async throws -> APIResponse {
        let paging = try request.paging(defaultPerPage: 50)
        let page = try await request.run(ResultsPage.self, .init(student: student, childOnly: childOnly, offset: paging.offset, limit: paging.perPage))
        return try .json(APIPage(data: page.rows.map { ResultItem($0, request.language) }, total: page.total, paging: paging))
    }

    // MARK: Summary

    struct SummaryBody: Encodable, Sendable {
        struct Subject: Encodable, Sendable {
            let subjectName: String
            let averagePercentage: Double
            let totalResults: Int
        }

        let totalResults: Int
        let averagePercentage: Double
        @Null var gpa: Double?
        @Null var overallGrade: String?
        let subjects: [Subject]
    }

    private static var summary: APIRoute {
        let subject: APISchema = .object([("subject_name", .text), ("average_percentage", .number), ("total_results", .integer(minimum: 0))])
        return APIRoute(.get, "/api/mobile/grades/summary/:studentId",
                        summary: "A student's results at a glance: count, mean percentage, GPA and letter, per subject (same access as the results)",
                        response: .object([("total_results", .integer(minimum: 0)), ("average_percentage", .number), ("gpa", .nullable(.number)),
                                           ("overall_grade", .nullable(.text)), ("subjects", .array(subject))])) { request in
            let output = try await request.run(ResultsSummary.self, .init(student: try request.parameter("studentId")))
            return try .json(SummaryBody(
                totalResults: output.totalResults, averagePercentage: ResultItem.rounded(output.averagePercentage), gpa: output.gpa.map(ResultItem.rounded),
                overallGrade: output.overallGrade,
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

    /// A school day as the web app's dates read: `2026-09-17` → `2026-09-17T00:00:00.000Z`.
    static func midnight(_ date: String) -> String { date + "T00:00:00.000Z" }
}

/// An optional value the contract always sends: `null` when absent (JSONEncoder would leave the key out).
@propertyWrapper
struct Null<Value: Encodable & Sendable>: Encodable, Sendable {
    var wrappedValue: Value?

    init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}
