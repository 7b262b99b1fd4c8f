import Core
import Foundation

/// QR check-in over the API: a teacher opens a window (`attendance.open-check-in`), a student
/// scans its code (`attendance.check-in`). The contract's statuses: an unknown or forged code
/// 404, a code for another class 403, an expired one 410, a full window or a second scan 409.
extension AttendanceRoutes {
    static var checkIn: [APIRoute] { [openWindow, scan, cardScan] }

    static let maximumScans = 10_000

    struct OpenBody: Decodable {
        let classId: String
        let durationMinutes: Int?
        let maxScans: Int?
        let period: String?
    }

    struct ScanBody: Decodable {
        let code: String
    }

    private static var openWindow: APIRoute {
        let range = AttendanceSettings.checkInRange
        let body: APISchema = .object([
            ("class_id", .id), ("duration_minutes", .optional(.integer(minimum: range.lowerBound, maximum: range.upperBound))),
            ("max_scans", .optional(.integer(minimum: 1, maximum: maximumScans))), ("period", .optional(.string(maxLength: TextLimit.name))),
        ])
        return APIRoute(.post, "/api/mobile/attendance/qr", summary: "Opens a QR check-in window for a class (default length: the school's setting)",
                        body: body, status: 201, response: .of(WindowAnswer.self)) { request in
            let body = try request.decode(OpenBody.self)
            try check(body.classId, "class_id", maxLength: TextLimit.name)
            try check(body.period, "period", maxLength: TextLimit.name)
            if let minutes = body.durationMinutes, !range.contains(minutes) {
                throw APIError.invalidField("duration_minutes", reason: "expected a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            if let maxScans = body.maxScans, !(1...maximumScans).contains(maxScans) {
                throw APIError.invalidField("max_scans", reason: "expected a whole number from 1 to \(maximumScans)")
            }
            let window = try await request.run(OpenCheckIn.self, .init(classID: body.classId, period: body.period, minutes: body.durationMinutes,
                                                                        maxScans: body.maxScans))
            return try .json(WindowAnswer(id: window.window, code: window.code, classId: window.classID, expiresAt: window.expiresAt,
                                          maxScans: Nullable(window.maxScans)), status: 201)
        }
    }

    /// An open window; `max_scans` is null when any number of students may scan.
    struct WindowAnswer: Codable, Sendable {
        let id: String
        let code: String
        let classId: String
        let expiresAt: Date
        let maxScans: Nullable<Int>
    }

    private static var scan: APIRoute {
        APIRoute(.post, "/api/mobile/attendance/qr/scan", summary: "A student checks in with a QR code: PRESENT, or LATE after the school's threshold",
                 body: .object([("code", .string(maxLength: TextLimit.name))]),
                 response: .of(ScanAnswer.self)) { request in
            let body = try request.decode(ScanBody.self)
            try check(body.code, "code", maxLength: TextLimit.name)
            let result: CheckIn.Output
            do {
                result = try await request.run(CheckIn.self, .init(code: body.code))
            } catch let refusal as AttendanceError {
                switch refusal {
                case .codeInvalid: throw error(refusal, status: 404)
                case .codeOtherClass: throw error(refusal, status: 403)
                case .codeExpired: throw error(refusal, status: 410)
                default: throw refusal
                }
            }
            // Checking in twice changes nothing (the command line says so); the contract answers 409.
            guard !result.alreadyCheckedIn else {
                throw APIError(status: 409, code: "ATTENDANCE_ALREADY_CHECKED_IN", messageKey: "attendance.error.already-checked-in",
                               arguments: ["status": result.status.rawValue, "class": result.classCode])
            }
            return try .json(ScanAnswer(success: true, studentId: result.studentID, status: result.status))
        }
    }

    struct ScanAnswer: Codable, Sendable {
        let success: Bool
        let studentId: String
        let status: AttendanceStatus
    }

    struct CardBody: Decodable {
        let classId: String
        let qrPayload: String
        let period: String?
    }

    /// A teacher's or the office's scanner reads a student's ID card (`CheckInByCard`).
    private static var cardScan: APIRoute {
        let body: APISchema = .object([
            ("class_id", .id), ("qr_payload", .string(maxLength: CheckInByCard.payloadLimit)), ("period", .optional(.string(maxLength: TextLimit.name))),
        ])
        return APIRoute(.post, "/api/v1/attendance/card-check-in",
                        summary: "Checks a student in by their ID card's QR payload: PRESENT, or LATE if the register already marked them",
                        body: body, response: .of(CardAnswer.self)) { request in
            let body = try request.decode(CardBody.self)
            try check(body.classId, "class_id", maxLength: TextLimit.name)
            try check(body.qrPayload, "qr_payload", maxLength: CheckInByCard.payloadLimit)
            try check(body.period, "period", maxLength: TextLimit.name)
            let result = try await request.run(CheckInByCard.self, .init(classID: body.classId, period: body.period, payload: body.qrPayload))
            return try .json(CardAnswer(studentId: result.studentID, grNumber: result.grNumber, name: result.name, classId: result.classID,
                                        status: result.status, alreadyCheckedIn: result.alreadyCheckedIn))
        }
    }

    struct CardAnswer: Codable, Sendable {
        let studentId: String
        let grNumber: String
        let name: String
        let classId: String
        let status: AttendanceStatus
        let alreadyCheckedIn: Bool
    }
}
