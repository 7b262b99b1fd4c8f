import Auth
import Core
import Foundation
import HogwartsTestSupport
import Testing

extension ResetFixture {
    @discardableResult
    func invite(_ email: String, name: String? = "Omar Hassan", role: Role? = .teacher, as inviter: Role = .admin) throws -> InviteUser.Output {
        try harness.kernel.run(InviteUser.self, .init(email: email, displayName: name, role: role), as: harness.user(inviter), in: harness.school.id)
    }

    /// The link of the last invitation mailed (the page's path and its token).
    func lastLink() throws -> String {
        let mail = try #require(mail.mails.last { $0.kind == "invitation" })
        return try #require(mail.linkPath)
    }
}

/// An administrator invites a person; the email's link opens a page where they choose a password.
@Suite("Invitations")
struct InvitationTests {
    @Test("a new person is invited with a role; the link shows their email, refuses a weak password and keeps working, sets a good one once, and they sign in")
    func wholeFlow() async throws {
        let fixture = try ResetFixture()
        let invited = try fixture.invite("omar@school.org")
        #expect(invited.created && invited.user.role == .teacher)
        #expect(invited.expiresAt == fixture.clock.now.addingTimeInterval(14 * 24 * 3600))
        let mail = try #require(fixture.mail.mails.first)
        #expect(mail.kind == "invitation" && mail.email == "omar@school.org" && mail.language == fixture.harness.school.language)
        #expect(mail.text.contains("{link}") && mail.text.contains(mail.language == .ar ? "معلّم" : "Teacher"),
                "the link is made by the mail module; the role in the person's words")
        let link = try fixture.lastLink()
        #expect(link.hasPrefix("/invitation?token=" + fixture.harness.school.id + "."))

        try await fixture.harness.api { api in
            let before = try await api.signIn("omar@school.org", "1234")
            #expect(before.status == 401, "no password works before the invitation is accepted")
        }
        try await fixture.harness.console { console in
            let page = try await console.get(link)
            #expect(page.status == 200 && page.html.contains("omar@school.org") && page.html.contains("autocomplete=\"new-password\""))
            #expect(!page.html.contains("/sign-in/openid"), "no school account is offered where none is configured")
        }
        try fixture.harness.kernel.run(AddOpenIDProvider.self, .init(issuer: "https://accounts.google.com", clientID: "school-client", domain: "school.org"),
                                       as: fixture.harness.user(.admin), in: fixture.harness.school.id)
        try await fixture.harness.console { console in
            let page = try await console.get(link)
            #expect(page.html.contains("href=\"/sign-in/openid?provider="), "or the school's account instead of a password")
            let token = String(link.dropFirst("/invitation?token=".count))
            let weak = try await console.post("/invitation", [("token", token), ("password", "omar1234")])
            #expect(weak.status == 400 && weak.html.contains("role=\"alert\""), "contains the email's name")
            let done = try await console.post("/invitation", [("token", token), ("password", "Blue-Nile-River-7")])
            #expect(done.status == 200 && done.html.contains("اعتُمدت كلمة مرورك"), "\(done.status)")
            let again = try await console.get(link)
            #expect(again.status == 404 && !again.html.contains("name=\"password\""), "a link works once")
            #expect(try await console.signIn("omar@school.org", "Blue-Nile-River-7").status == 200)
        }
    }

    @Test("a link stops after 14 days, a new invitation replaces the old link, and a forged or foreign token is the same 404")
    func expiryAndReplacement() async throws {
        let fixture = try ResetFixture()
        try fixture.invite("omar@school.org")
        let first = try fixture.lastLink()
        try fixture.invite("omar@school.org", name: nil, role: nil)
        let second = try fixture.lastLink()
        #expect(first != second)
        try await fixture.harness.console { console in
            let replaced = try await console.get(first)
            #expect(replaced.status == 404, "replaced")
            #expect(try await console.get(second).status == 200)
            #expect(try await console.get("/invitation?token=" + fixture.harness.school.id + "." + String(repeating: "A", count: 43)).status == 404)
            #expect(try await console.get("/invitation?token=no-school." + String(repeating: "A", count: 43)).status == 404)
            fixture.clock.advance(14 * 24 * 3600 + 1)
            #expect(try await console.get(second).status == 404, "expired")
        }
    }

    @Test("only an administrator invites; an existing account keeps its role (another role is refused with nothing sent); an account made by an import is invited as it is")
    func refusals() throws {
        let fixture = try ResetFixture()
        #expect(throws: (any Error).self) { try fixture.invite("omar@school.org", as: .teacher) }
        try fixture.addUser("amina@school.org")
        #expect(throws: (any Error).self) { try fixture.invite("amina@school.org", name: nil, role: .teacher) }
        #expect(throws: (any Error).self) { try fixture.invite("new@school.org", name: nil, role: .teacher) }
        #expect(throws: (any Error).self) { try fixture.invite("new@school.org", role: nil) }
        #expect(fixture.mail.mails.isEmpty)
        #expect(try fixture.harness.kernel.run(ListUsers.self, .init(), as: fixture.harness.user(.admin), in: fixture.harness.school.id).map(\.email)
                == ["amina@school.org"], "nothing was created")
        let existing = try fixture.invite("amina@school.org", name: nil, role: nil)
        #expect(!existing.created && existing.user.role == .guardian)
    }

    @Test("an administrator invites from the console's users page")
    func fromConsole() async throws {
        let fixture = try ResetFixture()
        try fixture.harness.kernel.run(CreateUser.self, .init(email: "head@school.org", displayName: "Head", role: .admin, password: "Corr3ct-Horse"),
                                       as: fixture.harness.user(.admin), in: fixture.harness.school.id)
        try await fixture.harness.console { console in
            _ = try await console.signIn("head@school.org", "Corr3ct-Horse")
            let users = try await console.get("/m/auth/users")
            #expect(users.html.contains("id=\"invite-form\""))
            let sent = try await console.post("/m/auth/users", [("do", "invite"), ("email", "omar@school.org"), ("name", "Omar Hassan"), ("role", "TEACHER")])
            #expect(sent.status == 200 && sent.html.contains("omar@school.org"), "\(sent.status)")
        }
        #expect(fixture.mail.mails.map(\.email) == ["omar@school.org"])
    }
}
