import Core

// The events Notifications reacts to, as their publishers write them. Notifications reads the
// payloads by name and shape instead of importing the publishing modules, so a school can switch
// Attendance, Grades, Messages or Announcements off without losing notifications; NotificationsTests checks each
// contract against the publisher's own type.

struct AbsenceRecorded: DomainEvent, Equatable {
    static let name = "attendance.student-marked-absent"
    let studentID: String
    let grNumber: String
    let studentName: String
    let classCode: String
    let date: String
    let period: String
}

struct ExcuseOutcome: DomainEvent, Equatable {
    static let name = "attendance.excuse-decided"
    let excuseID: String
    let studentID: String
    let grNumber: String
    let date: String
    let approved: Bool
    let submittedBy: String
}

struct AssessmentResults: DomainEvent, Equatable {
    static let name = "grades.results-published"
    let assessmentCode: String
    let title: String
    let classCode: String
    let subjectCode: String
    let studentIDs: [String]
}

struct ReportCardReady: DomainEvent, Equatable {
    static let name = "grades.report-card-published"
    let studentID: String
    let grNumber: String
    let term: String
}

struct MessageArrived: DomainEvent, Equatable {
    static let name = "messages.message-sent"
    let conversationID: String
    let conversationTitle: String
    let kind: String
    let messageID: String
    let senderName: String
    let preview: String
    let recipients: [String]
}

struct AnnouncementPosted: DomainEvent, Equatable {
    static let name = "announcements.published"
    let announcementID: String
    let title: String
    let priority: String
    let authorName: String
    let recipients: [String]
}

/// Fees' `FeeReminderDue`: a child's fees fall due soon (`upcoming`) or are overdue.
struct FeeReminder: DomainEvent, Equatable {
    static let name = "fees.reminder-due"
    let studentID: String
    let grNumber: String
    let studentName: String
    let kind: String
    let amount: String
    let dueOn: String
    let items: [String]
    let recipients: [String]
}
