import Auth
import Core
import Fees
import Foundation
import HogwartsTestSupport
import Students
import Testing

/// Fees offline: a guardian's app holds each of their children's accounts, an accountant's every
/// account, and nobody else's; a payment recorded online reaches the family's next pull.
@Suite("Fees: offline sync")
struct FeesSyncTests {
    struct Reset: Error {}

    /// The `fees.account` entities a new app's snapshot holds for a person, by student id, and
    /// the cursor its pulls continue from.
    static func snapshot(_ fixture: FeesFixture, _ principal: Principal) throws -> (accounts: [String: [String: APIValue]], cursor: String) {
        var accounts: [String: [String: APIValue]] = [:]
        var after: String?
        var cursor = ""
        repeat {
            let page = try fixture.harness.kernel.syncSnapshot(after: after, limit: 100, as: principal, in: fixture.school.id)
            for item in page.items where item.type == "fees.account" {
                if case .object(let data) = item.data { accounts[item.id] = data }
            }
            after = page.after
            cursor = page.cursor
        } while after != nil
        return (accounts, cursor)
    }

    /// The `fees.account` changes a pull from `cursor` brings, by student id.
    static func pull(_ fixture: FeesFixture, _ principal: Principal, from cursor: String) throws -> [String: [String: APIValue]] {
        guard case .changes(let changes, _, let hasMore, _) = try fixture.harness.kernel.syncPull(
            clientID: nil, cursor: cursor, limit: 1000, as: principal, in: fixture.school.id) else { throw Reset() }
        #expect(!hasMore)
        var seen: [String: [String: APIValue]] = [:]
        for change in changes where change.type == "fees.account" {
            if case .object(let data)? = change.data { seen[change.id] = data }
        }
        return seen
    }

    static func int(_ value: APIValue?) -> Int? {
        if case .int(let number)? = value { return number }
        return nil
    }

    @Test("a guardian holds exactly their children's accounts, with the ledger's balance and invoices in minor units; teachers and students hold none")
    func scopes() throws {
        let fixture = try FeesFixture()
        let parent = try fixture.account("parent@databayt.org")
        let children = try fixture.children(of: parent)
        let held = try Self.snapshot(fixture, parent).accounts
        #expect(Set(held.keys) == Set(children.map(\.id)))
        for child in children {
            let ledger = try fixture.run(StudentFeeAccount.self, .init(student: child.id))
            let account = try #require(held[child.id])
            #expect(Self.int(account["balanceMinor"]) == ledger.balanceMinor)
            #expect(account["currency"] == .string(ledger.currency) && Self.int(account["minorDigits"]) == ledger.minorDigits)
            guard case .array(let invoices)? = account["invoices"] else { Issue.record("no invoices"); continue }
            #expect(invoices.count == ledger.invoices.count)
        }
        let accountant = try fixture.account("accountant@databayt.org")
        let everyone = try Self.snapshot(fixture, accountant).accounts
        #expect(everyone.count == (try fixture.run(FeeBalances.self, .init()).rows.filter { $0.chargedMinor > 0 || $0.paidMinor > 0 }.count))
        for person in ["teacher@databayt.org", "student@databayt.org"] {
            #expect(try Self.snapshot(fixture, fixture.account(person)).accounts.isEmpty, "\(person) holds no fees")
        }
    }

    @Test("a payment recorded online reaches the family's next pull with the new balance, and no other family's")
    func paymentArrives() throws {
        let fixture = try FeesFixture()
        let parent = try fixture.account("parent@databayt.org")
        let child = try #require(try fixture.children(of: parent).first)
        let before = try Self.snapshot(fixture, parent)
        let balance = try #require(Self.int(before.accounts[child.id]?["balanceMinor"]))

        let family = Set(try fixture.children(of: parent).map(\.id))
        let stranger = try #require(try fixture.run(ListStudents.self, .init()).students.first { !family.contains($0.id) })
        try fixture.run(RecordFeePayment.self, .init(student: stranger.grNumber, amount: "10.00", method: .cash))
        try fixture.run(RecordFeePayment.self, .init(student: child.grNumber, amount: "25.50", method: .cash))

        let after = try Self.pull(fixture, parent, from: before.cursor)
        #expect(Set(after.keys) == [child.id], "only the child who paid, never the stranger")
        #expect(Self.int(after[child.id]?["balanceMinor"]) == balance - 2550)
    }
}
