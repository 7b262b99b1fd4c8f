import Core
import Foundation

/// What a payment, refund or reversal did: its entry and how it met the invoices.
public struct FeeEntryResult: Codable, Sendable, Equatable {
    public let entry: FeeEntry
    public let allocations: [FeesAllocation.Share]
    /// What the payment left unallocated: the family's credit.
    public let creditMinor: Int
    public let balanceMinor: Int
}

/// Records a payment (cash, bank transfer, card or cheque), whole or partial, and allocates it to
/// the student's open invoices, oldest due first, or a named invoice first. Gets the next receipt number.
public struct RecordFeePayment: Action {
    public struct Input: Codable, Sendable {
        public var student: String
        /// Decimal text in the school's currency.
        public var amount: String
        public var method: FeePaymentMethod
        public var reference: String?
        /// An invoice to pay before the others.
        public var invoice: String?

        public init(student: String, amount: String, method: FeePaymentMethod, reference: String? = nil, invoice: String? = nil) {
            self.student = student
            self.amount = amount
            self.method = method
            self.reference = reference
            self.invoice = invoice
        }
    }

    public static let id = "fees.pay"
    public static let permission = FeesPermissions.manage

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        let student = try FeesStudents.any(input.student, context)
        _ = try FeesLedger.amount(input.amount, context)
        if let invoice = input.invoice {
            let owner: String? = try context.database.fetchValue("SELECT student_id FROM fees_invoices WHERE school_id = :school_id AND id = :id", ["id": .text(invoice)])
            guard owner == student.id else { throw FeesError.unknownInvoice(invoice) }
        }
        if let reference = input.reference, reference.count > 200 { throw FeesError.invalidName }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> FeeEntryResult {
        try context.database.serializeWriters(on: "fees.ledger")
        let student = try FeesStudents.any(input.student, context)
        let amount = try FeesLedger.amount(input.amount, context)
        let (entryID, receipt, shares, credit) = try Self.record(studentID: student.id, amount: amount, method: input.method, reference: input.reference,
                                                                first: input.invoice, on: context.today, context)
        context.auditDetail = "receipt \(receipt): \(amount) \(input.method.rawValue) from \(student.grNumber)"
        // The entry as stored and the balance from two sums: the answer needs no whole statement.
        guard let row = try context.database.fetchOne("\(FeesLedger.entrySelect) WHERE e.school_id = :school_id AND e.id = :id", ["id": .text(entryID)])
        else { throw FeesError.unknownReceipt(receipt) }
        return FeeEntryResult(entry: FeesLedger.entry(row), allocations: shares, creditMinor: credit, balanceMinor: try FeesLedger.balance(of: student.id, context))
    }

    /// Writes a payment and its allocations with the next receipt number: the entry's id, its
    /// receipt, the shares and the credit left. Callers hold the ledger's writer lock.
    static func record(studentID: String, amount: Int, method: FeePaymentMethod, reference: String?, first: String?, on day: CivilDate,
                       _ context: ActionContext) throws -> (String, String, [FeesAllocation.Share], Int) {
        let receiptYear = FeesReceipts.year(of: day)
        let sequence = try FeesReceipts.next(year: receiptYear, context)
        let open = try FeesLedger.invoices(of: studentID, context).filter { $0.outstandingMinor > 0 }
            .map { FeesAllocation.Open(invoiceID: $0.id, outstanding: $0.outstandingMinor) }
        let (shares, credit) = FeesAllocation.allocate(amount, to: open, first: first)
        let entryID = context.newID()
        try context.database.insert(into: "fees_entries", [
            "id": .text(entryID), "kind": .text(FeeEntryKind.payment.rawValue), "student_id": .text(studentID), "amount_minor": SQLValue(amount),
            "method": .text(method.rawValue), "reference": SQLValue(reference), "receipt_year": SQLValue(receiptYear),
            "receipt_seq": SQLValue(sequence), "on_day": .text(day.description), "recorded_by": .text(context.principal.userID),
            "recorded_at": SQLValue(context.now),
        ])
        for share in shares {
            try context.database.insert(into: "fees_allocations", [
                "id": .text(context.newOrderedID()), "entry_id": .text(entryID), "invoice_id": .text(share.invoiceID), "amount_minor": SQLValue(share.amount),
            ])
        }
        return (entryID, FeesLedger.receiptText(year: receiptYear, sequence: sequence), shares, credit)
    }
}

/// Gives money back as a new entry, never an edit: a refund of part or all of a payment, or a
/// reversal (a bounced cheque, a charge-back) of everything left of it. Either gets its own receipt
/// number; the invoices it paid are opened again, the latest due first, after any unallocated credit.
public struct RefundFeePayment: Action {
    public struct Input: Codable, Sendable {
        /// The payment's receipt number, `2026-000042`.
        public var receipt: String
        /// Decimal text; a reversal takes everything left and needs none.
        public var amount: String?
        public var kind: FeeEntryKind
        public var reference: String?

