import Auth
import Core
import Foundation
import HogwartsTestSupport
import Synchronization
import Testing

/// A person with accounts in two schools in the web console (issue 34): the password typed once,
/// a picker of just the schools where it is right, carried by a signed single-use ticket; and
/// "Switch school", which opens the other school's sign-in with the email filled in.
@Suite("Console: one password for two schools, and switching school", .serialized)
struct ConsoleTwoSchoolsTests {
    static let parent = "parent@databayt.org"
    let harness: TestHarness
    let demo: School
    let nile: School
    /// Seconds added to the kernel's clock (a ticket's two minutes passing).
    let offset: ClockOffset

    /// Seconds added to the kernel's clock.
    final class ClockOffset: Sendable {
        let seconds = Mutex<TimeInterval>(0)
    }

    init() throws {
        let offset = ClockOffset()
        let (harness, schools) = try TestHarness.withDemo(modules: builtInModules, clock: { Date().addingTimeInterval(offset.seconds.withLock { $0 }) })
        self.harness = harness
        self.offset = offset
        demo = try #require(schools.first { $0.slug == "demo" })
        nile = try #require(schools.first { $0.slug == "nile" })
    }

    /// The hidden ticket of the school picker.
    static func ticket(_ page: ConsoleTestPage) -> String? {
        guard let range = page.html.range(of: "name=\"ticket\" value=\"") else { return nil }
        return String(page.html[range.upperBound...].prefix { $0 != "\"" })
    }

    /// The school a page's header names (the layout's site line).
    static func shows(_ page: ConsoleTestPage, _ school: School) -> Bool {
        page.html.contains("<p class=\"site\">\(school.name.ar)</p>") || page.html.contains("<p class=\"site\">\(school.name.en)</p>")
    }

    static func sessionSchool(_ console: ConsoleTestClient) -> String? {
        console.cookies["hogwarts_session"].map { String($0.prefix { $0 != "." }) }
    }

    /// The sign-in page's one refusal sentence.
    static func problem(_ page: ConsoleTestPage) -> String? {
        guard let range = page.html.range(of: "<p class=\"problem\" role=\"alert\">") else { return nil }
        return String(page.html[range.upperBound...].prefix { $0 != "<" })
    }

    @Test("the right password once gets a picker of the schools where it is right, and the chosen school's dashboard with no second password")
    func passwordOnce() async throws {
        let (demo, nile, kernel) = (demo, nile, harness.kernel)
        try await harness.console { console in
            let picker = try await console.signIn(Self.parent, "1234")
            #expect(picker.status == 200)
            #expect(picker.html.contains("action=\"/sign-in/school\"") && picker.html.contains("<select id=\"school\""))
            #expect(picker.html.contains("<option value=\"\(demo.id)\">") && picker.html.contains("<option value=\"\(nile.id)\">"))
            #expect(!picker.html.contains("name=\"password\""), "the picker asks for no password")
            #expect(!picker.html.contains("1234"), "nor carries it")
            #expect(picker.html.contains("data-submit-once") && picker.html.contains("name=\"_csrf\""))
            #expect(console.cookies["hogwarts_session"] == nil, "no session before the choice")
            let ticket = try #require(Self.ticket(picker))

            let dashboard = try await console.post("/sign-in/school", [("ticket", ticket), ("school", nile.id)])
            #expect(dashboard.status == 200)
            #expect(dashboard.html.contains("action=\"/sign-out\""))
            #expect(Self.shows(dashboard, nile), "the dashboard is the chosen school's")
            #expect(Self.sessionSchool(console) == nile.id)
        }
        let audit = try kernel.auditLog(for: nile.id, limit: 10).compactMap(\.detail)
        #expect(audit.contains("signed-in (school chosen after one password): \(Self.parent)"))
        #expect(audit.contains("password checked (one password, school to choose): \(Self.parent)"))
    }

    @Test("right in one school only: signed in there at once, no picker")
    func rightInOneSchool() async throws {
        let (demo, nile) = (demo, nile)
        let admin = harness.user(.admin, in: nile)
        try harness.kernel.setSetting("auth.password-hash-cost", to: "10", for: nile.id, by: harness.user(.developer, in: nile))
        _ = try harness.kernel.run(ResetPassword.self, .init(email: Self.parent, password: "Nile-Only-Passw0rd"), as: admin, in: nile.id)
        try await harness.console { console in
            let dashboard = try await console.signIn(Self.parent, "1234")
            #expect(dashboard.status == 200 && dashboard.html.contains("action=\"/sign-out\""))
            #expect(!dashboard.html.contains("name=\"ticket\""))
            #expect(Self.shows(dashboard, demo))
            #expect(Self.sessionSchool(console) == demo.id)
        }
    }

