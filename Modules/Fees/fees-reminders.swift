import Core
import Foundation

/// A child's fees that a guardian should hear about: what falls due within
/// `fees.reminder-days-before` days, or what has just become overdue. One event per child and
/// kind per run, carrying the guardians who have not turned reminders off for that child; the
/// Notifications module turns it into a notification in each one's language and channels.
public struct FeeReminderDue: DomainEvent, Equatable {
    public static let name = "fees.reminder-due"
    public let studentID: String
    public let grNumber: String
    public let studentName: String
    /// `upcoming` (falls due soon) or `overdue`.
    public let kind: String
    /// What is left to pay on the invoices named, formatted in the school's currency (`1,250.00 SAR`).
    public let amount: String
    /// The earliest due date among them (`2026-12-01`).
    public let dueOn: String
    public let items: [String]
    public let recipients: [String]
}

enum FeesReminders {
    /// Open invoices not yet reminded of `kind`: falling due between today and the horizon, or past due.
    static func select(_ kind: String) -> String {
        let window = kind == "upcoming" ? "i.reminded_upcoming_on IS NULL AND i.due_on >= :today AND i.due_on <= :horizon"
                                        : "i.reminded_overdue_on IS NULL AND i.due_on < :today"
        return "\(FeesLedger.invoiceSelect) WHERE i.school_id = :school_id AND i.cancelled_minor = 0 AND \(window) ORDER BY i.student_id, i.due_on, i.id"
    }

    /// The kinds the school sends, each with its invoices still owing something.
    static func due(_ context: ActionContext) throws -> [(kind: String, invoices: [FeeInvoice])] {
        let days = try context.setting(FeesSettings.reminderDaysBefore)
        let arguments: SQLArguments = ["today": .text(context.today.description), "horizon": .text(context.today.adding(days: days).description)]
        var kinds: [String] = []
        if days > 0 { kinds.append("upcoming") }
        if try context.setting(FeesSettings.overdueReminders) { kinds.append("overdue") }
        return try kinds.map { kind in
            (kind, try context.database.fetchAll(select(kind), arguments).map { FeesLedger.invoice($0, today: context.today.description) }
                .filter { $0.outstandingMinor > 0 })
        }
    }

    /// The guardians with an account who have not turned this child's reminders off.
    static func recipients(of studentID: String, _ context: ActionContext) throws -> [String] {
        try context.database.fetchAll("""
            SELECT DISTINCT l.guardian_user_id AS u FROM students_v1_guardian_links l
            WHERE l.school_id = :school_id AND l.student_id = :student AND l.guardian_user_id IS NOT NULL
              AND NOT EXISTS (SELECT 1 FROM fees_reminder_optouts o WHERE o.school_id = l.school_id
                              AND o.student_id = l.student_id AND o.guardian_user_id = l.guardian_user_id)
            ORDER BY u
            """, ["student": .text(studentID)]).map { $0.string("u") }
    }
}

/// Whether any reminder is due: the cheap check `serve` makes before `SendFeeReminders`.
public struct FeeRemindersDue: Action {
    public struct Input: Codable, Sendable { public init() {} }

    public static let id = "fees.reminders-due"
    public static let permission = FeesPermissions.manage
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> Bool {
        try FeesReminders.due(context).contains { !$0.invoices.isEmpty }
    }
}

/// Sends each child's guardians one reminder per kind for the invoices that have come due for
/// one. Each invoice is marked reminded by an update guarded on "not yet", inside the same
/// transaction as the event, so several servers, or the same one every hour, remind once.
public struct SendFeeReminders: Action {
    public struct Input: Codable, Sendable { public init() {} }

    public struct Output: Codable, Sendable, Equatable {
        /// Children whose guardians were reminded, per kind.
        public let upcoming: Int
        public let overdue: Int
    }

