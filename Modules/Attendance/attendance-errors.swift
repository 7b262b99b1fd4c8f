import Core

public enum AttendanceError: HogwartsError, Equatable {
    case notInClass(String, String)
    case duplicateMark(String)
    case futureDate(String)
    case outsideEditWindow(String, Int)
    case unknownPeriod(String)
    case invalidDate(String)
    case noRecord(String, String)
    case notExcusable(String)
    case excuseExists
    case unknownExcuse(String)
    case alreadyDecided(String)
    case codeExpired
    case codeInvalid
    case codeOtherClass
    case notAStudent
    case invalidFile(String)
    case outsideSchoolYear(String)
    case invalidRegistersFile(String)
    /// Student ids that name no student of this school (the API's bulk marking names them all).
    case unknownStudents([String])
    /// A student with no class this school year: there is no register to mark them in.
    case noClass(String)
    case unknownRecord(String)
    case notAGuardian
    case checkInFull(Int)
    case invalidCheckInMinutes(Int)
    case invalidMaxScans(Int)
    case invalidAttachment(String)
    case tooManyAttachments(Int)
    /// A card check-in names its class twice or not at all.
    case oneClass
    /// ID cards are off for this school (or not installed): no card can be read.
    case cardsOff
    /// Not a card this school signed, changed, expired, or its holder's account is not active.
    case cardInvalid
    /// A valid card whose holder is not a student of this class (never named).
    case cardNotInClass(String)

    public var messageKey: String {
        switch self {
        case .notInClass: "attendance.error.not-in-class"
        case .duplicateMark: "attendance.error.duplicate-mark"
        case .futureDate: "attendance.error.future-date"
        case .outsideEditWindow: "attendance.error.outside-edit-window"
        case .unknownPeriod: "attendance.error.unknown-period"
        case .invalidDate: "attendance.error.invalid-date"
        case .noRecord: "attendance.error.no-record"
        case .notExcusable: "attendance.error.not-excusable"
        case .excuseExists: "attendance.error.excuse-exists"
        case .unknownExcuse: "attendance.error.unknown-excuse"
        case .alreadyDecided: "attendance.error.already-decided"
        case .codeExpired: "attendance.error.code-expired"
        case .codeInvalid: "attendance.error.code-invalid"
        case .codeOtherClass: "attendance.error.code-other-class"
        case .notAStudent: "attendance.error.not-a-student"
        case .invalidFile: "attendance.error.invalid-file"
        case .outsideSchoolYear: "attendance.error.outside-school-year"
        case .invalidRegistersFile: "attendance.error.invalid-registers-file"
        case .unknownStudents: "attendance.error.unknown-students"
        case .noClass: "attendance.error.no-class"
        case .unknownRecord: "attendance.error.unknown-record"
        case .notAGuardian: "attendance.error.not-a-guardian"
        case .checkInFull: "attendance.error.check-in-full"
        case .invalidCheckInMinutes: "attendance.error.invalid-check-in-minutes"
        case .invalidMaxScans: "attendance.error.invalid-max-scans"
        case .invalidAttachment: "attendance.error.invalid-attachment"
        case .tooManyAttachments: "attendance.error.too-many-attachments"
        case .oneClass: "attendance.error.one-class"
        case .cardsOff: "attendance.error.cards-off"
        case .cardInvalid: "attendance.error.card-invalid"
        case .cardNotInClass: "attendance.error.card-not-in-class"
        }
    }

    public var messageArguments: [String: String] {
        switch self {
        case .duplicateMark(let value), .futureDate(let value), .unknownPeriod(let value),
             .invalidDate(let value), .notExcusable(let value), .unknownExcuse(let value), .alreadyDecided(let value), .invalidFile(let value),
             .outsideSchoolYear(let value), .invalidRegistersFile(let value), .noClass(let value), .unknownRecord(let value),
             .invalidAttachment(let value), .cardNotInClass(let value):
            ["value": value]
        case .unknownStudents(let ids): ["value": ids.joined(separator: ", "), "count": String(ids.count)]
        case .checkInFull(let count), .invalidCheckInMinutes(let count), .invalidMaxScans(let count), .tooManyAttachments(let count): ["value": String(count)]
        case .notInClass(let student, let classCode): ["student": student, "class": classCode]
        case .outsideEditWindow(let date, let days): ["value": date, "days": String(days)]
        case .noRecord(let student, let date): ["student": student, "value": date]
        default: [:]
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .notAStudent, .outsideEditWindow, .notAGuardian: .permissionDenied
        case .unknownPeriod, .noRecord, .unknownExcuse, .unknownStudents, .unknownRecord, .cardInvalid: .notFound
        case .excuseExists, .alreadyDecided, .checkInFull: .conflict
        default: .invalidData
        }
    }
}
