import Core
import Foundation
import Students

/// `GET /report-cards` and `GET /report-cards/:id`. A report card here is one student in one
/// published term; its id is `<studentId>_<termId>`. We keep no comments or PDF for a card, so
/// `teacher_comments`, `principal_comments`, `pdf_url` and `download_url` are null; `created_at`
/// is when the term was published; attendance days are null where Attendance is off.
enum GradesCardRoutes {
    static var all: [APIRoute] { [list, detail] }

    struct CardItem: Codable, Sendable {
        let id: String
        let termId: String
        let termName: String
        let overallGrade: Nullable<String>
        let overallGpa: Nullable<Double>
        let rank: Nullable<Int>
        let totalStudents: Int
        let daysPresent: Nullable<Int>
        let daysAbsent: Nullable<Int>
        let daysLate: Nullable<Int>
        let teacherComments: Nullable<String>
        let principalComments: Nullable<String>
        let pdfUrl: Nullable<String>
        let downloadUrl: Nullable<String>
        let publishedAt: Nullable<Date>
        let createdAt: Nullable<Date>

        init(_ card: ReportCardSummary, _ language: Language) {
            id = card.id
            termId = card.termID
            termName = card.termName.text(in: language)
            overallGrade = Nullable(card.overallGrade)
            overallGpa = Nullable(card.gpa.map(GradesRoutes.ResultItem.rounded))
            rank = Nullable(card.rank)
            totalStudents = card.classSize
            daysPresent = Nullable(card.attendance?.present)
            daysAbsent = Nullable(card.attendance?.absent)
            daysLate = Nullable(card.attendance?.late)
            teacherComments = Nullable(nil)
            principalComments = Nullable(nil)
            pdfUrl = Nullable(nil)
            downloadUrl = Nullable(nil)
            publishedAt = Nullable(card.publishedAt)
            createdAt = Nullable(card.publishedAt)
        }
    }

    private static var list: APIRoute {
        APIRoute(.get, "/api/mobile/report-cards",
                 summary: "Published report cards, newest term first: the caller's own, or `student_id`'s (one of a guardian's children, a teacher's student)",
                 query: APIParameter.paging + [APIParameter("student_id", .id)], response: .of(APIPage<CardItem>.self)) { request in
            let paging = try request.paging(defaultPerPage: 20)
            let student = try request.queryText("student_id", maxLength: TextLimit.name)
            let output = try await request.run(ReportCardList.self, .init(student: student, offset: paging.offset, limit: paging.perPage))
            return try .json(APIPage(data: output.cards.map { CardItem($0, request.language) }, total: output.total, paging: paging))
        }
    }

    /// What the detail adds to the list's fields, in the same object (the contract's flat card):
    /// the student, and one flat line per subject: `score` is the term mark out of `max_score`
    /// 100, `comments` an admin's reason for overriding the letter.
    struct CardParts: Codable, Sendable {
        struct StudentPart: Codable, Sendable {
            let id: String
            let givenName: String
            let familyName: String
            let section: Nullable<String>
            let grade: Nullable<String>
        }

        struct Line: Codable, Sendable {
            let id: String
            let subjectId: String
            let subjectName: String
            let grade: Nullable<String>
            let score: Nullable<Double>
            let maxScore: Double
            let percentage: Nullable<Double>
            let credits: Double
            let comments: Nullable<String>
        }

        let student: StudentPart
        let isPublished: Bool
        let grades: [Line]
    }

    /// The card's keys are written once, in `CardItem`.
    typealias CardDetail = APIMerged<CardItem, CardParts>

    private static var detail: APIRoute {
        APIRoute(.get, "/api/mobile/report-cards/:id",
                 summary: "One report card by id (`<studentId>_<termId>`); students and guardians see published ones, staff drafts too",
                 response: .of(CardDetail.self)) { request in
            let output = try await request.run(ReportCardDetail.self, .init(id: try request.parameter("id")))
            let language = request.language
            let rounded = GradesRoutes.ResultItem.rounded
            return try .json(CardDetail(CardItem(output.card, language), CardParts(
                student: .init(id: output.student.id, givenName: output.student.givenName, familyName: output.student.surname,
                               section: Nullable(output.className?.text(in: language)), grade: Nullable(output.yearLevelName?.text(in: language))),
                isPublished: output.card.published,
                grades: output.lines.map { line in
                    .init(id: line.subjectID, subjectId: line.subjectID, subjectName: line.subjectName.text(in: language), grade: Nullable(line.letter),
                          score: Nullable(line.percentage.map(rounded)), maxScore: 100, percentage: Nullable(line.percentage.map(rounded)),
                          credits: line.credits, comments: Nullable(line.comment))
                })))
        }
    }
}
