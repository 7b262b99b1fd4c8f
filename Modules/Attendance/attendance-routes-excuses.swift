import Core
import Foundation

/// Excuses over the API, on this module's excuse actions: a list in the caller's reach
/// (`attendance.list-excuses`), a guardian's excuse for a record (`attendance.submit-excuse`),
/// and a decision by the class's teacher or an admin (`attendance.review-excuse`), whose
/// approval turns the record EXCUSED in the same transaction.
extension AttendanceRoutes {
    static var excuses: [APIRoute] { [listExcuses, submitExcuse, reviewExcuse] }

    static let descriptionLimit = 2000
    static let reviewNoteLimit = 500

    private static var listExcuses: APIRoute {
        APIRoute(.get, "/api/mobile/attendance/excuses", summary: "Excuses in the caller's reach (staff: their classes or the school; a guardian: their children's)",
                 query: APIParameter.paging + [APIParameter("status", .values(of: ReviewStatus.self)), APIParameter("student_id", .string(maxLength: TextLimit.name))],
                 response: .of(APIPage<ExcuseItem>.self)) { request in
            let paging = try request.paging(defaultPerPage: 50)
            let page = try await request.run(ListExcuses.self, .init(
                status: try request.queryEnum("status", as: ReviewStatus.self), studentID: try request.queryText("student_id", maxLength: TextLimit.name),
                offset: paging.offset, limit: paging.perPage))
            return try .json(APIPage(data: page.excuses.map(ExcuseItem.init), total: page.total, paging: paging))
        }
    }

    struct SubmitBody: Decodable {
        let attendanceId: String
        let reason: ExcuseReason
        let description: String?
        let attachments: [String]?
    }

    private static var submitExcuse: APIRoute {
        let body: APISchema = .object([
            ("attendance_id", .id), ("reason", .values(of: ExcuseReason.self)), ("description", .optional(.string(maxLength: descriptionLimit))),
            ("attachments", .optional(.array(.string(format: "uri", maxLength: 2000)))),
        ])
        return APIRoute(.post, "/api/mobile/attendance/excuses", summary: "A guardian explains a child's ABSENT or LATE record (one excuse per record)",
                        body: body, status: 201, response: .of(ExcuseItem.self)) { request in
            let body = try request.decode(SubmitBody.self)
            try check(body.attendanceId, "attendance_id", maxLength: TextLimit.name)
            try check(body.description, "description", maxLength: descriptionLimit, multiline: true)
            let attachments = body.attachments ?? []
            guard attachments.count <= SubmitExcuse.maximumAttachments else {
                throw APIError.invalidField("attachments", reason: "at most \(SubmitExcuse.maximumAttachments) links")
            }
            for (index, link) in attachments.enumerated() where !SubmitExcuse.isLink(link) {
                throw APIError.invalidField("attachments[\(index)]", reason: "expected an http(s) URL")
            }
            let id = try await request.run(SubmitExcuse.self, .init(recordID: body.attendanceId, reason: body.reason, description: body.description ?? "",
                                                                    attachments: attachments))
            return try .json(try await excuse(id, request), status: 201)
        }
    }

    enum Decision: String, Decodable {
        case approved = "APPROVED"
        case rejected = "REJECTED"
    }

    struct ReviewBody: Decodable {
        let status: Decision
        let reviewNotes: String?
    }

    private static var reviewExcuse: APIRoute {
        let body: APISchema = .object([("status", .values(["APPROVED", "REJECTED"])), ("review_notes", .optional(.string(maxLength: reviewNoteLimit)))])
        return APIRoute(.put, "/api/mobile/attendance/excuses/:id", summary: "Approves (the record becomes EXCUSED) or rejects a pending excuse",
                        body: body, response: .of(ExcuseItem.self)) { request in
            let id = try request.parameter("id")
            let body = try request.decode(ReviewBody.self)
            try check(body.reviewNotes, "review_notes", maxLength: reviewNoteLimit, multiline: true)
            let decided = try await request.run(ReviewExcuse.self, .init(excuse: id, approve: body.status == .approved, note: body.reviewNotes))
            return try .json(ExcuseItem(decided))
        }
    }

    /// The excuse just submitted, as the list shows it.
    private static func excuse(_ id: String, _ request: APIRequest) async throws -> ExcuseItem {
        guard let excuse = try await request.run(ListExcuses.self, .init(excuseID: id, limit: 1)).excuses.first else { throw APIError.notFound }
        return ExcuseItem(excuse)
    }

    /// An excuse as the apps list it; the keys with nothing to say are written as null.
    struct ExcuseItem: Codable, Sendable {
        let id: String
        let attendanceId: String
        let attendanceDate: APIInstant
        let attendanceStatus: AttendanceStatus
        let studentId: String
        let studentName: String
        let reason: ExcuseReason
        let description: Nullable<String>
        let attachments: [String]
        let status: ReviewStatus
        let submittedBy: String
        let submittedAt: Date
        let reviewedBy: Nullable<String>
        let reviewedAt: Nullable<Date>
        let reviewNotes: Nullable<String>

        init(_ excuse: Excuse) {
            id = excuse.id
            attendanceId = excuse.recordID
            // The record's day is written by this module as `YYYY-MM-DD`; like the records list, an unreadable one is day 0.
            attendanceDate = .midnight(of: excuse.date)
            attendanceStatus = excuse.recordStatus
            studentId = excuse.studentID
            studentName = excuse.studentName
            reason = excuse.reason
            // No description is stored as empty text; the apps get null.
            description = Nullable(excuse.description.isEmpty ? nil : excuse.description)
            attachments = excuse.attachments
            status = excuse.status
            submittedBy = excuse.submittedBy
            submittedAt = excuse.submittedAt
            reviewedBy = Nullable(excuse.reviewedBy)
            reviewedAt = Nullable(excuse.reviewedAt)
            reviewNotes = Nullable(excuse.reviewNote)
        }
    }
}
