import Auth
import Core
import Fees
import Foundation
import HogwartsTestSupport
import Students
import Testing

@Suite("Fees: the module")
struct FeesModuleTests {
    @Test("every string exists in Arabic and English")
    func strings() {
        let catalog = FeesModule().strings
        #expect(catalog.text("fees.module.name", in: .ar) != nil)
        #expect(catalog.missingTranslations.isEmpty)
    }

    @Test("the tables the module declares are exactly those its migrations create")
    func declaredTables() {
        let mismatches = ModuleSchema.mismatches(of: FeesModule())
        #expect(mismatches.undeclared.isEmpty, "add them to ownedTables (or publishedViews)")
        #expect(mismatches.notCreated.isEmpty)
    }
}

@Suite("Fees: invoices, payments and refunds")
struct FeesLedgerTests {
    @Test("the demo charged every enrolled student a year: due items mostly paid, a few overdue, the rest pending")
    func demoYear() throws {
        let fixture = try FeesFixture()
        let balances = try fixture.run(FeeBalances.self, .init())
        #expect(balances.currency == "USD" && balances.minorDigits == 2)
        #expect(balances.rows.count > 100 && balances.rows.allSatisfy { $0.chargedMinor > 0 })
        let overdue = balances.rows.filter { $0.overdueMinor > 0 }.count
        #expect(overdue > 0 && overdue < balances.rows.count / 3, "a few families are overdue (\(overdue))")
        let invoices = try fixture.run(ListFeeInvoices.self, .init()).rows.map(\.invoice)
        #expect(invoices.contains { $0.status == .paid } && invoices.contains { $0.status == .partial || $0.status == .overdue }
                && invoices.contains { $0.status == .pending })
        #expect(invoices.filter { $0.status == .paid }.count > invoices.filter { $0.status == .overdue }.count)
    }

    @Test("a payment goes to the oldest due invoices first, gets the next receipt, and the statement balances")
    func paymentAllocation() throws {
        let fixture = try FeesFixture()
        let student = try fixture.student(in: "12C")
        let before = try fixture.run(StudentFeeAccount.self, .init(student: student.grNumber))
        let open = before.invoices.filter { $0.outstandingMinor > 0 }
        let firstTwo = open.prefix(2).reduce(0) { $0 + $1.outstandingMinor }
        let receipts = try fixture.receiptNumbers()
        let result = try fixture.run(RecordFeePayment.self, .init(student: student.grNumber, amount: FeesMoney.format(firstTwo + 1, digits: 2), method: .bankTransfer,
                                                                  reference: "TRX-1"))
        #expect(result.allocations.map(\.invoiceID).prefix(2) == open.prefix(2).map(\.id)[...])
        #expect(result.allocations.count == 3 && result.allocations.last?.amount == 1, "the third oldest gets the last cent")
        #expect(result.entry.receipt == "2026-" + String(format: "%06d", (receipts.last ?? 0) + 1))
        let after = try fixture.run(StudentFeeAccount.self, .init(student: student.id))
        #expect(after.balanceMinor == before.balanceMinor - firstTwo - 1)
        #expect(after.invoices.prefix(2).allSatisfy { $0.status == .paid || $0.outstandingMinor == 0 })
    }

    @Test("a refund and a reversal are new entries with their own receipts; the paid invoices open again; too much is refused")
    func refundsAndReversals() throws {
        let fixture = try FeesFixture()
        let student = try fixture.student(in: "10A")
        let before = try fixture.run(StudentFeeAccount.self, .init(student: student.id))
        let payment = try fixture.run(RecordFeePayment.self, .init(student: student.id, amount: "100.00", method: .cheque, reference: "CHQ 7"))
        #expect(throws: FeesError.refundTooLarge(receipt: payment.entry.receipt, left: "100.00")) {
            try fixture.run(RefundFeePayment.self, .init(receipt: payment.entry.receipt, amount: "100.01"))
        }
        let refund = try fixture.run(RefundFeePayment.self, .init(receipt: payment.entry.receipt, amount: "40.00"))
        #expect(refund.entry.kind == .refund && refund.entry.ofReceipt == payment.entry.receipt && refund.entry.receipt != payment.entry.receipt)
        let reversal = try fixture.run(RefundFeePayment.self, .init(receipt: payment.entry.receipt, kind: .reversal, reference: "bounced"))
        #expect(reversal.entry.amountMinor == 6_000)
        #expect(throws: FeesError.alreadyReversed(payment.entry.receipt)) {
            try fixture.run(RefundFeePayment.self, .init(receipt: payment.entry.receipt, kind: .reversal))
        }
        let after = try fixture.run(StudentFeeAccount.self, .init(student: student.id))
        #expect(after.balanceMinor == before.balanceMinor, "paid 100, refunded 40, reversed 60")
        #expect(after.invoices.map(\.paidMinor) == before.invoices.map(\.paidMinor), "every invoice it paid is open again")
        #expect(after.entries.count == before.entries.count + 3, "nothing edited, three entries added")
    }

    @Test("an amount with too many decimals, zero or text is refused before anything is written")
    func badAmounts() throws {
        let fixture = try FeesFixture()
        let student = try fixture.student(in: "10A")
        let before = try fixture.receiptNumbers()
        for amount in ["0", "12.345", "-5", "abc", "1e3", ""] {
            #expect(throws: FeesError.invalidAmount(amount)) { try fixture.run(RecordFeePayment.self, .init(student: student.id, amount: amount, method: .cash)) }
        }
        #expect(try fixture.receiptNumbers() == before, "no receipt number taken")
    }

    @Test("a leaver's open items are cancelled, kept, and stop counting; what was paid stays paid")
    func leaver() throws {
        let fixture = try FeesFixture()
        let student = try fixture.student(in: "9B")
        let before = try fixture.run(StudentFeeAccount.self, .init(student: student.id))
        let cancelled = try fixture.run(CancelOpenFees.self, .init(student: student.id))
        let after = try fixture.run(StudentFeeAccount.self, .init(student: student.id))
        #expect(after.invoices.count == before.invoices.count, "never deleted")
        #expect(cancelled.cancelledMinor == before.invoices.reduce(0) { $0 + $1.outstandingMinor })
        #expect(after.invoices.allSatisfy { $0.outstandingMinor == 0 })
        #expect(after.invoices.map(\.paidMinor) == before.invoices.map(\.paidMinor))
        #expect(after.balanceMinor == before.balanceMinor - cancelled.cancelledMinor)
        #expect(throws: FeesError.noOpenInvoices(student.grNumber)) { try fixture.run(CancelOpenFees.self, .init(student: student.id)) }
    }

    @Test("generating again charges nothing twice; a new structure for one student charges only them, with their discount")
    func generateOnce() throws {
        let fixture = try FeesFixture()
        #expect(try fixture.run(GenerateInvoices.self, .init()).created == 0)
        let student = try fixture.student(in: "8A")
        try fixture.run(GrantFeeDiscount.self, .init(student: student.grNumber, kind: .scholarship, percent: "25", reason: "Merit scholarship"))
        try fixture.run(AddFeeStructure.self, .init(name: "Trip", target: .student, targetCode: student.grNumber,
                                                    items: [FeeItem(type: .activity, label: "Museum trip", amount: "80.00", schedule: .once, dueOn: "2026-12-10")]))
        let generated = try fixture.run(GenerateInvoices.self, .init())
        #expect(generated.created == 1 && generated.students == 1 && generated.totalMinor == 6_000)
        let trip = try #require(try fixture.run(StudentFeeAccount.self, .init(student: student.id)).invoices.first { $0.label == "Museum trip" })
        #expect(trip.grossMinor == 8_000 && trip.discountMinor == 2_000 && trip.amountMinor == 6_000 && trip.status == .pending)
        #expect(try fixture.run(GenerateInvoices.self, .init()).created == 0)
    }

    @Test("a structure with a date outside the year, no items or a bad amount is refused")
    func badStructures() throws {
        let fixture = try FeesFixture()
        #expect(throws: FeesError.invalidDate("2030-01-01")) {
            try fixture.run(AddFeeStructure.self, .init(name: "X", items: [FeeItem(type: .books, label: "B", amount: "1", schedule: .once, dueOn: "2030-01-01")]))
        }
        #expect(throws: FeesError.noItems) { try fixture.run(AddFeeStructure.self, .init(name: "X", items: [])) }
        #expect(throws: FeesError.invalidAmount("1.999")) {
            try fixture.run(AddFeeStructure.self, .init(name: "X", items: [FeeItem(type: .books, label: "B", amount: "1.999", schedule: .perTerm)]))
        }
        #expect(throws: FeesError.unknownTarget("ZZ")) {
            try fixture.run(AddFeeStructure.self, .init(name: "X", target: .classGroup, targetCode: "ZZ",
                                                        items: [FeeItem(type: .books, label: "B", amount: "1", schedule: .perTerm)]))
        }
    }

    @Test("aged receivables and collections add up to the balances and the day's payments")
    func reports() throws {
        let fixture = try FeesFixture()
        let aged = try fixture.run(AgedReceivables.self, .init())
        let invoices = try fixture.run(ListFeeInvoices.self, .init()).rows.map(\.invoice)
        #expect(aged.total.totalMinor == invoices.reduce(0) { $0 + max($1.outstandingMinor, 0) })
        #expect(aged.overdueCount == invoices.filter { $0.status == .overdue }.count)
        let student = try fixture.student(in: "7A")
        let before = try fixture.run(FeeCollections.self, .init()).rows.filter { $0.method == .card }.reduce(0) { $0 + $1.netMinor }
        try fixture.run(RecordFeePayment.self, .init(student: student.id, amount: "25.50", method: .card))
        let today = try fixture.run(FeeCollections.self, .init())
        #expect(today.from == "2026-11-22" && today.rows.filter { $0.method == .card }.reduce(0) { $0 + $1.netMinor } == before + 2_550)
    }
}
