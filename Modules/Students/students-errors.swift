import Core

public enum StudentsError: HogwartsError, Equatable {
    case unknownStudent(String)
    case grNumberTaken(String)
    case unknownClass(String)
    case unknownSubject(String)
    case unknownYearLevel(String)
    case unknownTeacher(String)
    case unknownStudentAccount(String)
    case noSchoolYear
    case classFull(String, Int)
    case codeTaken(String)
    case invalidImport([ImportProblem])
    /// A personal read (history, results) by someone who is neither the student nor a guardian: name one.
    case chooseStudent
    /// A guardian with several children: name one of them.
    case chooseChild([String])
    /// A student or guardian account that no student record is linked to.
    case noLinkedStudent
    /// A guardian's read (their children) by someone who is not a guardian.
    case notAGuardian
    /// A teacher's read (their classes) by a student or guardian.
    case notATeacher

    public var messageKey: String {
        switch self {
        case .unknownStudent: "students.error.unknown-student"
        case .grNumberTaken: "students.error.gr-taken"
        case .unknownClass: "students.error.unknown-class"
        case .unknownSubject: "students.error.unknown-subject"
        case .unknownYearLevel: "students.error.unknown-year-level"
        case .unknownTeacher: "students.error.unknown-teacher"
        case .unknownStudentAccount: "students.error.unknown-student-account"
        case .noSchoolYear: "students.error.no-school-year"
        case .classFull: "students.error.class-full"
        case .codeTaken: "students.error.code-taken"
        case .invalidImport: "students.error.invalid-import"
        case .chooseStudent: "students.error.choose-student"
        case .chooseChild: "students.error.choose-child"
        case .noLinkedStudent: "students.error.no-linked-student"
        case .notAGuardian: "students.error.not-a-guardian"
        case .notATeacher: "students.error.not-a-teacher"
        }
    }

    public var messageArguments: [String: String] {
        switch self {
        case .unknownStudent(let value), .grNumberTaken(let value), .unknownClass(let value),
             .unknownSubject(let value), .unknownYearLevel(let value), .unknownTeacher(let value), .codeTaken(let value),
             .unknownStudentAccount(let value):
            ["value": value]
        case .classFull(let code, let capacity): ["value": code, "capacity": String(capacity)]
        case .invalidImport(let problems): ["count": String(problems.count)]
        case .chooseChild(let children): ["children": children.joined(separator: ", ")]
        case .noSchoolYear, .chooseStudent, .noLinkedStudent, .notAGuardian, .notATeacher: [:]
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .unknownStudent, .unknownClass, .unknownSubject, .unknownYearLevel, .unknownTeacher, .unknownStudentAccount: .notFound
        case .grNumberTaken, .classFull, .codeTaken: .conflict
        case .noSchoolYear: .configuration
        case .invalidImport: .invalidData
        case .chooseStudent, .chooseChild: .usage
        case .noLinkedStudent: .notFound
        case .notAGuardian, .notATeacher: .permissionDenied
        }
    }
}

/// One bad cell of an import: where, what and why.
public struct ImportProblem: Codable, Sendable, Equatable {
    public let row: Int
    public let column: String
    public let reason: String
}
