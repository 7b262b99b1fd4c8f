import Core

public enum StudentsError: HogwartsError, Equatable {
    case unknownStudent(String)
    case notVisible(String)
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

    public var messageKey: String {
        switch self {
        case .unknownStudent: "students.error.unknown-student"
        case .notVisible: "students.error.not-visible"
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
        }
    }

    public var messageArguments: [String: String] {
        switch self {
        case .unknownStudent(let value), .notVisible(let value), .grNumberTaken(let value), .unknownClass(let value),
             .unknownSubject(let value), .unknownYearLevel(let value), .unknownTeacher(let value), .codeTaken(let value),
             .unknownStudentAccount(let value):
            ["value": value]
        case .classFull(let code, let capacity): ["value": code, "capacity": String(capacity)]
        case .invalidImport(let problems): ["count": String(problems.count)]
        case .noSchoolYear: [:]
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .unknownStudent, .unknownClass, .unknownSubject, .unknownYearLevel, .unknownTeacher, .unknownStudentAccount: .notFound
        case .notVisible: .permissionDenied
        case .grNumberTaken, .classFull, .codeTaken: .conflict
        case .noSchoolYear: .configuration
        case .invalidImport: .invalidData
        }
    }
}

/// One bad cell of an import: where, what and why.
public struct ImportProblem: Codable, Sendable, Equatable {
    public let row: Int
    public let column: String
    public let reason: String
}
