import Auth
import Core
import Fees
import Foundation
import HogwartsTestSupport
import Students
import Testing

/// Late fees: off until a school sets a rule; then charged once on each invoice still unpaid past
/// its grace period, whoever runs the job and however often, and shown apart in the app's answer.
@Suite("Fees: late fees")
struct FeesLateFeeTests {
    /// Invoices past `days` of grace with something left to pay, as the accountant lists them.
    static func lateInvoices(_ fixture: FeesFixture, graceDays: Int) throws -> [FeeInvoice] {
        let cutoff = CivilDate(FeesFixture.moment, in: .gmt).adding(days: -graceDays).description
        return try fixture.run(ListFeeInvoices.self, .init()).rows.map(\.invoice)
            .filter { $0.dueOn < cutoff && $0.outstandingMinor > 0 && $0.cancelledMinor == 0 }
    }

    static func total(_ fixture: FeesFixture) throws -> Int {
        try fixture.run(FeeBalances.self, .init()).rows.reduce(0) { $0 + $1.balanceMinor }
    }

    @Test("no rule, no fee: the job finds nothing to do and balances stay as they are")
    func offByDefault() throws {
        let fixture = try FeesFixture()
        let before = try Self.total(fixture)
        #expect(try fixture.run(LateFeesDue.self, .init()) == false)
        #expect(try fixture.run(ApplyLateFees.self, .init()).charged == 0)
        #expect(try Self.total(fixture) == before)
    }

    @Test("5% after 7 days: every invoice unpaid past its grace is charged 5% of what it still owes, once; the app shows it as late_fee")
    func percentOnce() async throws {
        let fixture = try FeesFixture()
        try fixture.harness.kernel.setSetting("fees.late-fee", to: "5%", for: fixture.school.slug, by: .localOperator)
        let late = try Self.lateInvoices(fixture, graceDays: 7)
        #expect(!late.isEmpty, "the demo has families overdue")
        let before = try Self.total(fixture)
        let expected = late.reduce(0) { $0 + FeesMoney.percent($1.outstandingMinor, basisPoints: 500) }
        #expect(try fixture.run(LateFeesDue.self, .init()))
        #expect(try fixture.run(ApplyLateFees.self, .init()).charged == late.count)
        #expect(try Self.total(fixture) == before + expected)
        #expect(try fixture.run(ApplyLateFees.self, .init()).charged == 0, "a second run charges nothing again")
        #expect(try fixture.run(LateFeesDue.self, .init()) == false)
        #expect(try Self.total(fixture) == before + expected)

        let charged = try #require(late.first)
        let account = try fixture.run(StudentFeeAccount.self, .init(student: charged.studentID))
        let invoice = try #require(account.invoices.first { $0.id == charged.id })
        #expect(invoice.lateFeeMinor == FeesMoney.percent(charged.outstandingMinor, basisPoints: 500))
        try await fixture.harness.api { api in
            let answer = try await api.get("/api/mobile/fees?student_id=\(charged.studentID)&per_page=100", as: fixture.admin)
            let item = try #require(answer.data.first { $0["id"] as? String == charged.id })
            #expect((item["late_fee"] as? NSNumber)?.doubleValue == Double(invoice.lateFeeMinor) / 100)
            #expect((item["amount"] as? NSNumber)?.doubleValue == Double(charged.amountMinor - charged.cancelledMinor) / 100, "the charge itself, the fee apart")
        }
    }

    @Test("a fixed fee run by several servers at once is charged once per invoice (PostgreSQL: several connections)")
    func concurrentRunsChargeOnce() async throws {
        let fixture = try FeesFixture()
        try fixture.harness.kernel.setSetting("fees.late-fee", to: "10", for: fixture.school.slug, by: .localOperator)
        try fixture.harness.kernel.setSetting("fees.late-fee-grace-days", to: "0", for: fixture.school.slug, by: .localOperator)
        let late = try Self.lateInvoices(fixture, graceDays: 0)
        let before = try Self.total(fixture)
        let kernel = fixture.harness.kernel, school = fixture.school.id
        let charged = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<4 {
                group.addTask { try kernel.run(ApplyLateFees.self, .init(), as: .localOperator, in: school).charged }
            }
            return try await group.reduce(0, +)
        }
        #expect(charged == late.count)
        #expect(try Self.total(fixture) == before + 1000 * late.count)
    }

    @Test("a rule that is not an amount or a percent is refused and changes nothing")
    func badRuleRefused() throws {
        let fixture = try FeesFixture()
        for bad in ["five", "5%%", "-3", "1e3"] {
            #expect(throws: (any Error).self) { try fixture.harness.kernel.setSetting("fees.late-fee", to: bad, for: fixture.school.slug, by: .localOperator) }
        }
        #expect(try fixture.run(LateFeesDue.self, .init()) == false)
    }
}
