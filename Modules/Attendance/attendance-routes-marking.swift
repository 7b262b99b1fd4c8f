import Core
import Foundation

/// Marking over the API: one student, a list (1 to 500) or a teacher's class, each in one run of
/// `attendance.mark-students` (one transaction, all or nothing). `Idempotency-Key` makes a retry
/// return the first answer without writing again.
extension AttendanceRoutes {
    static var marking: [APIRoute] { [mark, bulk, teacherClass] }

    static let maximumBulk = 500

    struct MarkBody: Decodable {
        let studentId: String
        let status: AttendanceStatus
        let sectionId: String?
        let date: String?
        let notes: String?
        let method: String?
    }

    /// A bulk body's keys are spelled out in snake_case and decoded without conversion: on a
    /// 34-record body the decoder's snake_case conversion took half of the decoding time.
    struct RecordBody: Decodable {
        let studentId: String
        let status: AttendanceStatus
        let notes: String?

        enum CodingKeys: String, CodingKey {
            case status, notes
            case studentId = "student_id"
        }
    }

    struct BulkBody: Decodable {
        let records: [RecordBody]
        let sectionId: String?
        let date: String?

        enum CodingKeys: String, CodingKey {
            case records, date
            case sectionId = "section_id"
        }
    }

    static let recordBodySchema: APISchema = .object([
        ("student_id", .id), ("status", statusSchema), ("notes", .optional(.string(maxLength: TextLimit.title))),
    ])

    private static var mark: APIRoute {
        let body: APISchema = .object([
            ("student_id", .id), ("status", statusSchema), ("section_id", .optional(.id)), ("date", .optional(.date)),
            ("notes", .optional(.string(maxLength: TextLimit.title))), ("method", .optional(.values(AttendanceMethod.known.map(\.rawValue)))),
        ])
        return APIRoute(.post, "/api/mobile/attendance/mark", summary: "Marks one student for a day (updates the day's record if there is one)",
                        body: body, response: .of(MarkAnswer.self)) { request in
            let body = try request.decode(MarkBody.self)
            try check(body.studentId, "student_id", maxLength: TextLimit.name)
            try check(body.sectionId, "section_id", maxLength: TextLimit.name)
            try check(body.notes, "notes", maxLength: TextLimit.title)
            let method = try body.method.map { text in
                guard let method = AttendanceMethod.known.first(where: { $0.rawValue == text.uppercased() }) else {
                    throw APIError.invalidField("method", reason: "expected one of " + AttendanceMethod.known.map(\.rawValue).joined(separator: ", "))
                }
                return method
            } ?? .manual
            let input = MarkStudents.Input(marks: [.init(student: body.studentId, status: body.status, notes: body.notes)], classID: body.sectionId,
                                           date: try day(body.date, field: "date"), method: method)
            let output = try await run(request, input) { _ in "student_id" }
            guard let record = output.records.first else { throw APIError.internalError }
            return try .json(MarkAnswer(id: record.id, studentId: record.studentID, date: instant(output.date), status: record.status))
        }
    }

    private static var bulk: APIRoute {
        let body: APISchema = .object([("records", .array(recordBodySchema)), ("section_id", .optional(.id)), ("date", .optional(.date))])
        return APIRoute(.post, "/api/mobile/attendance/bulk", summary: "Marks 1 to 500 students in one step: all are recorded, or none",
                        body: body, response: .of(BulkAnswer.self)) { request in
            let body = try request.decode(BulkBody.self, keys: .camelCase)
            try check(body.sectionId, "section_id", maxLength: TextLimit.name)
            return try await write(request, body.records, classID: body.sectionId, date: try day(body.date, field: "date"))
        }
    }

    /// A teacher's class (`classId` is a section, as in the contract): the same write, in that class.
    private static var teacherClass: APIRoute {
        let body: APISchema = .object([("records", .array(recordBodySchema)), ("date", .optional(.date))])
        return APIRoute(.post, "/api/mobile/teacher/classes/:classId/attendance", summary: "Marks students of one class in one step: all are recorded, or none",
                        body: body, response: .of(BulkAnswer.self)) { request in
            let classID = try request.parameter("classId")
            let body = try request.decode(BulkBody.self, keys: .camelCase)
            return try await write(request, body.records, classID: classID, date: try day(body.date, field: "date"))
        }
    }

    private static func write(_ request: APIRequest, _ records: [RecordBody], classID: String?, date: String?) async throws -> APIResponse {
        guard (1...maximumBulk).contains(records.count) else { throw APIError.invalidField("records", reason: "expected 1 to \(maximumBulk) records") }
        for (index, record) in records.enumerated() {
            try check(record.studentId, "records[\(index)].student_id", maxLength: TextLimit.name)
            try check(record.notes, "records[\(index)].notes", maxLength: TextLimit.title)
        }
        let input = MarkStudents.Input(marks: records.map { .init(student: $0.studentId, status: $0.status, notes: $0.notes) }, classID: classID, date: date)
        let output = try await run(request, input) { "records[\($0)].student_id" }
        return APIResponse(status: 200, body: BulkAnswer.json(output))
    }

    struct MarkAnswer: Codable, Sendable {
        let id: String
        let studentId: String
        let date: Date
        let status: AttendanceStatus
    }

    /// `{count, records:[{id, student_id, status}]}`. The routes write it by hand (`json`), a
    /// benchmark route; this type is its shape, for the schema, and what `APIResponse.json` would
    /// write for the same records.
    struct BulkAnswer: Codable, Sendable {
        struct Record: Codable, Sendable {
            let id: String
            let studentId: String
            let status: AttendanceStatus
        }

        let count: Int
        let records: [Record]

        init(_ output: MarkStudents.Output) {
            count = output.records.count
            records = output.records.map { Record(id: $0.id, studentId: $0.studentID, status: $0.status) }
        }

        /// The same JSON as `APIResponse.json(BulkAnswer(output))`, written with Core's `JSONBuilder`.
        static func json(_ output: MarkStudents.Output) -> Data {
            var json = JSONBuilder(capacity: 32 + output.records.count * 110)
            json.raw(#"{"count":"#)
            json.integer(output.records.count)
            json.raw(#","records":["#)
            for (index, record) in output.records.enumerated() {
                json.raw(index == 0 ? #"{"id":"# : #",{"id":"#)
                json.string(record.id)
                json.raw(#","student_id":"#)
                json.string(record.studentID)
                json.raw(#","status":"#)
                json.string(record.status.rawValue)
                json.raw("}")
            }
            json.raw("]}")
            return json.data
        }
    }

    /// Runs the marking; students unknown in this school are 404 with each one in `details`.
    private static func run(_ request: APIRequest, _ input: MarkStudents.Input, field: (Int) -> String) async throws -> MarkStudents.Output {
        do {
            return try await request.run(MarkStudents.self, input)
        } catch AttendanceError.unknownStudents(let ids) {
            let details = ids.map { id in
                APIErrorDetail(field: field(input.marks.firstIndex { $0.student == id } ?? 0), reason: "no student \(id) in this school")
            }
            throw error(.unknownStudents(ids), status: 404, details: details)
        }
    }
}