    @Test("a ticket reused, tampered with, expired, for a school it does not name, or from another browser gets the sign-in page and no session")
    func ticketRefused() async throws {
        let (demo, nile, offset) = (demo, nile, offset)
        try await harness.console { console in
            let picker = try await console.signIn(Self.parent, "1234")
            let ticket = try #require(Self.ticket(picker))
            let csrf = try #require(console.cookies["hogwarts_csrf"])

            func refused(_ page: ConsoleTestPage, _ label: String) {
                #expect(page.status == 400, "\(label): \(page.status)")
                #expect(page.html.contains("action=\"/sign-in\"") && page.html.contains("name=\"password\""), "\(label): the normal sign-in page")
                #expect(Self.problem(page) != nil, "\(label): one sentence says why")
                #expect(console.cookies["hogwarts_session"] == nil, "\(label): no session")
            }

            // Tampered: another school's id in the signed part, a changed signature.
            var parts = ticket.split(separator: ".").map(String.init)
            let payload = try #require(Data(base64Encoded: Self.padded(parts[2])))
            let forged = String(decoding: payload, as: UTF8.self).replacingOccurrences(of: demo.id, with: "forged-school")
            parts[2] = Data(forged.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            refused(try await console.post("/sign-in/school", [("ticket", parts.joined(separator: ".")), ("school", "forged-school"), ("_csrf", csrf)]), "forged payload")
            // A signature's first character changed: six bits of the MAC differ.
            let mac = try #require(parts.last)
            let changed = String(ticket.dropLast(mac.count)) + (mac.hasPrefix("A") ? "B" : "A") + mac.dropFirst()
            refused(try await console.post("/sign-in/school", [("ticket", changed), ("school", nile.id), ("_csrf", csrf)]), "changed signature")
            // The same MAC spelled another way (the last character's unused low bits set): refused,
            // so a ticket has one spelling. A last character that already uses them cannot be respelled.
            if let last = mac.last, let respelled = Self.respelled(last) {
                refused(try await console.post("/sign-in/school", [("ticket", String(ticket.dropLast()) + String(respelled)), ("school", nile.id), ("_csrf", csrf)]),
                        "respelled signature")
            }
            refused(try await console.post("/sign-in/school", [("ticket", "v1.x.y.z"), ("school", nile.id), ("_csrf", csrf)]), "made up")
            // A school the ticket does not name.
            refused(try await console.post("/sign-in/school", [("ticket", ticket), ("school", "nowhere"), ("_csrf", csrf)]), "another school")

            // Another browser (another sign-in CSRF cookie) holding the ticket.
            console.setCookie("hogwarts_csrf", String(repeating: "a", count: 40))
            refused(try await console.post("/sign-in/school", [("ticket", ticket), ("school", nile.id), ("_csrf", String(repeating: "a", count: 40))]),
                    "another browser")

            // The ticket works once in its own browser; sent again (with the same cookie), nothing.
            console.setCookie("hogwarts_csrf", csrf)
            let signedIn = try await console.post("/sign-in/school", [("ticket", ticket), ("school", demo.id), ("_csrf", csrf)])
            #expect(signedIn.status == 200 && Self.shows(signedIn, demo))
            console.setCookie("hogwarts_session", nil)
            console.setCookie("hogwarts_csrf", csrf)
            refused(try await console.post("/sign-in/school", [("ticket", ticket), ("school", nile.id), ("_csrf", csrf)]), "reused")

            // Expired: two minutes pass between the picker and the choice.
            let again = try await console.signIn(Self.parent, "1234")
            let late = try #require(Self.ticket(again))
            let lateCSRF = try #require(console.cookies["hogwarts_csrf"])
            offset.seconds.withLock { $0 = 121 }
            refused(try await console.post("/sign-in/school", [("ticket", late), ("school", nile.id), ("_csrf", lateCSRF)]), "expired")
        }
        let refusals = try harness.kernel.platformAuditLog(limit: 50).compactMap(\.detail).filter { $0.hasPrefix("refused (school choice") }
        #expect(refusals.count >= 6, "each refused ticket is audited")
    }

    @Test("a wrong password never shows the school list: the same refusal as an unknown email, counted in both schools")
    func wrongPassword() async throws {
        let (demo, nile, kernel) = (demo, nile, harness.kernel)
        try await harness.console { console in
            let wrong = try await console.signIn(Self.parent, "not-the-password")
            #expect(wrong.status == 401)
            #expect(!wrong.html.contains("<select") && !wrong.html.contains("name=\"ticket\""))
            #expect(!wrong.html.contains(demo.id) && !wrong.html.contains(nile.id) && !wrong.html.contains(nile.name.ar) && !wrong.html.contains(nile.name.en))
            let unknown = try await console.signIn("ghost@databayt.org", "not-the-password")
            #expect(unknown.status == 401)
            #expect(Self.problem(wrong) != nil && Self.problem(wrong) == Self.problem(unknown))
            #expect(console.cookies["hogwarts_session"] == nil)
        }
        for school in [demo, nile] {
            let audit = try kernel.auditLog(for: school.id, limit: 10).compactMap(\.detail)
            #expect(audit.contains("refused (wrong-password): \(Self.parent)"), "a wrong password counts toward the lockout in \(school.slug)")
        }
    }

    @Test("Switch school: only for a person in two schools; the other school's sign-in with the email filled; afterwards the session is that school's")
    func switchSchool() async throws {
        let (demo, nile) = (demo, nile)
        try await harness.console { console in
            // A teacher of one school has no switcher.
            let teacher = try await console.signIn("teacher@databayt.org", "1234")
            #expect(teacher.status == 200 && teacher.html.contains("action=\"/sign-out\""))
            #expect(!teacher.html.contains("href=\"/switch-school\""))
            let none = try await console.get("/switch-school")
            #expect(none.status == 200 && !none.html.contains("/sign-in?school="))
            #expect(!none.html.contains("hogwarts ") && !none.html.contains("--"))
            _ = try await console.post("/sign-out", [])
        }
        try await harness.console { console in
            let picker = try await console.signIn(Self.parent, "1234")
            let ticket = try #require(Self.ticket(picker))
            let dashboard = try await console.post("/sign-in/school", [("ticket", ticket), ("school", demo.id)])
            #expect(Self.shows(dashboard, demo))
            #expect(dashboard.html.contains("href=\"/switch-school\""), "the menu offers the switch")
            let demoSession = try #require(console.cookies["hogwarts_session"])

            let list = try await console.get("/switch-school")
            #expect(list.status == 200)
            let link = "/sign-in?school=\(nile.id)"
            #expect(list.html.contains("href=\"\(link)\""))
            #expect(!list.html.contains("/sign-in?school=\(demo.id)"), "not the school they are in")
            #expect(!list.html.contains("hogwarts ") && !list.html.contains("--"))

            let form = try await console.get(link)
            #expect(form.status == 200)
            #expect(form.html.contains("value=\"\(Self.parent)\""), "the email is filled in")
            #expect(form.html.contains("<input type=\"hidden\" name=\"school\" value=\"\(nile.id)\">"), "the school is fixed")
            #expect(!form.html.contains("<select"))
            // Not one of theirs: back to the dashboard.
            #expect(try await console.get("/sign-in?school=\(demo.id)", follow: false).location == "/")

            // The password is still checked: a wrong one keeps the session and the school.
            let wrong = try await console.post("/sign-in", [("email", Self.parent), ("password", "nope"), ("school", nile.id)])
            #expect(wrong.status == 401)
            #expect(wrong.html.contains("name=\"school\" value=\"\(nile.id)\""))
            #expect(console.cookies["hogwarts_session"] == demoSession)

            let switched = try await console.post("/sign-in", [("email", Self.parent), ("password", "1234"), ("school", nile.id)])
            #expect(switched.status == 200)
            #expect(Self.shows(switched, nile), "the page names the other school")
            #expect(Self.sessionSchool(console) == nile.id)
            let page = try await console.get("/switch-school")
            #expect(page.html.contains("href=\"/sign-in?school=\(demo.id)\""), "and can switch back")

            // The left school's session ended with its cookie.
            console.setCookie("hogwarts_session", demoSession)
            #expect(try await console.get("/", follow: false).location?.hasPrefix("/sign-in") == true)
        }
    }

    /// The base64url character for the same six bits with the lowest set: a 32-byte MAC's last
    /// character carries four bits, so this spells the same bytes (nil when the bit is already set).
    static func respelled(_ character: Character) -> Character? {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        guard let index = alphabet.firstIndex(of: character), index % 2 == 0 else { return nil }
        return alphabet[index + 1]
    }

    static func padded(_ text: String) -> String {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return base64
    }
}
