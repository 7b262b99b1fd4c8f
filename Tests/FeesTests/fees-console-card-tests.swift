import Auth
import Core
@testable import Fees
import Foundation
import HogwartsTestSupport
import Students
import Testing

/// The accountant's dashboard card: the school's invoiced, paid and owed figures as the fees
/// actions give them, the families furthest behind, and no card for anyone who may not manage
/// fees or in a school with Fees off.
@Suite("Fees on the accountant's dashboard")
struct FeesConsoleCardTests {
    static let empty = ["لا شيء لعرضه لدورك بعد.", "Nothing to show yet for your role."]

    @Test("the accountant's home shows what is invoiced, paid, owed and overdue, as the fees actions count it, in both languages")
    func figures() async throws {
        let fixture = try FeesFixture()
        let accountant = try fixture.account("accountant@databayt.org")
        let balances = try fixture.run(FeeBalances.self, .init(), as: accountant)
        let aged = try fixture.run(AgedReceivables.self, .init(), as: accountant)
        let money = FeesConsole.Money(currency: balances.currency, digits: balances.minorDigits)
        let charged = balances.rows.reduce(0) { $0 + $1.chargedMinor }, owed = balances.rows.reduce(0) { $0 + $1.balanceMinor }
        let overdue = balances.rows.reduce(0) { $0 + $1.overdueMinor }
        try #require(charged > 0 && overdue > 0, "the demo has invoices and families behind")
        #expect(overdue == aged.total.totalMinor - aged.total.currentMinor, "both actions agree on what is overdue")
        let furthest = try #require(balances.rows.max { ($0.overdueMinor, $1.grNumber) < ($1.overdueMinor, $0.grNumber) })

        try await fixture.harness.console { console in
            let home = try await console.signIn("accountant@databayt.org", AuthDemo.password, school: fixture.school.id)
            #expect(home.html.contains("id=\"card-fees-finance\""))
            for text in Self.empty { #expect(!home.html.contains(text)) }
            #expect(Self.figure("fees-card-charged", home.html) == money.text(charged))
            #expect(Self.figure("fees-card-paid", home.html) == money.text(charged - owed))
            #expect(Self.figure("fees-card-owed", home.html) == money.text(owed))
            #expect(Self.figure("fees-card-overdue", home.html) == money.text(overdue))
            #expect(money.text(charged).hasSuffix(" " + balances.currency))
            #expect(home.html.contains("الفواتير الصادرة:"))
            // The family furthest behind comes first, a link to their statement.
            let list = Self.after("id=\"fees-card-behind\"", home.html)
            #expect(list.hasPrefix("><li><a href=\"/m/fees/balances?student=\(furthest.grNumber)\""))
            let names = (list.components(separatedBy: "</ul>").first ?? "").components(separatedBy: "<li>").count - 1
            #expect(names == min(FeesConsole.cardBehind, balances.rows.filter { $0.overdueMinor > 0 }.count))
            _ = try await console.post("/language", [("lang", "en"), ("back", "/")])
            let english = try await console.get("/")
            #expect(english.html.contains("Invoiced:") && english.html.contains("Still owed:") && english.html.contains("Furthest behind"))
            #expect(english.html.contains("as of") && english.html.contains("2026-11-22"), "the figures say which day they are of")
            #expect(Self.figure("fees-card-owed", english.html) == money.text(owed))
        }
    }

    @Test("a guardian and a student see no fees card; the accountant sees none in a school with Fees switched off")
    func notForOthers() async throws {
        let fixture = try FeesFixture()
        for email in ["parent@databayt.org", "student@databayt.org"] {
            try await fixture.harness.console { console in
                let home = try await console.signIn(email, AuthDemo.password, school: fixture.school.id)
                #expect(home.status == 200)
                #expect(!home.html.contains("id=\"card-fees-finance\"") && !home.html.contains("fees-card-owed"), "\(email)")
            }
        }
        _ = try fixture.harness.kernel.disable("fees", for: fixture.school.id, by: .localOperator)
        try await fixture.harness.console { console in
            let home = try await console.signIn("accountant@databayt.org", AuthDemo.password, school: fixture.school.id)
            #expect(home.status == 200)
            #expect(!home.html.contains("id=\"card-fees-finance\"") && !home.html.contains("/m/fees/"))
        }
    }

    /// The text of the element with this id (the card's amounts are `<bdi id=...>amount</bdi>`).
    private static func figure(_ id: String, _ html: String) -> String {
        String(after("id=\"\(id)\">", html).prefix { $0 != "<" })
    }

    private static func after(_ marker: String, _ html: String) -> String {
        guard let range = html.range(of: marker) else { return "" }
        return String(html[range.upperBound...].prefix(2000))
    }
}
