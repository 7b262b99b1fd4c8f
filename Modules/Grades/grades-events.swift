import Core

/// Results of an assessment were entered; notifications tell the students and their guardians.
public struct ResultsPublished: DomainEvent {
    public static let name = "grades.results-published"
    public let assessmentCode: String
    public let title: String
    public let classCode: String
    public let subjectCode: String
    public let studentIDs: [String]
}

/// A term's report card was published for a student.
public struct ReportCardPublished: DomainEvent {
    public static let name = "grades.report-card-published"
    public let studentID: String
    public let grNumber: String
    public let term: String
}
