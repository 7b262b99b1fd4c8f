import Core

/// A student was marked ABSENT (newly: re-marking an absence raises nothing). Notifications tell the guardians.
public struct StudentMarkedAbsent: DomainEvent {
    public static let name = "attendance.student-marked-absent"
    public let studentID: String
    public let grNumber: String
    public let studentName: String
    public let classCode: String
    public let date: String
    public let period: String
}

/// An excuse was approved or rejected. Notifications tell whoever submitted it.
public struct ExcuseDecided: DomainEvent {
    public static let name = "attendance.excuse-decided"
    public let excuseID: String
    public let studentID: String
    public let grNumber: String
    public let date: String
    public let approved: Bool
    public let submittedBy: String
}
