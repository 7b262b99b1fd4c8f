import Core
import Crypto
import Foundation
import Students

/// A short-lived check-in code: `<window>.<signature>`, signed with the school's own secret so a
/// code cannot be made up or carried to another class. The expiry lives with the window.
enum CheckInCode {
    static func secret(_ context: ActionContext) throws -> SymmetricKey {
        if let stored: String = try context.database.fetchValue("SELECT secret FROM attendance_secrets WHERE school_id = :school_id") {
            return SymmetricKey(data: Data(stored.utf8))
        }
        let fresh = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0).base64EncodedString() }
        try context.database.insert(into: "attendance_secrets", ["secret": .text(fresh), "created_at": SQLValue(context.now)])
        return SymmetricKey(data: Data(fresh.utf8))
    }

    static func signature(window: String, expires: String, key: SymmetricKey) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data("\(window)|\(expires)".utf8), using: key)
        return mac.prefix(8).map { String(format: "%02x", $0) }.joined()
    }
}

/// Opens a check-in window for a class and period; returns the code to show as a QR.
public struct OpenCheckIn: Action {
    public struct Input: Codable, Sendable {
        public var classCode: String
        public var period: String?
        public init(classCode: String, period: String? = nil) {
            self.classCode = classCode
            self.period = period
        }
    }

    public struct Output: Codable, Sendable {
        public let code: String
        public let classCode: String
        public let period: String
        public let expiresAt: Date
    }

    public static let id = "attendance.open-check-in"
    public static let permission = AttendancePermissions.mark

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        try ClassAccess.require(classID: try Roster.classID(code: input.classCode, context), code: input.classCode, context)
        _ = try ClassSession.period(input.period, context)
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Output {
        let classID = try Roster.classID(code: input.classCode, context)
        let period = try ClassSession.period(input.period, context)
        let today = context.today
        // Late counts from the period's start where the timetable knows it, else from now.
        var lateFrom = context.now
        if period != AttendancePeriod.wholeDay, context.enabledModules.contains("timetable"),
           let start: String = try context.database.fetchValue("SELECT starts_at FROM timetable_periods WHERE school_id = :school_id AND code = :code", ["code": .text(period)]),
           let startOfPeriod = Self.moment(today, start, context.timeZone) {
            lateFrom = startOfPeriod
        }
        let lateAfter = lateFrom.addingTimeInterval(Double(try context.setting(AttendanceSettings.lateThreshold) * 60))
        let expiresAt = context.now.addingTimeInterval(Double(try context.setting(AttendanceSettings.checkInMinutes) * 60))
        let window = String(context.newID().replacingOccurrences(of: "-", with: "").prefix(10))
        try context.database.insert(into: "attendance_check_in_windows", [
            "id": .text(window), "class_id": .text(classID), "date": .text(today.description), "period": .text(period),
            "opened_by": .text(context.principal.userID), "opened_at": SQLValue(context.now), "late_after": SQLValue(lateAfter),
            "expires_at": SQLValue(expiresAt),
        ])
        let signature = CheckInCode.signature(window: window, expires: SQLValue(expiresAt).text, key: try CheckInCode.secret(context))
        return Output(code: "\(window).\(signature)", classCode: input.classCode, period: period, expiresAt: expiresAt)
    }

    static func moment(_ day: CivilDate, _ time: String, _ zone: TimeZone) -> Date? {
        let parts = day.description.split(separator: "-").compactMap { Int($0) } + time.split(separator: ":").compactMap { Int($0) }
        guard parts.count == 5 else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: parts[3], minute: parts[4]))
    }
}

/// A signed-in student checks in with a code: PRESENT, or LATE after the school's threshold.
/// An expired, forged or other-class code is refused; checking in twice changes nothing.
public struct CheckIn: Action {
    public struct Input: Codable, Sendable {
        public var code: String
        public init(code: String) { self.code = code }
    }

    public struct Output: Codable, Sendable, Equatable {
        public let status: AttendanceStatus
        public let classCode: String
        public let alreadyCheckedIn: Bool
    }

    public static let id = "attendance.check-in"
    public static let permission = AttendancePermissions.checkIn

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        _ = try resolve(input.code, context)
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Output {
        let (window, member, classCode) = try resolve(input.code, context)
        if let status = member.status, [.present, .late].contains(status) {
            return Output(status: status, classCode: classCode, alreadyCheckedIn: true)
        }
        let lateAfter: Date? = window["late_after"]
        let status: AttendanceStatus = context.now > (lateAfter ?? context.now) ? .late : .present
        _ = try RecordWriter.write(student: member, status: status, classID: window.string("class_id"), classCode: classCode,
                                   date: CivilDate(window.string("date")) ?? CivilDate(dayNumber: 0), period: window.string("period"),
                                   method: .qrCode, notes: nil, context)
        return Output(status: status, classCode: classCode, alreadyCheckedIn: false)
    }

    private func resolve(_ code: String, _ context: ActionContext) throws -> (SQLRow, ClassSession.Member, String) {
        let parts = code.trimmingCharacters(in: .whitespaces).split(separator: ".")
        guard parts.count == 2,
              let window = try context.database.fetchOne(
                "SELECT w.*, c.code AS class_code FROM attendance_check_in_windows w JOIN students_classes c ON c.school_id = w.school_id AND c.id = w.class_id WHERE w.school_id = :school_id AND w.id = :id",
                ["id": .text(String(parts[0]))])
        else { throw AttendanceError.codeInvalid }
        let expected = CheckInCode.signature(window: String(parts[0]), expires: window.string("expires_at"), key: try CheckInCode.secret(context))
        guard expected == String(parts[1]) else { throw AttendanceError.codeInvalid }
        guard let expiresAt: Date = window["expires_at"], context.now <= expiresAt else { throw AttendanceError.codeExpired }
        guard let studentID: String = try context.database.fetchValue(
            "SELECT id FROM students_students WHERE school_id = :school_id AND user_id = :me AND archived_at IS NULL", ["me": .text(context.principal.userID)])
        else { throw AttendanceError.notAStudent }
        let session = try ClassSession(classCode: window.string("class_code"), date: window.string("date"), period: window.string("period"), context)
        guard let member = session.members.first(where: { $0.studentID == studentID }) else { throw AttendanceError.codeOtherClass }
        return (window, member, window.string("class_code"))
    }
}

extension SQLValue {
    /// The text of a text value, for signing exactly what is stored.
    var text: String {
        if case .text(let value) = self { return value }
        return ""
    }
}
