import Core
import Foundation

/// Excuses over the API, on this module's excuse actions: a list in the caller's reach
/// (`attendance.list-excuses`), a guardian's excuse for a record (`attendance.submit-excuse`),
/// and a decision by the class's teacher or an admin (`attendance.review-excuse`), whose
/// approval turns the record EXCUSED in the same transaction.
extension AttendanceRoutes {
    static var excuses: [APIRoute] { [listExcuses, submitExcuse, reviewExcuse] }

    static let excuseItem: APISchema = .object([
        ("id", .id), ("attendance_id", .id), ("attendance_date", .dateTime), ("attendance_status", statusSchema), ("student_id", .id),
        ("student_name", .text), ("reason", .values(of: ExcuseReason.self)), ("description", .nullable(.text)), ("attachments", .array(.text)),
        ("status", .values(of: ReviewStatus.self)), ("submitted_by", .id), ("submitted_at", .dateTime), ("reviewed_by", .nullable(.id)),
        ("reviewed_at", .nullable(.dateTime)), ("review_notes", .nullable(.text)),
    ])

    static let descriptionLimit = 2000
    static let reviewNoteLimit = 500

    private static var listExcuses: APIRoute {
        APIRoute(.get, "/api/mobile/attendance/excuses", summary: "Excuses in the caller's reach (staff: their classes or the school; a guardian: their children's)",
                 query: APIParameter.paging + [APIParameter("status", .values(of: ReviewStatus.self)), APIParameter("student_id", .string(maxLength: TextLimit.name))],
                 response: .page(of: excuseItem)) { request in
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
                        body: body, status: 201, response: excuseItem) { request in
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
                        body: body, response: excuseItem) { request in
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

    struct ExcuseItem: Encodable, Sendable {
        let excuse: Excuse

        init(_ excuse: Excuse) { self.excuse = excuse }

        enum CodingKeys: CodingKey {
            case id, attendanceId, attendanceDate, attendanceStatus, studentId, studentName, reason, description, attachments, status
            case submittedBy, submittedAt, reviewedBy, reviewedAt, reviewNotes
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(excuse.id, forKey: .id)
            try container.encode(excuse.recordID, forKey: .attendanceId)
            try container.encode(CivilDate(excuse.date).map(AttendanceRoutes.instant), forKey: .attendanceDate)
            try container.encode(excuse.recordStatus, forKey: .attendanceStatus)
            try container.encode(excuse.studentID, forKey: .studentId)
            try container.encode(excuse.studentName, forKey: .studentName)
            try container.encode(excuse.reason, forKey: .reason)
            try container.encode(excuse.description.isEmpty ? nil : excuse.description, forKey: .description)
            try container.encode(excuse.attachments, forKey: .attachments)
            try container.encode(excuse.status, forKey: .status)
            try container.encode(excuse.submittedBy, forKey: .submittedBy)
            try container.encode(excuse.submittedAt, forKey: .submittedAt)
            try container.encode(excuse.reviewedBy, forKey: .reviewedBy)
            try container.encode(excuse.reviewedAt, forKey: .reviewedAt)
            try container.encode(excuse.reviewNote, forKey: .reviewNotes)
        }
    }
}
