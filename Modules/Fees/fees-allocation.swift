/// How an amount meets what is owed: the arithmetic behind payments, refunds and discounts, with
/// no database, so its invariants are tested on generated inputs.
public enum FeesAllocation {
    /// What is still owed on one invoice, in the order it should be paid.
    public struct Open: Sendable, Equatable {
        public let invoiceID: String
        public let outstanding: Int
        public init(invoiceID: String, outstanding: Int) {
            self.invoiceID = invoiceID
            self.outstanding = outstanding
        }
    }

    public struct Share: Codable, Sendable, Equatable {
        public let invoiceID: String
        public let amount: Int
        public init(invoiceID: String, amount: Int) {
            self.invoiceID = invoiceID
            self.amount = amount
        }
    }

    /// Pays `amount` into `open` in order (oldest due first), each invoice in full before the
    /// next gets anything. `first` (an invoice the payer named) is paid before the others. What
    /// is left over is the payer's credit.
    public static func allocate(_ amount: Int, to open: [Open], first: String? = nil) -> (shares: [Share], credit: Int) {
        let ordered = open.filter { $0.invoiceID == first } + open.filter { $0.invoiceID != first }
        var left = max(amount, 0)
        var shares: [Share] = []
        for invoice in ordered where left > 0 && invoice.outstanding > 0 {
            let share = min(left, invoice.outstanding)
            shares.append(Share(invoiceID: invoice.invoiceID, amount: share))
            left -= share
        }
        return (shares, left)
    }

    /// Takes `amount` back out of a payment: from its unallocated credit first, then from the
    /// invoices it paid, the latest due first. `paid` is in the payment's own order (oldest due
    /// first). The answer's shares are what each invoice gives back (positive).
    public static func release(_ amount: Int, credit: Int, paid: [Share]) -> [Share] {
        var left = max(amount - max(credit, 0), 0)
        var shares: [Share] = []
        for share in paid.reversed() where left > 0 && share.amount > 0 {
            let back = min(left, share.amount)
            shares.append(Share(invoiceID: share.invoiceID, amount: back))
            left -= back
        }
        return shares
    }

    /// A discount on one charge: a percentage (basis points) or a fixed amount, never more than the charge.
    public static func discount(on gross: Int, basisPoints: Int?, fixed: Int?) -> Int {
        let raw = basisPoints.map { FeesMoney.percent(gross, basisPoints: $0) } ?? fixed ?? 0
        return min(max(raw, 0), max(gross, 0))
    }
}
