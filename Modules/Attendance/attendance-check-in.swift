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
        /// The class by code (the command line) or by id (the API's `class_id`); one of them.
        public var classCode: String?
        public var classID: String?
        public var period: String?
        /// How long the code stays valid (1 to 30 minutes); nil: the school's `check-in-minutes`.
        public var minutes: Int?
        /// How many students may check in with it; nil: no limit.
        public var maxScans: Int?

        public init(classCode: String, period: String? = nil) {
            self.classCode = classCode
            self.period = period
        }

        public init(classID: String, period: String? = nil, minutes: Int? = nil, maxScans: Int? = nil) {
            self.classID = classID
            self.period = period
            self.minutes = minutes
            self.maxScans = maxScans
        }
    }

    public struct Output: Codable, Sendable {
        public let code: String
        /// The window's id (the code's first part).
        public let window: String
        public let classID: String
        public let classCode: String
        public let period: String
        public let expiresAt: Date
        public let maxScans: Int?
    }

    public static let id = "attendance.open-check-in"
    public static let permission = AttendancePermissions.mark

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        let (classID, code) = try Self.target(input, context)
        try ClassAccess.require(classID: classID, named: input.classID ?? code, context)
        _ = try ClassSession.period(input.period, context)
        if let minutes = input.minutes, !AttendanceSettings.checkInRange.contains(minutes) { throw AttendanceError.invalidCheckInMinutes(minutes) }
        if let maxScans = input.maxScans, maxScans < 1 { throw AttendanceError.invalidMaxScans(maxScans) }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Output {
        let (classID, classCode) = try Self.target(input, context)
        let period = try ClassSession.period(input.period, context)
        let today = context.today
        // Late counts from the period's start where the timetable knows it, else from now.
        var lateFrom = context.now
        if period != AttendancePeriod.wholeDay, let start = try TimetablePeriods.byCode(context)?[period]?.startsAt,
           let startOfPeriod = Self.moment(today, start, context.timeZone) {
            lateFrom = startOfPeriod
        }
        let lateAfter = lateFrom.addingTimeInterval(Double(try context.setting(AttendanceSettings.lateThreshold) * 60))
        let minutes = try input.minutes ?? context.setting(AttendanceSettings.checkInMinutes)
        let expiresAt = context.now.addingTimeInterval(Double(minutes * 60))
        // Ten random hex digits, short for a QR code; not a row id's prefix (ids may be time-ordered).
        let digits = String(UInt64.random(in: 0 ..< (1 << 40)), radix: 16)
        let window = String(repeating: "0", count: 10 - digits.count) + digits
        try context.database.insert(into: "attendance_check_in_windows", [
            "id": .text(window), "class_id": .text(classID), "date": .text(today.description), "period": .text(period),
            "opened_by": .text(context.principal.userID), "opened_at": SQLValue(context.now), "late_after": SQLValue(lateAfter),
            "expires_at": SQLValue(expiresAt), "max_scans": SQLValue(input.maxScans),
        ])
        let signature = CheckInCode.signature(window: window, expires: SQLValue(expiresAt).text, key: try CheckInCode.secret(context))
        return Output(code: "\(window).\(signature)", window: window, classID: classID, classCode: classCode, period: period, expiresAt: expiresAt,
                      maxScans: input.maxScans)
    }

    /// The class's id and code, read once per run.
    private static func target(_ input: Input, _ context: ActionContext) throws -> (String, String) {
        if let classID = input.classID { return (classID, try ClassSession.classCode(id: classID, context)) }
        let code = input.classCode ?? ""
        return (try context.remember("attendance.class-id.\(code)") { try Roster.classID(code: code, context) }, code)
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
        public let studentID: String
    }

    public static let id = "attendance.check-in"
    public static let permission = AttendancePermissions.checkIn

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        _ = try resolve(input.code, context)
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Output {
        let (window, member, classCode) = try resolve(input.code, context)
        if member.isCheckedIn, let status = member.status {
            return Output(status: status, classCode: classCode, alreadyCheckedIn: true, studentID: member.studentID)
        }
        let lateAfter: Date? = window["late_after"]
        let status: AttendanceStatus = context.now > (lateAfter ?? context.now) ? .late : .present
        _ = try RecordWriter.write(student: member, status: status, classID: window.string("class_id"), classCode: classCode,
                                   date: CivilDate(window.string("date")) ?? CivilDate(dayNumber: 0), period: window.string("period"),
                                   method: .qrCode, notes: nil, context)
        try context.database.execute("UPDATE attendance_check_in_windows SET scans = scans + 1 WHERE school_id = :school_id AND id = :id",
                                     ["id": .text(window.string("id"))])
        return Output(status: status, classCode: classCode, alreadyCheckedIn: false, studentID: member.studentID)
    }

    private func resolve(_ code: String, _ context: ActionContext) throws -> (SQLRow, ClassSession.Member, String) {
        let parts = code.trimmingCharacters(in: .whitespaces).split(separator: ".")
        guard parts.count == 2,
              let window = try context.database.fetchOne(
                "SELECT w.*, c.code AS class_code FROM attendance_check_in_windows w JOIN students_v1_classes c ON c.school_id = w.school_id AND c.id = w.class_id WHERE w.school_id = :school_id AND w.id = :id",
                ["id": .text(String(parts[0]))])
        else { throw AttendanceError.codeInvalid }
        let expected = CheckInCode.signature(window: String(parts[0]), expires: window.string("expires_at"), key: try CheckInCode.secret(context))
        guard expected == String(parts[1]) else { throw AttendanceError.codeInvalid }
        guard let expiresAt: Date = window["expires_at"], context.now <= expiresAt else { throw AttendanceError.codeExpired }
        guard let studentID: String = try context.database.fetchValue(
            "SELECT id FROM students_v1_students WHERE school_id = :school_id AND user_id = :me AND archived_at IS NULL", ["me": .text(context.principal.userID)])
        else { throw AttendanceError.notAStudent }
        let session = try ClassSession(classID: window.string("class_id"), date: window.string("date"), period: window.string("period"), context)
        guard let member = session.members.first(where: { $0.studentID == studentID }) else { throw AttendanceError.codeOtherClass }
        // A window that caps its scans is full once that many students checked in; one already in changes nothing.
        let alreadyIn = member.isCheckedIn
        if let maxScans: Int = window["max_scans"], window.int("scans") >= maxScans, !alreadyIn { throw AttendanceError.checkInFull(maxScans) }
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
