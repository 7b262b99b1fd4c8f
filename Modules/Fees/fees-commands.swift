import ArgumentParser
import Core
import Foundation

/// `hogwarts fees ...`: thin commands that parse, run an action and print.
private func money(_ minor: Int, _ digits: Int) -> String { FeesMoney.format(minor, digits: digits) }

struct FeesCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "fees", abstract: L("fees.cli.abstract"),
                             subcommands: [Structures.self, AddStructure.self, Discount.self, Generate.self, Invoices.self, Pay.self, Refund.self,
                                           Reverse.self, Leave.self, Statement.self, Balances.self, Aged.self, Collections.self, Classes.self, Reminders.self,
                                           FeesExportCommand.self],
                             defaultSubcommand: Balances.self)
    }

    struct Structures: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "structures", abstract: L("fees.cli.structures")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Option(name: .customLong("year"), help: ArgumentHelp(L("fees.option.year"))) var year: String?

        func run() throws {
            let session = try CommandSession(global, self.session)
            let structures = try session.run(ListFeeStructures.self, .init(schoolYear: year))
            try session.output.emit(structures) { list in
                TextTable(headers: [L("fees.heading.structure"), L("fees.heading.target"), L("fees.heading.item"), L("fees.heading.schedule"),
                                    L("fees.heading.due"), L("fees.heading.amount")],
                          rows: list.flatMap { structure in structure.items.map { item in
                              [structure.name, structure.target.rawValue, "\(item.type.rawValue) \(item.label)", item.schedule.rawValue, item.dueOn, String(item.amountMinor)]
                          } })
            }
        }
    }

    struct AddStructure: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "add-structure", abstract: L("fees.cli.add-structure")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("fees.argument.name"))) var name: String
        @Option(name: .customLong("year"), help: ArgumentHelp(L("fees.option.year"))) var year: String?
        @Option(name: .customLong("year-level"), help: ArgumentHelp(L("fees.option.year-level"))) var yearLevel: String?
        @Option(name: .customLong("class"), help: ArgumentHelp(L("fees.option.class"))) var classCode: String?
        @Option(name: .customLong("student"), help: ArgumentHelp(L("fees.option.student"))) var student: String?
        @Option(name: .customLong("item"), help: ArgumentHelp(L("fees.option.item"))) var items: [String] = []

        func run() throws {
            let parsed = try items.map(Self.item)
            var target = FeeTargetKind.school, code: String? = nil
            if let yearLevel {
                (target, code) = (.yearLevel, yearLevel)
            } else if let classCode {
                (target, code) = (.classGroup, classCode)
            } else if let student {
                (target, code) = (.student, student)
            }
            let session = try CommandSession(global, self.session)
            let structure = try session.run(AddFeeStructure.self, .init(name: name, schoolYear: year, target: target, targetCode: code, items: parsed))
            try session.output.emit(structure) { L("fees.structure.added", ["name": $0.name, "count": String($0.items.count)]) }
        }

        /// `TYPE:LABEL:AMOUNT:SCHEDULE[:YYYY-MM-DD]`.
        static func item(_ text: String) throws -> FeeItem {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            let expected = "TYPE:LABEL:AMOUNT:SCHEDULE[:YYYY-MM-DD]"
            guard (4...5).contains(parts.count), let type = FeeItemType(rawValue: parts[0].uppercased()),
                  let schedule = FeeSchedule(rawValue: parts[3].uppercased().replacingOccurrences(of: "-", with: "_"))
            else { throw CommandError.invalidArgument(name: "--item", value: text, expected: expected) }
            return FeeItem(type: type, label: parts[1], amount: parts[2], schedule: schedule, dueOn: parts.count == 5 ? parts[4] : nil)
        }
    }

    struct Discount: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "discount", abstract: L("fees.cli.discount")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("fees.argument.student"))) var student: String
        @Option(name: .customLong("kind"), help: ArgumentHelp(L("fees.option.kind"))) var kind: String
        @Option(name: .customLong("percent"), parsing: .unconditional, help: ArgumentHelp(L("fees.option.percent"))) var percent: String?
        @Option(name: .customLong("amount"), parsing: .unconditional, help: ArgumentHelp(L("fees.option.amount"))) var amount: String?
        @Option(name: .customLong("reason"), help: ArgumentHelp(L("fees.option.reason"))) var reason: String

        func run() throws {
            guard let kind = FeeDiscountKind(rawValue: kind.uppercased().replacingOccurrences(of: "-", with: "_")) else {
                throw CommandError.invalidArgument(name: "--kind", value: self.kind, expected: FeeDiscountKind.allCases.map(\.rawValue).joined(separator: "|"))
            }
            let session = try CommandSession(global, self.session)
            let discount = try session.run(GrantFeeDiscount.self, .init(student: student, kind: kind, percent: percent, amount: amount, reason: reason))
            try session.output.emit(discount) { _ in L("fees.discount.granted", ["student": student]) }
        }
    }

    struct Generate: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "generate", abstract: L("fees.cli.generate")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Option(name: .customLong("year"), help: ArgumentHelp(L("fees.option.year"))) var year: String?

        func run() throws {
            let session = try CommandSession(global, self.session)
            let result = try session.run(GenerateInvoices.self, .init(schoolYear: year))
            try session.output.emit(result) {
                L("fees.generated", ["count": String($0.created), "students": String($0.students), "year": $0.schoolYear])
            }
        }
    }

    struct Invoices: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "invoices", abstract: L("fees.cli.invoices")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Option(name: .customLong("status"), help: ArgumentHelp(L("fees.option.status"))) var status: String?

        func run() throws {
            var wanted: FeeInvoiceStatus?
            if let status {
                guard let parsed = FeeInvoiceStatus(rawValue: status.uppercased()) else {
                    throw CommandError.invalidArgument(name: "--status", value: status, expected: FeeInvoiceStatus.allCases.map(\.rawValue).joined(separator: "|"))
                }
                wanted = parsed
            }
            let session = try CommandSession(global, self.session)
            try session.output.emit(try session.run(ListFeeInvoices.self, .init(status: wanted))) { list -> TextTable in
                let digits = list.minorDigits
                return TextTable(headers: [L("fees.heading.gr"), L("fees.heading.name"), L("fees.heading.item"), L("fees.heading.due"), L("fees.heading.amount"),
                                    L("fees.heading.paid"), L("fees.heading.status")],
                          rows: list.rows.map { [$0.grNumber, $0.name, $0.invoice.label, $0.invoice.dueOn, money($0.invoice.amountMinor - $0.invoice.cancelledMinor, digits),
                                            money($0.invoice.paidMinor, digits), $0.invoice.status.rawValue] })
            }
        }
    }

    struct Pay: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "pay", abstract: L("fees.cli.pay")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("fees.argument.student"))) var student: String
        @Option(name: .customLong("amount"), parsing: .unconditional, help: ArgumentHelp(L("fees.option.amount"))) var amount: String
        @Option(name: .customLong("method"), help: ArgumentHelp(L("fees.option.method"))) var method = "cash"
        @Option(name: .customLong("reference"), help: ArgumentHelp(L("fees.option.reference"))) var reference: String?
        @Option(name: .customLong("invoice"), help: ArgumentHelp(L("fees.option.invoice"))) var invoice: String?

        func run() throws {
            guard let method = FeePaymentMethod(rawValue: method.uppercased().replacingOccurrences(of: "-", with: "_")) else {
                throw CommandError.invalidArgument(name: "--method", value: self.method, expected: FeePaymentMethod.allCases.map(\.rawValue).joined(separator: "|"))
            }
            let session = try CommandSession(global, self.session)
            let result = try session.run(RecordFeePayment.self, .init(student: student, amount: amount, method: method, reference: reference, invoice: invoice))
            try session.output.emit(result) { L("fees.paid", ["receipt": $0.entry.receipt, "amount": amount]) }
        }
    }

    struct Refund: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "refund", abstract: L("fees.cli.refund")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("fees.argument.receipt"))) var receipt: String
        @Option(name: .customLong("amount"), parsing: .unconditional, help: ArgumentHelp(L("fees.option.amount"))) var amount: String
        @Option(name: .customLong("reference"), help: ArgumentHelp(L("fees.option.reference"))) var reference: String?

        func run() throws {
            let session = try CommandSession(global, self.session)
            let result = try session.run(RefundFeePayment.self, .init(receipt: receipt, amount: amount, kind: .refund, reference: reference))
            try session.output.emit(result) { L("fees.refunded", ["receipt": $0.entry.receipt, "of": receipt]) }
        }
    }

    struct Reverse: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "reverse", abstract: L("fees.cli.reverse")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("fees.argument.receipt"))) var receipt: String
        @Option(name: .customLong("reference"), help: ArgumentHelp(L("fees.option.reference"))) var reference: String?

        func run() throws {
            let session = try CommandSession(global, self.session)
            let result = try session.run(RefundFeePayment.self, .init(receipt: receipt, kind: .reversal, reference: reference))
            try session.output.emit(result) { L("fees.reversed", ["receipt": $0.entry.receipt, "of": receipt]) }
        }
    }

    struct Leave: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "leave", abstract: L("fees.cli.leave")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("fees.argument.student"))) var student: String

        func run() throws {
            let session = try CommandSession(global, self.session)
            let result = try session.run(CancelOpenFees.self, .init(student: student))
            try session.output.emit(result) { L("fees.cancelled", ["count": String($0.cancelled), "student": student]) }
        }
    }

    struct Reminders: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "reminders", abstract: L("fees.cli.reminders")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("fees.argument.child"))) var student: String
        @Flag(name: .customLong("off"), help: ArgumentHelp(L("fees.option.reminders-off"))) var off = false

        func run() throws {
            let session = try CommandSession(global, self.session)
            let result = try session.run(SetFeeReminders.self, .init(student: student, enabled: !off))
            try session.output.emit(result) { L($0.enabled ? "fees.reminders.on" : "fees.reminders.off", ["name": $0.name, "student": $0.grNumber]) }
        }
    }

    struct Statement: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "statement", abstract: L("fees.cli.statement")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("fees.argument.student-optional"))) var student: String?

        func run() throws {
            let session = try CommandSession(global, self.session)
            let account = try session.run(StudentFeeAccount.self, .init(student: student))
            try session.output.emit(account) { account -> TextTable in
                let digits = account.minorDigits
                let charges = account.invoices.map { [$0.dueOn, $0.label, money($0.amountMinor - $0.cancelledMinor, digits), "", $0.status.rawValue] }
                let entries = account.entries.map { [$0.onDay, "\($0.kind.rawValue) \($0.receipt) \($0.method.rawValue)", "",
                                                     money($0.kind == .payment ? $0.amountMinor : -$0.amountMinor, digits), ""] }
                return TextTable(headers: [L("fees.heading.date"), L("fees.heading.item"), L("fees.heading.charge"), L("fees.heading.payment"), L("fees.heading.status")],
                                 rows: (charges + entries).sorted { $0[0] < $1[0] }
                                    + [["", L("fees.heading.balance", ["name": account.name]), money(account.balanceMinor, digits) + " " + account.currency, "", ""]])
            }
        }
    }

    struct Balances: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "balances", abstract: L("fees.cli.balances")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions

        func run() throws {
            let session = try CommandSession(global, self.session)
            try session.output.emit(try session.run(FeeBalances.self, .init())) { balances -> TextTable in
                let digits = balances.minorDigits
                return TextTable(headers: [L("fees.heading.gr"), L("fees.heading.name"), L("fees.heading.charge"), L("fees.heading.payment"), L("fees.heading.owed"),
                                    L("fees.heading.overdue")],
                          rows: balances.rows.map { [$0.grNumber, $0.name, money($0.chargedMinor, digits), money($0.paidMinor, digits), money($0.balanceMinor, digits),
                                            money($0.overdueMinor, digits)] })
            }
        }
    }

    struct Aged: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "aged", abstract: L("fees.cli.aged")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions

        func run() throws {
            let session = try CommandSession(global, self.session)
            try session.output.emit(try session.run(AgedReceivables.self, .init())) { aged -> TextTable in
                let digits = aged.minorDigits
                func cells(_ b: AgedReceivables.Buckets) -> [String] {
                    [b.currentMinor, b.days30Minor, b.days60Minor, b.days90Minor, b.over90Minor, b.totalMinor].map { money($0, digits) }
                }
                return TextTable(headers: [L("fees.heading.gr"), L("fees.heading.name"), L("fees.heading.current"), "1-30", "31-60", "61-90", "90+",
                                           L("fees.heading.owed")],
                                 rows: aged.students.map { [$0.grNumber, $0.name] + cells($0.buckets) } + [["", L("fees.heading.total")] + cells(aged.total)])
            }
        }
    }

    struct Classes: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "classes", abstract: L("fees.cli.classes")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions

        func run() throws {
            let session = try CommandSession(global, self.session)
            try session.output.emit(try session.run(FeeClassTotals.self, .init())) { totals in
                TextTable(headers: [L("fees.heading.class"), L("fees.heading.students"), L("fees.heading.charge"), L("fees.heading.paid"),
                                    L("fees.heading.owed"), L("fees.heading.overdue")],
                          rows: totals.rows.map { [$0.classCode ?? L("fees.no-class"), String($0.students), money($0.chargedMinor, totals.minorDigits),
                                                   money($0.paidMinor, totals.minorDigits), money($0.balanceMinor, totals.minorDigits),
                                                   money($0.overdueMinor, totals.minorDigits)] })
            }
        }
    }

    struct Collections: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "collections", abstract: L("fees.cli.collections")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Option(name: .customLong("from"), help: ArgumentHelp(L("fees.option.from"))) var from: String?
        @Option(name: .customLong("to"), help: ArgumentHelp(L("fees.option.to"))) var to: String?

        func run() throws {
            let session = try CommandSession(global, self.session)
            try session.output.emit(try session.run(FeeCollections.self, .init(from: from, to: to))) { report in
                TextTable(headers: [L("fees.heading.date"), L("fees.heading.method"), L("fees.heading.payment"), L("fees.heading.refunds"), L("fees.heading.net")],
                          rows: report.rows.map { [$0.day, $0.method.rawValue, money($0.paymentsMinor, report.minorDigits),
                                                   money($0.refundsMinor + $0.reversalsMinor, report.minorDigits), money($0.netMinor, report.minorDigits)] })
            }
        }
    }
}
