import Foundation

public enum FeeItemType: String, Codable, Sendable, CaseIterable {
    case tuition = "TUITION", transport = "TRANSPORT", books = "BOOKS", uniform = "UNIFORM", activity = "ACTIVITY", custom = "CUSTOM"
}

/// When an item falls due: once (on its own date), at the start of every term, or monthly on
/// the day of its date from that month to the end of the school year.
public enum FeeSchedule: String, Codable, Sendable, CaseIterable {
    case once = "ONCE", perTerm = "PER_TERM", monthly = "MONTHLY"
}

public enum FeeTargetKind: String, Codable, Sendable, CaseIterable {
    case school = "SCHOOL", yearLevel = "YEAR_LEVEL", classGroup = "CLASS", student = "STUDENT"
}

public enum FeeDiscountKind: String, Codable, Sendable, CaseIterable {
    case sibling = "SIBLING", scholarship = "SCHOLARSHIP", staffChild = "STAFF_CHILD"
}

public enum FeePaymentMethod: String, Codable, Sendable, CaseIterable {
    case cash = "CASH", bankTransfer = "BANK_TRANSFER", card = "CARD", cheque = "CHEQUE"
}

/// A ledger entry: money in (a payment), or back out (a refund, or a payment reversed in full, a bounced cheque).
public enum FeeEntryKind: String, Codable, Sendable, CaseIterable {
    case payment = "PAYMENT", refund = "REFUND", reversal = "REVERSAL"
}

public enum FeeInvoiceStatus: String, Codable, Sendable, CaseIterable {
    case pending = "PENDING", partial = "PARTIAL", paid = "PAID", overdue = "OVERDUE", cancelled = "CANCELLED"
}

public struct FeeItem: Codable, Sendable, Equatable {
    public var type: FeeItemType
    public var label: String
    /// Decimal text in the school's currency, `1500` or `1500.50`.
    public var amount: String
    public var schedule: FeeSchedule
    /// `YYYY-MM-DD`: the due date of a once item, the first month's date of a monthly one; per
    /// term items fall due on each term's first day and may leave it out.
    public var dueOn: String?

    public init(type: FeeItemType, label: String, amount: String, schedule: FeeSchedule, dueOn: String? = nil) {
        self.type = type
        self.label = label
        self.amount = amount
        self.schedule = schedule
        self.dueOn = dueOn
    }
}

public struct FeeStructure: Codable, Sendable, Equatable {
    public struct Item: Codable, Sendable, Equatable {
        public let type: FeeItemType
        public let label: String
        public let amountMinor: Int
        public let schedule: FeeSchedule
        public let dueOn: String
    }

    public let id: String
    public let name: String
    public let schoolYear: String
    public let target: FeeTargetKind
    public let targetID: String?
    public let items: [Item]
}

/// One charge on a student's account.
public struct FeeInvoice: Codable, Sendable, Equatable {
    public let id: String
    public let studentID: String
    public let type: FeeItemType
    public let label: String
    public let dueOn: String
    public let grossMinor: Int
    public let discountMinor: Int
    /// What was charged: gross less discount, and the late fee once one is charged.
    public let amountMinor: Int
    /// The late fee included in `amountMinor` (0 until one is charged).
    public let lateFeeMinor: Int
    /// The part cancelled when the student left.
    public let cancelledMinor: Int
    public let paidMinor: Int
    public let status: FeeInvoiceStatus

    public var outstandingMinor: Int { amountMinor - cancelledMinor - paidMinor }
}

/// One entry of a student's ledger, with its receipt number (`2026-000042`).
public struct FeeEntry: Codable, Sendable, Equatable {
    public let id: String
    public let kind: FeeEntryKind
    public let studentID: String
    public let amountMinor: Int
    public let method: FeePaymentMethod
    public let reference: String?
    public let receipt: String
    /// The payment a refund or reversal gives back.
    public let ofReceipt: String?
    public let onDay: String
    public let recordedAt: Date
}

/// A student's account: what was charged, paid and given back, and what is owed now.
public struct FeeAccount: Codable, Sendable, Equatable {
    public let studentID: String
    public let grNumber: String
    public let name: String
    public let currency: String
    public let minorDigits: Int
    public let invoices: [FeeInvoice]
    public let entries: [FeeEntry]
    /// Charged less cancelled, less payments, plus refunds and reversals. Negative is credit.
    public let balanceMinor: Int
    public let overdueMinor: Int
    /// Each paid (or partly paid) invoice's latest payment receipt.
    public let paidBy: [String: String]
}
