import Core
import Foundation

/// The school's late-fee rule: nothing (the default), a fixed amount, or a percentage of what is
/// still owed, charged once on an invoice left unpaid `fees.late-fee-grace-days` after its due date.
public enum FeesLateFee: Equatable, Sendable {
    case fixed(minor: Int)
    case percent(basisPoints: Int)

    /// `fees.late-fee` as written: empty, `25`, `25.50`, `5%` or `2.5%`. Whether an amount fits the
    /// currency's minor digits is checked when the fee is charged.
    static func isWellFormed(_ text: String) -> Bool {
        text.isEmpty || text.range(of: #"^[0-9]{1,9}(\.[0-9]{1,3})?%?$"#, options: .regularExpression) != nil
    }

    /// The rule in force; nil when the school charges none.
    static func rule(_ context: ActionContext) throws -> FeesLateFee? {
        let text = try context.setting(FeesSettings.lateFee).trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return nil }
        if text.hasSuffix("%") {
            guard let points = FeesMoney.parse(String(text.dropLast()), digits: 2), (1...10_000).contains(points) else { throw FeesError.invalidAmount(text) }
            return .percent(basisPoints: points)
        }
        let amount = try FeesLedger.amount(text, context)
        return amount > 0 ? .fixed(minor: amount) : nil
    }

    /// The fee on an invoice with `outstanding` left to pay.
    func charge(on outstanding: Int) -> Int {
        switch self {
        case .fixed(let minor): minor
        case .percent(let points): FeesMoney.percent(outstanding, basisPoints: points)
        }
    }

    /// Invoices past their grace period, unpaid, not cancelled and not yet charged a late fee.
    static let dueSelect = "\(FeesLedger.invoiceSelect) WHERE i.school_id = :school_id AND i.late_fee_minor = 0 AND i.cancelled_minor = 0 AND i.due_on < :cutoff"

    static func cutoff(_ context: ActionContext) throws -> String {
        context.today.adding(days: -(try context.setting(FeesSettings.lateFeeGraceDays))).description
    }
}

/// Whether any invoice is due a late fee: the cheap check `serve` makes before `ApplyLateFees`.
public struct LateFeesDue: Action {
    public struct Input: Codable, Sendable { public init() {} }

    public static let id = "fees.late-fees-due"
    public static let permission = FeesPermissions.manage
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> Bool {
        guard try context.setting(FeesSettings.lateFee).trimmingCharacters(in: .whitespaces).isEmpty == false else { return false }
        let today = context.today.description
        return try context.database.fetchAll(FeesLateFee.dueSelect, ["cutoff": .text(try FeesLateFee.cutoff(context))])
            .contains { FeesLedger.invoice($0, today: today).outstandingMinor > 0 }
    }
}

/// Charges the school's late fee, once, on every invoice left unpaid past its grace period. The
/// fee is added to what the invoice asks (and shown apart as `late_fee`), so balances, statements,
/// allocation and the aged report all count it. Run by every `serve` in the background: the
/// update is guarded on "no late fee yet", so several servers at once still charge it once.
public struct ApplyLateFees: Action {
    public struct Input: Codable, Sendable { public init() {} }

    public struct Output: Codable, Sendable, Equatable {
        public let charged: Int
    }

    public static let id = "fees.late-fees"
    public static let permission = FeesPermissions.manage

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        _ = try FeesLateFee.rule(context)
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Output {
        guard let rule = try FeesLateFee.rule(context) else { return Output(charged: 0) }
        try context.database.serializeWriters(on: "fees.ledger")
        let today = context.today.description
        var charged = 0
        for row in try context.database.fetchAll(FeesLateFee.dueSelect, ["cutoff": .text(try FeesLateFee.cutoff(context))]) {
            let invoice = FeesLedger.invoice(row, today: today)
            let fee = rule.charge(on: invoice.outstandingMinor)
            guard invoice.outstandingMinor > 0, fee > 0 else { continue }
            try context.database.execute("""
                UPDATE fees_invoices SET late_fee_minor = :fee, amount_minor = amount_minor + :fee, late_fee_on = :today
                WHERE school_id = :school_id AND id = :id AND late_fee_minor = 0
                """, ["fee": .integer(Int64(fee)), "today": .text(today), "id": .text(invoice.id)])
            charged += context.database.changedRowCount
        }
        context.auditDetail = "late fee charged on \(charged) invoices"
        return Output(charged: charged)
    }
}
