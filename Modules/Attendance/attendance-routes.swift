import Core
import Foundation
import Students

/// The attendance part of the mobile API (contract §5, a guardian's child's attendance in §4, a
/// teacher's class attendance in §7). Handlers decode, run one of this module's actions and
/// encode: every rule (who may see or mark whom, dates, notices) lives in the actions.
enum AttendanceRoutes {
    static var all: [APIRoute] {
        [studentRecords, childRecords, classRegister, summary] + marking + checkIn + excuses
    }

    // MARK: Reading

    static let statusSchema: APISchema = .values(of: AttendanceStatus.self)

    static let range: [APIParameter] = [APIParameter("from", .date), APIParameter("to", .date)]

    private static var studentRecords: APIRoute {
        APIRoute(.get, "/api/mobile/attendance/student/:studentId", summary: "A student's attendance records, newest first (staff in reach, the student, a linked guardian)",
                 query: APIParameter.paging + range, response: .of(APIPage<RecordItem>.self)) { request in
            try await records(request, student: try request.parameter("studentId"), childrenOnly: false)
        }
    }

    private static var childRecords: APIRoute {
        APIRoute(.get, "/api/mobile/guardian/children/:childId/attendance", summary: "A guardian's child's attendance records, newest first",
                 query: APIParameter.paging + range, response: .of(APIPage<RecordItem>.self)) { request in
            try await records(request, student: try request.parameter("childId"), childrenOnly: true)
        }
    }

    private static func records(_ request: APIRequest, student: String, childrenOnly: Bool) async throws -> APIResponse {
        let paging = try request.paging(defaultPerPage: 50)
        let output = try await request.run(AttendanceRecords.self, .init(
            student: student, from: try request.queryDate("from")?.description, to: try request.queryDate("to")?.description,
            offset: paging.offset, limit: paging.perPage, childrenOnly: childrenOnly))
        let language = request.language
        return try .json(APIPage(data: output.records.map { RecordItem($0, language) }, total: output.total, paging: paging))
    }

    /// One record; the keys with nothing to say are written as null.
    struct RecordItem: Codable, Sendable {
        let id: String
        let date: Date
        let status: AttendanceStatus
        let notes: Nullable<String>
        let method: String
        let checkInTime: Nullable<Date>
        let checkOutTime: Nullable<Date>
        let periodName: Nullable<String>
        let section: String
        let grade: Nullable<String>

        init(_ line: AttendanceRecords.Line, _ language: Language) {
            id = line.id
            date = AttendanceRoutes.instant(line.date)
            status = line.status
            notes = Nullable(line.notes)
            method = line.method
            // A QR check-in is the moment the student checked in; a register has no such moment.
            checkInTime = Nullable(line.method == AttendanceMethod.qrCode.rawValue ? line.markedAt : nil)
            checkOutTime = Nullable(nil)
            periodName = Nullable(line.periodName?.text(in: language))
            section = line.className.text(in: language)
            grade = Nullable(line.yearLevelName?.text(in: language))
        }
    }

    /// The register of a class on a day: one read through `attendance.register`, as the teacher
    /// who takes it sees it (a benchmark route: nothing else is read).
    private static var classRegister: APIRoute {
        APIRoute(.get, "/api/mobile/attendance/class/:classId", summary: "A class's register on a day (default today in the school's time zone)",
                 query: [APIParameter("date", .date), APIParameter("period", .string(maxLength: TextLimit.name))],
                 response: .of(RegisterAnswer.self)) { request in
            let register = try await request.run(ClassRegister.self, .init(
                classID: try request.parameter("classId"), date: try request.queryDate("date")?.description,
                period: try request.queryText("period", maxLength: TextLimit.name)))
            return APIResponse(status: 200, body: RegisterAnswer.json(register))
        }
    }

    /// The register's body. The route writes it by hand (`json`): it is a benchmark route, and
    /// `Encodable` was a seventh of its CPU. This type is its shape, for the schema, and what
    /// `APIResponse.json` would write, which a test compares with the hand-written bytes.
    struct RegisterAnswer: Codable, Sendable {
        struct Line: Codable, Sendable {
            let studentId: String
            let studentName: String
            /// The register reads no photos (a benchmark route): always null.
            let photoUrl: Nullable<String>
            let status: Nullable<AttendanceStatus>
            let notes: Nullable<String>
        }

        let date: Date
        let sectionId: String
        let totalStudents: Int
        let marked: Int
        let data: [Line]

        init(_ register: ClassRegister.Output) {
            date = AttendanceRoutes.instant(register.date)
            sectionId = register.classID
            totalStudents = register.lines.count
            marked = register.lines.count { $0.status != nil }
            data = register.lines.map { Line(studentId: $0.studentID, studentName: $0.name, photoUrl: Nullable(nil), status: Nullable($0.status),
                                             notes: Nullable($0.notes)) }
        }