        public init(receipt: String, amount: String? = nil, kind: FeeEntryKind = .refund, reference: String? = nil) {
            self.receipt = receipt
            self.amount = amount
            self.kind = kind
            self.reference = reference
        }
    }

    public static let id = "fees.refund"
    public static let permission = FeesPermissions.manage

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        _ = try plan(input, context)
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> FeeEntryResult {
        try context.database.serializeWriters(on: "fees.ledger")
        let (payment, amount) = try plan(input, context)
        let paymentID = payment.string("id"), studentID = payment.string("student_id")
        let paid = try context.database.fetchAll("""
            SELECT a.invoice_id, SUM(a.amount_minor) AS amount FROM fees_allocations a JOIN fees_invoices i ON i.school_id = a.school_id AND i.id = a.invoice_id
            WHERE a.school_id = :school_id AND (a.entry_id = :payment OR a.entry_id IN (SELECT id FROM fees_entries WHERE school_id = :school_id AND of_entry_id = :payment))
            GROUP BY a.invoice_id, i.due_on ORDER BY i.due_on, a.invoice_id
            """, ["payment": .text(paymentID)]).map { FeesAllocation.Share(invoiceID: $0.string("invoice_id"), amount: $0.int("amount")) }
        let givenBack: Int = try context.database.fetchValue(
            "SELECT COALESCE(SUM(amount_minor), 0) FROM fees_entries WHERE school_id = :school_id AND of_entry_id = :payment", ["payment": .text(paymentID)]) ?? 0
        let credit = payment.int("amount_minor") - givenBack - paid.reduce(0) { $0 + $1.amount }
        let released = FeesAllocation.release(amount, credit: credit, paid: paid)
        let receiptYear = FeesReceipts.year(of: context.today)
        let sequence = try FeesReceipts.next(year: receiptYear, context)
        let entryID = context.newID()
        try context.database.insert(into: "fees_entries", [
            "id": .text(entryID), "kind": .text(input.kind.rawValue), "student_id": .text(studentID), "amount_minor": SQLValue(amount),
            "method": .text(payment.string("method")), "reference": SQLValue(input.reference), "of_entry_id": .text(paymentID),
            "receipt_year": SQLValue(receiptYear), "receipt_seq": SQLValue(sequence), "on_day": .text(context.today.description),
            "recorded_by": .text(context.principal.userID), "recorded_at": SQLValue(context.now),
        ])
        for share in released {
            try context.database.insert(into: "fees_allocations", [
                "id": .text(context.newOrderedID()), "entry_id": .text(entryID), "invoice_id": .text(share.invoiceID), "amount_minor": SQLValue(-share.amount),
            ])
        }
        let receipt = FeesLedger.receiptText(year: receiptYear, sequence: sequence)
        context.auditDetail = "\(input.kind.rawValue.lowercased()) \(receipt) of \(input.receipt): \(amount)"
        let student = try FeesStudents.any(studentID, context)
        let account = try FeesLedger.account(of: student, context)
        guard let entry = account.entries.first(where: { $0.id == entryID }) else { throw FeesError.unknownReceipt(receipt) }
        return FeeEntryResult(entry: entry, allocations: released.map { FeesAllocation.Share(invoiceID: $0.invoiceID, amount: -$0.amount) },
                              creditMinor: max(credit - amount, 0), balanceMinor: account.balanceMinor)
    }

    /// The payment and the amount to give back, once both are allowed.
    private func plan(_ input: Input, _ context: ActionContext) throws -> (SQLRow, Int) {
        guard input.kind != .payment, let parts = FeesLedger.receiptParts(input.receipt),
              let payment = try context.database.fetchOne("""
                SELECT id, student_id, amount_minor, method FROM fees_entries
                WHERE school_id = :school_id AND receipt_year = :year AND receipt_seq = :seq AND kind = 'PAYMENT'
                """, ["year": SQLValue(parts.year), "seq": SQLValue(parts.sequence)])
        else { throw FeesError.unknownReceipt(input.receipt) }
        let givenBack: Int = try context.database.fetchValue(
            "SELECT COALESCE(SUM(amount_minor), 0) FROM fees_entries WHERE school_id = :school_id AND of_entry_id = :payment",
            ["payment": .text(payment.string("id"))]) ?? 0
        let left = payment.int("amount_minor") - givenBack
        guard left > 0 else { throw FeesError.alreadyReversed(input.receipt) }
        if input.kind == .reversal { return (payment, left) }
        guard let text = input.amount else { throw FeesError.invalidAmount("") }
        let amount = try FeesLedger.amount(text, context)
        guard amount <= left else {
            throw FeesError.refundTooLarge(receipt: input.receipt, left: FeesMoney.format(left, digits: try FeesLedger.currency(context).digits))
        }
        return (payment, amount)
    }
}
