import Core
import Foundation

extension FeesModule: ConsoleModule {
    /// The accountant's finance dashboard and payment form; balances and statements for everyone
    /// who may read fees (a guardian sees their own children's).
    public var consolePages: [ConsolePage] { [FeesConsole.finance, FeesConsole.pay, FeesConsole.balances] }
    /// Today's collections and what is overdue, on the home page of whoever manages fees.
    public var consoleCards: [ConsoleCard] { [FeesConsole.financeCard] }
}

/// The console's fees pages. Each runs the module's own actions (`fees.aged`, `fees.pay`,
/// `fees.account`...) through `ConsoleRequest.run`, so the kernel checks the permission and the
/// scope, validates and audits exactly as for the CLI and the API.
enum FeesConsole {
    /// Amounts in the school's currency, as the accountant reads them: `1,500.00 USD`.
    struct Money {
        let currency: String
        let digits: Int

        func text(_ minor: Int) -> String {
            let plain = FeesMoney.format(abs(minor), digits: digits)
            let whole = plain.split(separator: ".", maxSplits: 1)
            var grouped = ""
            for (index, character) in (whole.first ?? "").reversed().enumerated() {
                if index > 0 && index % 3 == 0 { grouped.append(",") }
                grouped.append(character)
            }
            let fraction = whole.count > 1 ? "." + whole[1] : ""
            return (minor < 0 ? "-" : "") + String(grouped.reversed()) + fraction + " " + currency
        }
    }

    static func statusText(_ status: FeeInvoiceStatus, _ console: ConsoleRequest) -> String {
        switch status {
        case .pending: console.say(Words.pending)
        case .partial: console.say(Words.partial)
        case .paid: console.say(Words.paid)
        case .overdue: console.say(Words.overdue)
        case .cancelled: console.say(Words.cancelled)
        }
    }

    static func methodText(_ method: FeePaymentMethod, _ console: ConsoleRequest) -> String {
        switch method {
        case .cash: console.say(Words.cash)
        case .bankTransfer: console.say(Words.bankTransfer)
        case .card: console.say(Words.card)
        case .cheque: console.say(Words.cheque)
        }
    }

    static func kindText(_ kind: FeeEntryKind, _ console: ConsoleRequest) -> String {
        switch kind {
        case .payment: console.say(Words.payment)
        case .refund: console.say(Words.refund)
        case .reversal: console.say(Words.reversal)
        }
    }
}
