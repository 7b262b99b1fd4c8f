import Auth
import Core
import Fees
import Foundation
import HogwartsTestSupport
import Students
import Testing

/// Fees in the web console: the accountant's finance view and payment form, a family's balance
/// and statement. The pages run the module's actions, so a refusal changes nothing.
@Suite("Fees in the web console")
struct FeesConsoleTests {
    @Test("the accountant's home shows today's takings and the overdue total; the finance view draws receivables by age")
    func financeView() async throws {
        let fixture = try FeesFixture()
        try await fixture.harness.console { console in
            let home = try await console.signIn("accountant@databayt.org", AuthDemo.password, school: fixture.school.id)
            #expect(home.html.contains("href=\"/m/fees/finance\""))
            #expect(home.html.contains("المحصّل اليوم:") && home.html.contains("المتأخر:"))
            let finance = try await console.get("/m/fees/finance")
            #expect(finance.status == 200)
            #expect(finance.html.contains("<svg class=\"chart\"") && finance.html.contains("أكثر من 90 يومًا"))
            // The demo has overdue families: the list of those furthest behind links to their statements.
            #expect(finance.html.contains("id=\"fees-behind\"") && finance.html.contains("href=\"/m/fees/balances?student=GR-"))
        }
    }

    @Test("a payment typed into the form gets a receipt and lowers the balance; a bad amount is refused beside the form and records nothing")
    func paymentForm() async throws {
        let fixture = try FeesFixture()
        let student = try fixture.student(in: "11B")
        let before = try fixture.run(StudentFeeAccount.self, .init(student: student.id))
        try await fixture.harness.console { console in
            _ = try await console.signIn("accountant@databayt.org", AuthDemo.password, school: fixture.school.id)
            _ = try await console.post("/language", [("lang", "en"), ("back", "/m/fees/pay")])
            let refused = try await console.post("/m/fees/pay", [("student", student.grNumber), ("amount", "12.345"), ("method", "CASH")])
            #expect(refused.html.contains("id=\"fees-problem\"") && refused.html.contains("value=\"12.345\""))
            #expect(!refused.html.contains("--"), "no command-line words on a web page")
            let saved = try await console.post("/m/fees/pay", [("student", student.grNumber), ("amount", "25.50"), ("method", "BANK_TRANSFER"),
                                                               ("reference", "TR-991")])
            #expect(saved.html.contains("id=\"fees-saved\"") && saved.html.contains("Payment saved, receipt 2026-"))
            #expect(saved.html.contains("TR-991") && saved.html.contains("Bank transfer"))
        }
        let after = try fixture.run(StudentFeeAccount.self, .init(student: student.id))
        #expect(after.entries.count == before.entries.count + 1, "the refused amount recorded nothing; the good one once")
        #expect(after.balanceMinor == before.balanceMinor - 2550)
    }

    @Test("a guardian opens their child's statement from their menu; another family's child reads like a student who does not exist")
    func guardianStatement() async throws {
        let fixture = try FeesFixture()
        let parent = try fixture.account("parent@databayt.org")
        let children = try fixture.children(of: parent)
        let stranger = try #require(try fixture.run(ListStudents.self, .init()).students.first { candidate in !children.contains { $0.id == candidate.id } })
        try await fixture.harness.console { console in
            let home = try await console.signIn("parent@databayt.org", AuthDemo.password, school: fixture.school.id)
            #expect(home.html.contains("href=\"/m/fees/balances\""))
            #expect(!home.html.contains("href=\"/m/fees/finance\""), "the finance view is the accountant's")
            let page = try await console.get("/m/fees/balances")
            for child in children { #expect(page.html.contains(child.grNumber)) }
            if children.count == 1 { #expect(page.html.contains("id=\"fees-invoices\"")) }
            let own = try await console.get("/m/fees/balances?student=\(children[0].grNumber)")
            #expect(own.html.contains("id=\"fees-balance\"") && !own.html.contains("href=\"/m/fees/pay"))
            let foreign = try await console.get("/m/fees/balances?student=\(stranger.grNumber)")
            let missing = try await console.get("/m/fees/balances?student=GR-NOPE")
            #expect(foreign.html.contains("id=\"fees-problem\"") && !foreign.html.contains(stranger.surname) && !foreign.html.contains("id=\"fees-balance\""))
            #expect(Self.problem(foreign.html).replacingOccurrences(of: stranger.grNumber, with: "") == Self.problem(missing.html).replacingOccurrences(of: "GR-NOPE", with: ""))
        }
    }

    @Test("a teacher has no fees page in the menu, and the finance view is closed to them")
    func teacherSeesNothing() async throws {
        let fixture = try FeesFixture()
        try await fixture.harness.console { console in
            let home = try await console.signIn("teacher@databayt.org", AuthDemo.password, school: fixture.school.id)
            #expect(!home.html.contains("/m/fees/"))
            let finance = try await console.get("/m/fees/finance")
            #expect(!finance.html.contains("<svg class=\"chart\"") && !finance.html.contains("id=\"fees-behind\""))
        }
    }

    private static func problem(_ html: String) -> String {
        guard let start = html.range(of: "id=\"fees-problem\">"), let end = html[start.upperBound...].range(of: "</p>") else { return "" }
        return String(html[start.upperBound..<end.lowerBound])
    }
}
