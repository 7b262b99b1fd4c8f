import Core
import Foundation

/// Reads of the fees ledger, all scoped to the running school: the one place that turns rows
/// into invoices, entries and balances.
enum FeesLedger {
    static func receiptText(year: Int, sequence: Int) -> String {
        let digits = String(sequence)
        return "\(year)-" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }

    /// `2026-000042` as its year and sequence.
    static func receiptParts(_ text: String) -> (year: Int, sequence: Int)? {
        let parts = text.split(separator: "-")
        guard parts.count == 2, let year = Int(parts[0]), let sequence = Int(parts[1]) else { return nil }
        return (year, sequence)
    }

    static let invoiceSelect = """
        SELECT i.id, i.student_id, i.item_type, i.label, i.due_on, i.gross_minor, i.discount_minor, i.amount_minor, i.late_fee_minor, i.cancelled_minor, i.currency,
               COALESCE((SELECT SUM(a.amount_minor) FROM fees_allocations a WHERE a.school_id = i.school_id AND a.invoice_id = i.id), 0) AS paid_minor
        FROM fees_invoices i
        """

    static func invoice(_ row: SQLRow, today: String) -> FeeInvoice {
        let amount = row.int("amount_minor"), cancelled = row.int("cancelled_minor"), paid = row.int("paid_minor")
        let due = row.string("due_on")
        let status: FeeInvoiceStatus =
            cancelled > 0 && paid + cancelled >= amount ? .cancelled
            : paid >= amount - cancelled ? .paid
            : due < today ? .overdue
            : paid > 0 ? .partial : .pending
        return FeeInvoice(id: row.string("id"), studentID: row.string("student_id"), type: FeeItemType(rawValue: row.string("item_type")) ?? .custom,
                          label: row.string("label"), dueOn: due, grossMinor: row.int("gross_minor"), discountMinor: row.int("discount_minor"),
                          amountMinor: amount, lateFeeMinor: row.int("late_fee_minor"), cancelledMinor: cancelled, paidMinor: paid, status: status)
    }

    static func invoices(of studentID: String, _ context: ActionContext) throws -> [FeeInvoice] {
        let today = context.today.description
        return try context.database.fetchAll("\(invoiceSelect) WHERE i.school_id = :school_id AND i.student_id = :student ORDER BY i.due_on, i.id",
                                             ["student": .text(studentID)]).map { invoice($0, today: today) }
    }

    static let entrySelect = """
        SELECT e.id, e.kind, e.student_id, e.amount_minor, e.method, e.reference, e.receipt_year, e.receipt_seq, e.on_day, e.recorded_at,
               o.receipt_year AS of_year, o.receipt_seq AS of_seq
        FROM fees_entries e LEFT JOIN fees_entries o ON o.school_id = e.school_id AND o.id = e.of_entry_id
        """

    static func entry(_ row: SQLRow) -> FeeEntry {
        let ofYear: Int? = row["of_year"], ofSeq: Int? = row["of_seq"]
        return FeeEntry(id: row.string("id"), kind: FeeEntryKind(rawValue: row.string("kind")) ?? .payment, studentID: row.string("student_id"),
                        amountMinor: row.int("amount_minor"), method: FeePaymentMethod(rawValue: row.string("method")) ?? .cash, reference: row["reference"],
                        receipt: receiptText(year: row.int("receipt_year"), sequence: row.int("receipt_seq")),
                        ofReceipt: ofYear.flatMap { year in ofSeq.map { receiptText(year: year, sequence: $0) } },
                        onDay: row.string("on_day"), recordedAt: row["recorded_at"] ?? Date(timeIntervalSince1970: 0))
    }

    static func entries(of studentID: String, _ context: ActionContext) throws -> [FeeEntry] {
        try context.database.fetchAll("\(entrySelect) WHERE e.school_id = :school_id AND e.student_id = :student ORDER BY e.receipt_year, e.receipt_seq",
                                      ["student": .text(studentID)]).map(entry)
    }

