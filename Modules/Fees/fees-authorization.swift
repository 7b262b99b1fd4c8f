import Core

/// Accountants and admins do everything; guardians read their own children's fees; a student
/// reads their own balance only where the school allows it (`fees.students-see-balance`);
/// teachers and staff see nothing of fees.
public enum FeesPermissions {
    public static let read: Permission = "fees.read"
    public static let manage: Permission = "fees.manage"

    static var definitions: [PermissionDefinition] {
        [
            PermissionDefinition(read, summary: LocalizedText(ar: "عرض الرسوم والأرصدة", en: "See fees and balances"), grants: [
                .developer: .school, .admin: .school, .accountant: .school, .guardian: .linkedChildren, .student: .ownRecord,
            ]),
            PermissionDefinition(manage, summary: LocalizedText(ar: "إدارة الرسوم والفواتير والمدفوعات", en: "Manage fees, invoices and payments"),
                                 grants: [.developer: .school, .admin: .school, .accountant: .school]),
        ]
    }
}

public enum FeesSettings {
    /// The school's ISO 4217 currency; amounts are whole minor units of it.
    public static let currency = Setting<String>("fees", "currency", default: "USD", expected: "ISO 4217 code, e.g. SAR") {
        FeesMoney.isCurrencyCode($0)
    }
    /// A student who enrols after a charge's due date: `prorate` (the part of the year still
    /// ahead for a once-a-year charge, nothing for installments already due) or `full`.
    public static let lateEnrolment = Setting<String>.choice("fees", "late-enrolment", default: "prorate", from: ["prorate", "full"])
    /// Whether a student may see their own balance and invoices.
    public static let studentsSeeBalance = Setting<Bool>.flag("fees", "students-see-balance", default: false)

    /// Charged once on an invoice still unpaid `late-fee-grace-days` after it fell due: empty
    /// (none, the default), a fixed amount (`25`) or a percentage of what is still owed (`5%`).
    public static let lateFee = Setting<String>("fees", "late-fee", default: "", expected: "empty for none, an amount such as 25, or a percent such as 5%") {
        FeesLateFee.isWellFormed($0)
    }
    public static let lateFeeGraceDays = Setting<Int>.integer("fees", "late-fee-grace-days", default: 7, in: 0...365, unit: .days)
    /// Guardians hear of a child's fees this many days before they fall due (0: not beforehand).
    public static let reminderDaysBefore = Setting<Int>.integer("fees", "reminder-days-before", default: 7, in: 0...90, unit: .days)
    /// Guardians hear once when a child's fees become overdue.
    public static let overdueReminders = Setting<Bool>.flag("fees", "overdue-reminders", default: true)

    static var definitions: [SettingDefinition] {
        [currency.definition, lateEnrolment.definition, studentsSeeBalance.definition, lateFee.definition, lateFeeGraceDays.definition,
         reminderDaysBefore.definition, overdueReminders.definition]
    }
}