    public static let id = "fees.reminders"
    public static let permission = FeesPermissions.manage

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> Output {
        try context.database.serializeWriters(on: "fees.ledger")
        let currency = try FeesLedger.currency(context)
        var sent = ["upcoming": 0, "overdue": 0]
        for (kind, invoices) in try FeesReminders.due(context) {
            let column = kind == "upcoming" ? "reminded_upcoming_on" : "reminded_overdue_on"
            for (studentID, owed) in Dictionary(grouping: invoices, by: \.studentID).sorted(by: { $0.key < $1.key }) {
                var claimed: [FeeInvoice] = []
                for invoice in owed {
                    try context.database.execute("UPDATE fees_invoices SET \(column) = :today WHERE school_id = :school_id AND id = :id AND \(column) IS NULL",
                                                 ["today": .text(context.today.description), "id": .text(invoice.id)])
                    if context.database.changedRowCount == 1 { claimed.append(invoice) }
                }
                let recipients = try FeesReminders.recipients(of: studentID, context)
                guard !claimed.isEmpty, !recipients.isEmpty else { continue }
                let student = try FeesStudents.any(studentID, context)
                try context.publish(FeeReminderDue(
                    studentID: studentID, grNumber: student.grNumber, studentName: student.name, kind: kind,
                    amount: "\(FeesMoney.format(claimed.reduce(0) { $0 + $1.outstandingMinor }, digits: currency.digits)) \(currency.code)",
                    dueOn: claimed.map(\.dueOn).min() ?? "", items: claimed.map(\.label), recipients: recipients))
                sent[kind, default: 0] += 1
            }
        }
        context.auditDetail = "reminded the families of \(sent["upcoming"] ?? 0) children of fees falling due and \(sent["overdue"] ?? 0) of overdue fees"
        return Output(upcoming: sent["upcoming"] ?? 0, overdue: sent["overdue"] ?? 0)
    }
}

/// A guardian turns fee reminders off, or on again, for one of their children. Only the
/// guardian's own children: any other reads as a student that does not exist.
public struct SetFeeReminders: Action {
    public struct Input: Codable, Sendable {
        public var student: String
        public var enabled: Bool
        public init(student: String, enabled: Bool) {
            self.student = student
            self.enabled = enabled
        }
    }

    public struct Output: Codable, Sendable, Equatable {
        public let grNumber: String
        public let name: String
        public let enabled: Bool
    }

    public static let id = "fees.set-reminders"
    public static let permission = FeesPermissions.read

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        try TextInput.check(input.student, field: "student", maxLength: TextLimit.name)
        _ = try FeesStudents.visible(input.student, childOnly: true, context)
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Output {
        let student = try FeesStudents.visible(input.student, childOnly: true, context)
        let arguments: SQLArguments = ["student": .text(student.id), "me": .text(context.principal.userID)]
        try context.database.execute("DELETE FROM fees_reminder_optouts WHERE school_id = :school_id AND student_id = :student AND guardian_user_id = :me", arguments)
        if !input.enabled {
            try context.database.execute("INSERT INTO fees_reminder_optouts (school_id, student_id, guardian_user_id) VALUES (:school_id, :student, :me)", arguments)
        }
        context.auditDetail = "fee reminders \(input.enabled ? "on" : "off") for \(student.grNumber)"
        return Output(grNumber: student.grNumber, name: student.name, enabled: input.enabled)
    }

}

/// Whether the signed-in guardian hears about one of their children's fees.
public struct ShowFeeReminders: Action {
    public struct Input: Codable, Sendable {
        public var student: String
        public init(student: String) { self.student = student }
    }

    public static let id = "fees.show-reminders"
    public static let permission = FeesPermissions.read
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> Bool {
        let student = try FeesStudents.visible(input.student, childOnly: true, context)
        return try context.database.fetchOne("""
            SELECT 1 AS x FROM fees_reminder_optouts WHERE school_id = :school_id AND student_id = :student AND guardian_user_id = :me
            """, ["student": .text(student.id), "me": .text(context.principal.userID)]) == nil
    }
}
