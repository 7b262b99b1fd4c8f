import Core
import Fees
import Foundation
import HogwartsTestSupport
import PropertyBased
import Students
import Testing

@Suite("Fees: money and allocation on generated input")
struct FeesMoneyPropertyTests {
    @Test("amounts print and parse back exactly, in every currency's minor digits")
    func roundTrip() async {
        await propertyCheck(count: 500, input: Gen.int(in: 0...999_999_999_999), Gen.int(in: 0...3)) { minor, digits in
            let text = FeesMoney.format(minor, digits: digits)
            #expect(FeesMoney.parse(text, digits: digits) == minor, "\(text)")
            #expect(FeesMoney.parse(text + "1", digits: digits) != minor || digits == 0)
        }
        #expect(FeesMoney.minorDigits(of: "KWD") == 3 && FeesMoney.minorDigits(of: "JPY") == 0 && FeesMoney.minorDigits(of: "SAR") == 2)
        for text in ["1.234", "-1", "1e3", "", ".", "1.", ".5", "1,000", " 12 3"] { #expect(FeesMoney.parse(text, digits: 2) == nil, "\(text)") }
    }

    static let openInvoices = Gen.int(in: 0...50_000).array(of: 0...12)

    @Test("a payment is spent oldest first, each invoice in full before the next, never more than owed, the rest is credit")
    func allocation() async {
        await propertyCheck(count: 500, input: Self.openInvoices, Gen.int(in: 0...300_000), Gen.int(in: -1...12)) { owed, amount, named in
            let open = owed.enumerated().map { FeesAllocation.Open(invoiceID: "i\($0.offset)", outstanding: $0.element) }
            let first = named >= 0 ? "i\(named)" : nil
            let (shares, credit) = FeesAllocation.allocate(amount, to: open, first: first)
            #expect(shares.reduce(0) { $0 + $1.amount } + credit == amount, "nothing lost or made")
            #expect(credit >= 0 && shares.allSatisfy { $0.amount > 0 })
            let byID = Dictionary(uniqueKeysWithValues: open.map { ($0.invoiceID, $0.outstanding) })
            #expect(shares.allSatisfy { $0.amount <= byID[$0.invoiceID] ?? 0 }, "never more than owed")
            #expect(shares.dropLast().allSatisfy { $0.amount == byID[$0.invoiceID] }, "each in full before the next")
            if credit > 0 { #expect(shares.count == open.filter { $0.outstanding > 0 }.count, "credit only once everything is paid") }
            let order = ([first].compactMap { $0 }.filter { byID[$0] != nil } + open.map(\.invoiceID).filter { $0 != first }).filter { (byID[$0] ?? 0) > 0 }
            #expect(shares.map(\.invoiceID) == Array(order.prefix(shares.count)), "the named invoice, then oldest first")
        }
    }

    @Test("a refund takes back credit first, then the latest invoices, never more than each received")
    func release() async {
        await propertyCheck(count: 500, input: Self.openInvoices, Gen.int(in: 0...300_000), Gen.int(in: 0...20_000)) { paid, amount, credit in
            let shares = paid.enumerated().map { FeesAllocation.Share(invoiceID: "i\($0.offset)", amount: $0.element) }
            let total = shares.reduce(0) { $0 + $1.amount }
            let back = FeesAllocation.release(amount, credit: credit, paid: shares)
            let released = back.reduce(0) { $0 + $1.amount }
            #expect(released == min(max(amount - credit, 0), total))
            let byID = Dictionary(uniqueKeysWithValues: shares.map { ($0.invoiceID, $0.amount) })
            #expect(back.allSatisfy { $0.amount > 0 && $0.amount <= byID[$0.invoiceID] ?? 0 })
        }
    }

    @Test("a discount is never negative nor more than the charge; a prorated charge never more than the whole")
    func discountsAndProration() async {
        await propertyCheck(count: 500, input: Gen.int(in: 0...1_000_000), Gen.int(in: 0...10_000), Gen.int(in: 0...2_000_000), Gen.int(in: -10...400)) { gross, points, fixed, days in
            let percent = FeesAllocation.discount(on: gross, basisPoints: points, fixed: nil)
            let flat = FeesAllocation.discount(on: gross, basisPoints: nil, fixed: fixed)
            #expect((0...gross).contains(percent) && (0...gross).contains(flat))
            let prorated = FeesMoney.prorated(gross, remainingDays: days, totalDays: 365)
            #expect((0...gross).contains(prorated))
            #expect(FeesMoney.prorated(gross, remainingDays: days + 1, totalDays: 365) >= prorated, "more days left, never less to pay")
        }
        #expect(FeesMoney.percent(1_000, basisPoints: 1_250) == 125)
    }
}

@Suite("Fees: the ledger on generated sequences", .serialized)
struct FeesLedgerPropertyTests {
    enum Step: Sendable, CustomStringConvertible {
        case pay(Int), refund(Int, Int), reverse(Int)
        var description: String {
            switch self {
            case .pay(let amount): "pay \(amount)"
            case .refund(let which, let amount): "refund \(amount) of #\(which)"
            case .reverse(let which): "reverse #\(which)"
            }
        }
    }

    static let steps = zip(Gen.int(in: 0...5), Gen.int(in: 0...5), Gen.int(in: 1...400_000)).map { (step: (Int, Int, Int)) -> Step in
        switch step.0 {
        case 0...2: .pay(step.2)
        case 3, 4: .refund(step.1, step.2 / 4 + 1)
        default: .reverse(step.1)
        }
    }.array(of: 1...8)

    @Test("for any sequence of payments, refunds and reversals, the balance is charges minus payments plus refunds, equals what is owed less credit, and receipts run 1, 2, 3 with no gap")
    func balanceInvariant() async throws {
        let fixture = try FeesFixture()
        let student = try fixture.student(in: "8C")
        await propertyCheck(count: 12, input: Self.steps) { steps in
            var receipts: [String] = []
            for step in steps {
                switch step {
                case .pay(let amount):
                    receipts.append(try fixture.run(RecordFeePayment.self, .init(student: student.id, amount: FeesMoney.format(amount, digits: 2), method: .cash)).entry.receipt)
                case .refund(let which, let amount) where !receipts.isEmpty:
                    _ = try? fixture.run(RefundFeePayment.self, .init(receipt: receipts[which % receipts.count], amount: FeesMoney.format(amount, digits: 2)))
                case .reverse(let which) where !receipts.isEmpty:
                    _ = try? fixture.run(RefundFeePayment.self, .init(receipt: receipts[which % receipts.count], kind: .reversal))
                default: break
                }
                let account = try fixture.run(StudentFeeAccount.self, .init(student: student.id))
                let charged = account.invoices.reduce(0) { $0 + $1.amountMinor - $1.cancelledMinor }
                let payments = account.entries.filter { $0.kind == .payment }.reduce(0) { $0 + $1.amountMinor }
                let back = account.entries.filter { $0.kind != .payment }.reduce(0) { $0 + $1.amountMinor }
                #expect(account.balanceMinor == charged - payments + back, "\(steps)")
                let allocated = account.invoices.reduce(0) { $0 + $1.paidMinor }
                let credit = payments - back - allocated
                #expect(credit >= 0 && account.invoices.allSatisfy { $0.outstandingMinor >= 0 && $0.paidMinor >= 0 }, "\(steps)")
                #expect(account.balanceMinor == account.invoices.reduce(0) { $0 + $1.outstandingMinor } - credit, "\(steps)")
            }
        }
        let numbers = try fixture.receiptNumbers()
        #expect(numbers == Array(1...(numbers.last ?? 0)), "no receipt number used twice or skipped")
    }

    @Test("concurrent payments get distinct receipt numbers with no gap (PostgreSQL: several connections at once)")
    func concurrentReceipts() async throws {
        let fixture = try FeesFixture()
        let students = try (["7B", "8B", "9A", "10B", "11A", "12B"]).map { try fixture.student(in: $0) }
        let kernel = fixture.harness.kernel, school = fixture.school.id, admin = fixture.admin
        let receipts = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<24 {
                let student = students[index % students.count]
                group.addTask {
                    try kernel.run(RecordFeePayment.self, .init(student: student.id, amount: "\(index + 1).00", method: .card), as: admin, in: school).entry.receipt
                }
            }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(Set(receipts).count == 24, "no number twice")
        let numbers = try fixture.receiptNumbers()
        #expect(numbers == Array(1...(numbers.last ?? 0)), "no number skipped")
    }
}
