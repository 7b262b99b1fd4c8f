import Auth
import Core
import Fees
import Foundation
import HogwartsTestSupport
import Students
import Testing

/// Per-class totals: each class's students' charges, payments, balance and overdue, adding up to
/// the school's balances, for the accountant only.
@Suite("Fees: totals per class")
struct FeesClassTotalsTests {
    @Test("the classes' rows add up to the school's balances, and each counts exactly its students")
    func addsUp() throws {
        let fixture = try FeesFixture()
        let totals = try fixture.run(FeeClassTotals.self, .init())
        let balances = try fixture.run(FeeBalances.self, .init())
        #expect(totals.rows.reduce(0) { $0 + $1.students } == balances.rows.count)
        #expect(totals.rows.reduce(0) { $0 + $1.chargedMinor } == balances.rows.reduce(0) { $0 + $1.chargedMinor })
        #expect(totals.rows.reduce(0) { $0 + $1.paidMinor } == balances.rows.reduce(0) { $0 + $1.paidMinor })
        #expect(totals.rows.reduce(0) { $0 + $1.balanceMinor } == balances.rows.reduce(0) { $0 + $1.balanceMinor })
        #expect(totals.rows.reduce(0) { $0 + $1.overdueMinor } == balances.rows.reduce(0) { $0 + $1.overdueMinor })

        let row = try #require(totals.rows.first { $0.classCode == "7A" })
        let students = try fixture.run(ListStudents.self, .init(classCode: "7A", pageSize: 100)).students
        #expect(row.students == students.count)
        let byStudent = Dictionary(uniqueKeysWithValues: balances.rows.map { ($0.studentID, $0) })
        #expect(row.balanceMinor == students.reduce(0) { $0 + (byStudent[$1.id]?.balanceMinor ?? 0) })
        #expect(totals.rows.map { $0.classCode ?? "~" } == totals.rows.map { $0.classCode ?? "~" }.sorted(), "classes in code order")
    }

    @Test("the route and the finance page show them to the accountant; a guardian and a teacher are refused")
    func surfaces() async throws {
        let fixture = try FeesFixture()
        let accountant = try fixture.account("accountant@databayt.org")
        let parent = try fixture.account("parent@databayt.org")
        let teacher = try fixture.account("teacher@databayt.org")
        let seven = try #require(try fixture.run(FeeClassTotals.self, .init()).rows.first { $0.classCode == "7A" })
        try await fixture.harness.api { api in
            let answer = try await api.get("/api/v1/fees/classes", as: accountant)
            #expect(answer.status == 200)
            let row = try #require(answer.data.first { $0["class_code"] as? String == "7A" })
            #expect(row["students"] as? Int == seven.students)
            #expect((row["balance"] as? NSNumber)?.decimalValue == Decimal(seven.balanceMinor) / 100)
            for refused in [parent, teacher] {
                #expect(try await api.get("/api/v1/fees/classes", as: refused).status == 403)
            }
        }
        try await fixture.harness.console { console in
            _ = try await console.signIn("accountant@databayt.org", AuthDemo.password, school: fixture.school.id)
            let page = try await console.get("/m/fees/finance")
            #expect(page.html.contains("id=\"fees-classes\"") && page.html.contains("7A ·"))
        }
    }
}
