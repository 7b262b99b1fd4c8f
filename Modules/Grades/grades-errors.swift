import Core

public enum GradesError: HogwartsError, Equatable {
    case scaleMalformed(String)
    case scaleOutOfRange(String)
    case scalePoints(String)
    case scaleGap(from: Double, to: Double)
    case scaleOverlap(String, String)
    case scaleDuplicateLetter(String)
    case unknownAssessment(String)
    case unknownTerm(String)
    case unknownSubject(String)
    case notYourSubject(classCode: String, subjectCode: String)
    case invalidMarks(String)
    case invalidResults([ResultProblem])
    case notPublished(String)
    case invalidWeights(String)
    case invalidDate(String)
    case invalidFile(String)
    /// A report card id (`<studentId>_<termId>`) that names no card this school has.
    case unknownReportCard(String)
    case noResults
    /// An offline entry for a term whose report cards are published: the server's marks stand.
    case resultsLocked(String)
    /// An offline entry that names a student by list position, which may have moved meanwhile.
    case offlineNeedsStudentID

    public var messageKey: String {
        switch self {
        case .scaleMalformed: "grades.error.scale-malformed"
        case .scaleOutOfRange: "grades.error.scale-out-of-range"
        case .scalePoints: "grades.error.scale-points"
        case .scaleGap: "grades.error.scale-gap"
        case .scaleOverlap: "grades.error.scale-overlap"
        case .scaleDuplicateLetter: "grades.error.scale-duplicate-letter"
        case .unknownAssessment: "grades.error.unknown-assessment"
        case .unknownTerm: "grades.error.unknown-term"
        case .unknownSubject: "grades.error.unknown-subject"
        case .notYourSubject: "grades.error.not-your-subject"
        case .invalidMarks: "grades.error.invalid-marks"
        case .invalidResults: "grades.error.invalid-results"
        case .notPublished: "grades.error.not-published"
        case .invalidWeights: "grades.error.invalid-weights"
        case .invalidDate: "grades.error.invalid-date"
        case .invalidFile: "grades.error.invalid-file"
        case .unknownReportCard: "grades.error.unknown-report-card"
        case .noResults: "grades.error.no-results"
        case .resultsLocked: "grades.error.results-locked"
        case .offlineNeedsStudentID: "grades.error.offline-student-id"
        }
    }

    public var messageArguments: [String: String] {
        switch self {
        case .scaleMalformed(let value), .scaleOutOfRange(let value), .scalePoints(let value), .scaleDuplicateLetter(let value), .unknownAssessment(let value),
             .unknownTerm(let value), .unknownSubject(let value), .invalidMarks(let value), .notPublished(let value),
             .invalidWeights(let value), .invalidDate(let value), .invalidFile(let value), .unknownReportCard(let value),
             .resultsLocked(let value):
            ["value": value]
        case .scaleGap(let from, let to): ["from": GradeScale.number(from), "to": GradeScale.number(to)]
        case .scaleOverlap(let first, let second): ["first": first, "second": second]
        case .invalidResults(let problems): ["count": String(problems.count)]
        case .notYourSubject(let classCode, let subjectCode): ["class": classCode, "subject": subjectCode]
        case .noResults, .offlineNeedsStudentID: [:]
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .unknownAssessment, .unknownTerm, .unknownSubject, .unknownReportCard: .notFound
        case .notYourSubject, .notPublished: .permissionDenied
        case .resultsLocked: .conflict
        default: .invalidData
        }
    }
}

/// One bad row of a results batch: where, who and why.
public struct ResultProblem: Codable, Sendable, Equatable {
    public let row: Int
    public let student: String
    public let reason: String
}
