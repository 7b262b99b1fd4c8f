import Core

/// What a fees action refuses, each with a message in Arabic and English saying what to do next.
public enum FeesError: HogwartsError, Equatable {
    /// No student by that id or GR number that the caller may see: the same answer either way.
    case unknownStudent(String)
    case unknownStructure(String)
    case unknownInvoice(String)
    case unknownReceipt(String)
    case unknownSchoolYear(String)
    case unknownTarget(String)
    case invalidAmount(String)
    case invalidDate(String)
    case invalidName
    case noItems
    case invalidDiscount
    /// A refund larger than what is left of the payment.
    case refundTooLarge(receipt: String, left: String)
    /// A payment already refunded or reversed in full.
    case alreadyReversed(String)
    /// A student asking where the school keeps balances from students.
    case studentsMayNotSee
    case noOpenInvoices(String)
    /// A guardian of several children who named none.
    case chooseChild(String)
    /// Someone who sees many students and named none.
    case chooseStudent

    public var messageKey: String {
        switch self {
        case .unknownStudent: "fees.error.unknown-student"
        case .unknownStructure: "fees.error.unknown-structure"
        case .unknownInvoice: "fees.error.unknown-invoice"
        case .unknownReceipt: "fees.error.unknown-receipt"
        case .unknownSchoolYear: "fees.error.unknown-school-year"
        case .unknownTarget: "fees.error.unknown-target"
        case .invalidAmount: "fees.error.invalid-amount"
        case .invalidDate: "fees.error.invalid-date"
        case .invalidName: "fees.error.invalid-name"
        case .noItems: "fees.error.no-items"
        case .invalidDiscount: "fees.error.invalid-discount"
        case .refundTooLarge: "fees.error.refund-too-large"
        case .alreadyReversed: "fees.error.already-reversed"
        case .studentsMayNotSee: "fees.error.students-may-not-see"
        case .noOpenInvoices: "fees.error.no-open-invoices"
        case .chooseChild: "fees.error.choose-child"
        case .chooseStudent: "fees.error.choose-student"
        }
    }

    public var messageArguments: [String: String] {
        switch self {
        case .unknownStudent(let value), .unknownStructure(let value), .unknownInvoice(let value), .unknownReceipt(let value),
             .unknownSchoolYear(let value), .unknownTarget(let value), .invalidAmount(let value), .invalidDate(let value),
             .alreadyReversed(let value), .noOpenInvoices(let value), .chooseChild(let value):
            ["value": value]
        case .refundTooLarge(let receipt, let left): ["receipt": receipt, "left": left]
        case .invalidName, .noItems, .invalidDiscount, .studentsMayNotSee, .chooseStudent: [:]
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .unknownStudent, .unknownStructure, .unknownInvoice, .unknownReceipt, .unknownSchoolYear, .unknownTarget: .notFound
        case .studentsMayNotSee: .permissionDenied
        case .refundTooLarge, .alreadyReversed, .noOpenInvoices: .conflict
        default: .invalidData
        }
    }
}
