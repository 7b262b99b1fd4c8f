import Core
import Foundation

/// One student's account (statement): invoices, payments, refunds and the balance. Accountants
/// and admins name anyone; a guardian one of their children (or none, with one child); a student
/// themself, where the school allows it. Anyone else is answered as if there were no such student.
public struct StudentFeeAccount: Action {
    public struct Input: Codable, Sendable {
        /// Id or GR number; a student, or a guardian with one child, may leave it out.
        public var student: String?
        /// Only a guardian may ask, for one of their children (the guardian routes).
        public var childOnly: Bool?

        public init(student: String? = nil, childOnly: Bool? = nil) {
            self.student = student
            self.childOnly = childOnly
        }
    }

    public static let id = "fees.account"
    public static let permission = FeesPermissions.read
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> FeeAccount {
        let student = try FeesStudents.visible(input.student, childOnly: input.childOnly == true, context)
        return try FeesLedger.account(of: student, context)
    }
}

/// The balance of every student the caller may see: a guardian's children, a student themself,
/// the whole school for the accountant (owing first).
public struct FeeBalances: Action {
    public struct Input: Codable, Sendable {
        public init() {}
    }

    public struct Row: Codable, Sendable, Equatable {
        public let studentID: String
        public let grNumber: String
        public let name: String
        public let chargedMinor: Int
        public let paidMinor: Int
        public let balanceMinor: Int
        public let overdueMinor: Int
    }

    public struct Output: Codable, Sendable, Equatable {
        public let currency: String
        public let minorDigits: Int
        public let rows: [Row]
    }

    public static let id = "fees.balances"
    public static let permission = FeesPermissions.read
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> Output {
        try Self.rows(of: try FeesStudents.visibleAll(context), context)
    }

    /// Each of `students`' balance, owing first: for this action and the per-class totals, which
    /// have read the students already.
    static func rows(of students: [FeesStudent], _ context: ActionContext) throws -> Output {
        let (code, digits) = try FeesLedger.currency(context)
        let today = context.today.description
        var charged: [String: Int] = [:], overdue: [String: Int] = [:]
        try context.database.forEachRow("\(FeesLedger.invoiceSelect) WHERE i.school_id = :school_id") { row in
            let invoice = FeesLedger.invoice(row, today: today)
            charged[invoice.studentID, default: 0] += invoice.amountMinor - invoice.cancelledMinor
            if invoice.status == .overdue { overdue[invoice.studentID, default: 0] += invoice.outstandingMinor }
        }
        let entries = try FeesLedger.entryTotals(context.database)
        return Output(currency: code, minorDigits: digits, rows: students.map { student in
            let money = entries[student.id] ?? (0, 0)
            return Row(studentID: student.id, grNumber: student.grNumber, name: student.name, chargedMinor: charged[student.id] ?? 0, paidMinor: money.paid,
                       balanceMinor: (charged[student.id] ?? 0) - money.paid + money.returned, overdueMinor: overdue[student.id] ?? 0)
        }.sorted { ($0.balanceMinor, $1.grNumber) > ($1.balanceMinor, $0.grNumber) })
    }
}

/// The school's invoices, with the student each is for, filtered by status; for the accountant's
/// lists and the CSV export.
public struct ListFeeInvoices: Action {
    public struct Input: Codable, Sendable {
        public var status: FeeInvoiceStatus?
        public init(status: FeeInvoiceStatus? = nil) { self.status = status }
    }

    public struct Row: Codable, Sendable, Equatable {
        public let grNumber: String
        public let name: String
        public let classCode: String?
        public let invoice: FeeInvoice
    }

    public struct Output: Codable, Sendable, Equatable {
        public let currency: String
        public let minorDigits: Int
        public let rows: [Row]
    }

    public static let id = "fees.invoices"
    public static let permission = FeesPermissions.manage
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> Output {
        let today = context.today.description
        let students = try FeesDirectory.students(context)
        let (code, digits) = try FeesLedger.currency(context)
        var rows: [Row] = []
        try context.database.forEachRow("\(FeesLedger.invoiceSelect) WHERE i.school_id = :school_id ORDER BY i.due_on, i.student_id, i.id") { row in
            let invoice = FeesLedger.invoice(row, today: today)
            guard input.status == nil || input.status == invoice.status else { return }
            let student = students[invoice.studentID]
            rows.append(Row(grNumber: student?.grNumber ?? "", name: student?.name ?? "", classCode: student?.classCode, invoice: invoice))
        }
        return Output(currency: code, minorDigits: digits, rows: rows)
    }
}

/// Names, GR numbers and classes of the school's students, for the accountant's school-wide lists.
enum FeesDirectory {
    struct Entry {
        let grNumber: String
        let name: String
        let classCode: String?
    }

    static func students(_ context: ActionContext) throws -> [String: Entry] {
        var students: [String: Entry] = [:]
        try context.database.forEachRow("""
            SELECT s.id, s.gr_number, s.given_name, s.surname,
                   (SELECT c.code FROM students_v1_enrolments e JOIN students_v1_classes c ON c.school_id = e.school_id AND c.id = e.class_id
                    WHERE e.school_id = s.school_id AND e.student_id = s.id ORDER BY e.enrolled_on DESC LIMIT 1) AS class_code
            FROM students_v1_students s WHERE s.school_id = :school_id
            """) { row in
            students[row.string("id")] = Entry(grNumber: row.string("gr_number"), name: "\(row.string("given_name")) \(row.string("surname"))", classCode: row["class_code"])
        }
        return students
    }
}
