import Core
import Foundation
import Students

/// `GET /report-cards` and `GET /report-cards/:id`. A report card here is one student in one
/// published term; its id is `<studentId>_<termId>`. We keep no comments or PDF for a card, so
/// `teacher_comments`, `principal_comments`, `pdf_url` and `download_url` are null; `created_at`
/// is when the term was published; attendance days are null where Attendance is off.
enum GradesCardRoutes {
    static var all: [APIRoute] { [list, detail] }

    static let cardFields: [(String, APISchema)] = [
        ("id", .id), ("term_id", .id), ("term_name", .text), ("overall_grade", .nullable(.text)), ("overall_gpa", .nullable(.number)),
        ("rank", .nullable(.integer(minimum: 1))), ("total_students", .integer(minimum: 0)), ("days_present", .nullable(.integer(minimum: 0))),
        ("days_absent", .nullable(.integer(minimum: 0))), ("days_late", .nullable(.integer(minimum: 0))), ("teacher_comments", .nullable(.text)),
        ("principal_comments", .nullable(.text)), ("pdf_url", .nullable(.text)), ("download_url", .nullable(.text)),
        ("published_at", .nullable(.dateTime)), ("created_at", .nullable(.dateTime)),
    ]

    struct CardItem: Encodable, Sendable {
        let id: String
        let termId: String
        let termName: String
        @Null var overallGrade: String?
        @Null var overallGpa: Double?
        @Null var rank: Int?
        let totalStudents: Int
        @Null var daysPresent: Int?
        @Null var daysAbsent: Int?
        @Null var daysLate: Int?
        @Null var teacherComments: String?
        @Null var principalComments: String?
        @Null var pdfUrl: String?
        @Null var downloadUrl: String?
        @Null var publishedAt: Date?
        @Null var createdAt: Date?

        init(_ card: ReportCardSummary, _ language: Language) {
            id = card.id
            termId = card.termID
            termName = card.termName.text(in: language)
            overallGrade = card.overallGrade
            overallGpa = card.gpa.map(GradesRoutes.ResultItem.rounded)
            rank = card.rank
            totalStudents = card.classSize
            daysPresent = card.attendance?.present
            daysAbsent = card.attendance?.absent
            daysLate = card.attendance?.late
            teacherComments = nil
            principalComments = nil
            pdfUrl = nil
            downloadUrl = nil
            publishedAt = card.publishedAt
            createdAt = card.publishedAt
        }
    }

    private static var list: APIRoute {
        APIRoute(.get, "/api/mobile/report-cards",
                 summary: "Published report cards, newest term first: the caller's own, or `student_id`'s (one of a guardian's children, a teacher's student)",
                 query: APIParameter.paging + [APIParameter("student_id", .id)], response: .page(of: .object(cardFields))) { request in
            let paging = try request.paging(defaultPerPage: 20)
            let student = try request.queryText("student_id", maxLength: TextLimit.name)
            let output = try await request.run(ReportCardList.self, .init(student: student, offset: paging.offset, limit: paging.perPage))
            return try .json(APIPage(data: output.cards.map { CardItem($0, request.language) }, total: output.total, paging: paging))
        }
    }

    /// The list's fields, the student, and one flat line per subject: `score` is the term mark
    /// out of `max_score` 100, `comments` an admin's reason for overriding the letter.
    struct CardDetail: Encodable, Sendable {
        struct StudentPart: Encodable, Sendable {
            let id: String
            let givenName: String
            let familyName: String
            @Null var section: String?
            @Null var grade: String?
        }

        struct Line: Encodable, Sendable {
            let id: String
            let subjectId: String
            let subjectName: String
            @Null var grade: String?
            @Null var score: Double?
            let maxScore: Double
            @Null var percentage: Double?
            let credits: Double
            @Null var comments: String?
        }

        let card: CardItem
        let student: StudentPart
        let isPublished: Bool
        let grades: [Line]

        enum Keys: String, CodingKey { case student, isPublished, grades }

        func encode(to encoder: any Encoder) throws {
            try card.encode(to: encoder)
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(student, forKey: .student)
            try container.encode(isPublished, forKey: .isPublished)
            try container.encode(grades, forKey: .grades)
        }
    }

    private static var detail: APIRoute {
        let student: APISchema = .object([("id", .id), ("given_name", .text), ("family_name", .text), ("section", .nullable(.text)), ("grade", .nullable(.text))])
        let line: APISchema = .object([
            ("id", .id), ("subject_id", .id), ("subject_name", .text), ("grade", .nullable(.text)), ("score", .nullable(.number)), ("max_score", .number),
            ("percentage", .nullable(.number)), ("credits", .number), ("comments", .nullable(.text)),
        ])
        return APIRoute(.get, "/api/mobile/report-cards/:id",
                        summary: "One report card by id (`<studentId>_<termId>`); students and guardians see published ones, staff drafts too",
                        response: .object(cardFields + [("student", student), ("is_published", .boolean), ("grades", .array(line))])) { request in
            let output = try await request.run(ReportCardDetail.self, .init(id: try request.parameter("id")))
            let language = request.language
            let rounded = GradesRoutes.ResultItem.rounded
            return try .json(CardDetail(
                card: CardItem(output.card, language),
                student: .init(id: output.student.id, givenName: output.student.givenName, familyName: output.student.surname,
                               section: output.className?.text(in: language), grade: output.yearLevelName?.text(in: language)),
                isPublished: output.card.published,
                grades: output.lines.map { line in
                    .init(id: line.subjectID, subjectId: line.subjectID, subjectName: line.subjectName.text(in: language), grade: line.letter,
                          score: line.percentage.map(rounded), maxScore: 100, percentage: line.percentage.map(rounded), credits: line.credits,
                          comments: line.comment)
                }))
        }
    }
}