    /// Charged less cancelled, less payments, plus refunds and reversals.
    static func balance(invoices: [FeeInvoice], entries: [FeeEntry]) -> Int {
        invoices.reduce(0) { $0 + $1.amountMinor - $1.cancelledMinor }
            + entries.reduce(0) { $0 + ($1.kind == .payment ? -$1.amountMinor : $1.amountMinor) }
    }

    /// Payments, and what was given back (refunds and reversals), per student, for the students
    /// `condition` picks: the sums balances, per-class totals and offline accounts start from.
    static func entryTotals(_ database: SchoolDatabase, where condition: String = "1 = 1", _ arguments: SQLArguments = [:]) throws
        -> [String: (paid: Int, returned: Int)] {
        var totals: [String: (paid: Int, returned: Int)] = [:]
        try database.forEachRow("""
            SELECT student_id, kind, SUM(amount_minor) AS total FROM fees_entries WHERE school_id = :school_id AND \(condition) GROUP BY student_id, kind
            """, arguments) { row in
            let student = row.string("student_id"), total = row.int("total")
            if row.string("kind") == FeeEntryKind.payment.rawValue { totals[student, default: (0, 0)].paid += total }
            else { totals[student, default: (0, 0)].returned += total }
        }
        return totals
    }

    /// The same balance from two sums, for an answer that needs no statement.
    static func balance(of studentID: String, _ context: ActionContext) throws -> Int {
        let arguments: SQLArguments = ["student": .text(studentID)]
        let charged: Int = try context.database.fetchValue("""
            SELECT COALESCE(SUM(amount_minor - cancelled_minor), 0) FROM fees_invoices WHERE school_id = :school_id AND student_id = :student
            """, arguments) ?? 0
        let moved: Int = try context.database.fetchValue("""
            SELECT COALESCE(SUM(CASE WHEN kind = 'PAYMENT' THEN -amount_minor ELSE amount_minor END), 0) FROM fees_entries
            WHERE school_id = :school_id AND student_id = :student
            """, arguments) ?? 0
        return charged + moved
    }

    static func currency(_ context: ActionContext) throws -> (code: String, digits: Int) {
        let code = try context.setting(FeesSettings.currency)
        return (code, FeesMoney.minorDigits(of: code))
    }

    /// An amount typed by a person, in the school's currency; refused unless above zero.
    static func amount(_ text: String, _ context: ActionContext) throws -> Int {
        guard let minor = FeesMoney.parse(text, digits: try currency(context).digits), minor > 0 else { throw FeesError.invalidAmount(text) }
        return minor
    }

    /// Each invoice's latest payment receipt. `CROSS JOIN` keeps SQLite to the student's entries
    /// first: left to choose, it read every allocation of the school.
    static func paidBy(_ studentID: String, _ entries: [FeeEntry], _ context: ActionContext) throws -> [String: String] {
        let receipts = Dictionary(uniqueKeysWithValues: entries.map { ($0.id, $0.receipt) })
        var paidBy: [String: String] = [:]
        try context.database.forEachRow("""
            SELECT a.invoice_id, a.entry_id FROM fees_entries e CROSS JOIN fees_allocations a
            WHERE e.school_id = :school_id AND e.student_id = :student AND e.kind = 'PAYMENT' AND a.school_id = e.school_id AND a.entry_id = e.id
            ORDER BY e.receipt_year, e.receipt_seq
            """, ["student": .text(studentID)]) { row in paidBy[row.string("invoice_id")] = receipts[row.string("entry_id")] }
        return paidBy
    }

    static func account(of student: FeesStudent, _ context: ActionContext) throws -> FeeAccount {
        let invoices = try invoices(of: student.id, context)
        let entries = try entries(of: student.id, context)
        let (code, digits) = try currency(context)
        return FeeAccount(studentID: student.id, grNumber: student.grNumber, name: student.name, currency: code, minorDigits: digits,
                          invoices: invoices, entries: entries, balanceMinor: balance(invoices: invoices, entries: entries),
                          overdueMinor: invoices.filter { $0.status == .overdue }.reduce(0) { $0 + $1.outstandingMinor },
                          paidBy: try paidBy(student.id, entries, context))
    }
}