        /// The same JSON as `APIResponse.json(RegisterAnswer(register))`, written with Core's `JSONBuilder`.
        static func json(_ register: ClassRegister.Output) -> Data {
            var json = JSONBuilder(capacity: 128 + register.lines.count * 140)
            json.raw(#"{"date":"#)
            json.date(AttendanceRoutes.instant(register.date))
            json.raw(#","section_id":"#)
            json.string(register.classID)
            json.raw(#","total_students":"#)
            json.integer(register.lines.count)
            json.raw(#","marked":"#)
            json.integer(register.lines.count { $0.status != nil })
            json.raw(#","data":["#)
            for (index, line) in register.lines.enumerated() {
                json.raw(index == 0 ? #"{"student_id":"# : #",{"student_id":"#)
                json.string(line.studentID)
                json.raw(#","student_name":"#)
                json.string(line.name)
                json.raw(#","photo_url":null,"status":"#)
                json.string(line.status?.rawValue)
                json.raw(#","notes":"#)
                json.string(line.notes)
                json.raw("}")
            }
            json.raw("]}")
            return json.data
        }
    }

    /// A student's counts; `excused` includes the sick days.
    struct SummaryAnswer: Codable, Sendable {
        let total: Int
        let present: Int
        let absent: Int
        let late: Int
        let excused: Int
        let percentage: Double
    }

    private static var summary: APIRoute {
        APIRoute(.get, "/api/mobile/attendance/summary/:studentId", summary: "A student's attendance counts and rate",
                 response: .of(SummaryAnswer.self)) { request in
            let summary = try await request.run(AttendanceSummary.self, .init(student: try request.parameter("studentId")))
            let totals = summary.totals
            return try .json(SummaryAnswer(total: totals.counted, present: totals.present, absent: totals.absent, late: totals.late,
                                           excused: totals.excused + totals.sick, percentage: percentage(summary.rate)))
        }
    }

    // MARK: Dashboard

    /// A student's own rate on their dashboard.
    static var dashboard: DashboardContribution {
        DashboardContribution(fields: [("attendance_percentage", .number)]) { request in
            guard request.principal.role == .student else { return [:] }
            do {
                return ["attendance_percentage": .double(percentage(try await request.run(AttendanceSummary.self, .init()).rate))]
            } catch StudentsError.noLinkedStudent {
                return [:] // an account no student record is linked to has no rate to show
            }
        }
    }

    /// Today's records across the school, for administrators.
    static var adminStats: DashboardContribution {
        DashboardContribution(fields: [("today_attendance_count", .integer(minimum: 0)), ("today_present_count", .integer(minimum: 0)),
                                       ("today_attendance_rate", .number)]) { request in
            let today = try await request.run(AttendanceToday.self, .init())
            return ["today_attendance_count": .int(today.totals.counted), "today_present_count": .int(today.totals.present + today.totals.late),
                    "today_attendance_rate": .double(percentage(today.rate))]
        }
    }

    // MARK: Shared

    /// The rate as the API writes it: two decimals, cut (never rounded up into a better band), 0 when nothing counts.
    static func percentage(_ rate: Double?) -> Double {
        guard let rate else { return 0 }
        return (rate * 100).rounded(.down) / 100
    }

    /// A day as the web app writes a date column: midnight UTC (`2026-11-22T00:00:00.000Z`).
    static func instant(_ date: CivilDate) -> Date {
        Date(timeIntervalSince1970: TimeInterval(date.dayNumber) * 86_400)
    }

    /// A day in a body: `YYYY-MM-DD`, or an ISO time whose date part is taken (the web app cut it to midnight).
    static func day(_ text: String?, field: String) throws -> String? {
        guard let text, !text.isEmpty else { return nil }
        if CivilDate(text) != nil { return text }
        let day = String(text.prefix(10))
        let time = (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)) ?? (try? Date.ISO8601FormatStyle().parse(text))
        guard text.dropFirst(10).first == "T", CivilDate(day) != nil, time != nil else {
            throw APIError.invalidField(field, reason: "expected a date YYYY-MM-DD")
        }
        return day
    }

    /// A text field checked with the CLI's limits: 400 naming the field.
    static func check(_ value: String?, _ field: String, maxLength: Int, multiline: Bool = false) throws {
        guard let value else { return }
        switch TextInput.problem(in: value, maxLength: maxLength, multiline: multiline) {
        case nil: return
        case "kernel.error.text-too-long": throw APIError.invalidField(field, reason: "longer than \(maxLength) characters")
        case "kernel.error.text-invalid-utf8": throw APIError.invalidField(field, reason: "not valid UTF-8")
        default: throw APIError.invalidField(field, reason: "contains a control character")
        }
    }

    /// One of this module's errors with another HTTP status than its exit status gives (410 for an expired code).
    static func error(_ error: AttendanceError, status: Int, details: [APIErrorDetail] = []) -> APIError {
        let code = error.messageKey.replacingOccurrences(of: ".error.", with: ".").replacingOccurrences(of: ".", with: "_")
            .replacingOccurrences(of: "-", with: "_").uppercased()
        return APIError(status: status, code: code, messageKey: error.messageKey, arguments: error.messageArguments, details: details)
    }
}
