import ArgumentParser
import Core
import Foundation

/// The CSV files an accounting package takes in; the columns are documented in docs/fees.md.
/// Amounts are decimal text in the school's currency, never negative (a column says which way).
enum FeesCSV {
    static let invoiceColumns = ["gr_number", "name", "class", "invoice_id", "type", "label", "due_on", "gross", "discount", "amount", "cancelled", "paid",
                                 "outstanding", "status", "currency"]
    static let journalColumns = ["date", "method", "payments", "payments_amount", "refunds_amount", "reversals_amount", "net_amount", "currency",
                                 "first_receipt", "last_receipt"]

    static func invoices(_ list: ListFeeInvoices.Output) -> String {
        let digits = list.minorDigits
        func money(_ minor: Int) -> String { FeesMoney.format(minor, digits: digits) }
        return csv(invoiceColumns, list.rows.map { row in
            let invoice = row.invoice
            return [row.grNumber, row.name, row.classCode ?? "", invoice.id, invoice.type.rawValue, invoice.label, invoice.dueOn, money(invoice.grossMinor),
                    money(invoice.discountMinor), money(invoice.amountMinor), money(invoice.cancelledMinor), money(invoice.paidMinor),
                    money(invoice.outstandingMinor), invoice.status.rawValue, list.currency]
        })
    }

    /// One line per day and method: what came in, what went back, and the receipts it spans.
    /// A day whose refunds exceed its payments has a negative net, written with a minus sign.
    static func journal(_ report: FeeCollections.Output) -> String {
        let digits = report.minorDigits
        func money(_ minor: Int) -> String { FeesMoney.format(minor, digits: digits) }
        let lines = [journalColumns.joined(separator: ",")] + report.rows.map { row in
            ([row.day, row.method.rawValue, String(row.payments), money(row.paymentsMinor), money(row.refundsMinor), money(row.reversalsMinor)].map(CSVCell.field)
             + [money(row.netMinor)] + [report.currency, row.firstReceipt, row.lastReceipt].map(CSVCell.field)).joined(separator: ",")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func csv(_ columns: [String], _ rows: [[String]]) -> String {
        ([columns.joined(separator: ",")] + rows.map { $0.map(CSVCell.field).joined(separator: ",") }).joined(separator: "\n") + "\n"
    }
}

/// `hogwarts fees export invoices|journal`: CSV on standard output.
struct FeesExportCommand: ParsableCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "export", abstract: L("fees.cli.export")) }
    @OptionGroup var global: GlobalOptions
    @OptionGroup var session: SessionOptions
    @Argument(help: ArgumentHelp(L("fees.argument.export"))) var what: String
    @Option(name: .customLong("from"), help: ArgumentHelp(L("fees.option.from"))) var from: String?
    @Option(name: .customLong("to"), help: ArgumentHelp(L("fees.option.to"))) var to: String?

    func run() throws {
        guard ["invoices", "journal"].contains(what) else { throw CommandError.invalidArgument(name: "WHAT", value: what, expected: "invoices|journal") }
        let session = try CommandSession(global, self.session)
        if what == "invoices" {
            let list = try session.run(ListFeeInvoices.self, .init())
            if session.output.json { try session.output.emit(list) { _ in TextTable(lines: []) } } else { print(FeesCSV.invoices(list), terminator: "") }
        } else {
            let report = try session.run(FeeCollections.self, .init(from: from, to: to))
            if session.output.json { try session.output.emit(report) { _ in TextTable(lines: []) } } else { print(FeesCSV.journal(report), terminator: "") }
        }
    }
}
