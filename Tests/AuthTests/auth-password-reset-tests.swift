import Auth
import Core
import Foundation
import HogwartsTestSupport
import Testing

/// Accounts that forget their password, over HTTP the way a phone does it (contract §1).
struct ResetFixture {
    let harness: TestHarness
    let clock = TestClock()
    let mail = MailCatcher()

    init() throws {
        let clock = clock
        harness = try TestHarness(modules: [AuthModule(), mail.module], clock: { clock.now })
        try harness.kernel.setSetting("auth.password-hash-cost", to: "10", for: harness.school.id, by: harness.user(.admin))
    }

    @discardableResult
    func addUser(_ email: String, password: String = "Corr3ct-Horse", in school: School? = nil) throws -> User {
        let school = school ?? harness.school
        return try harness.kernel.run(CreateUser.self, .init(email: email, displayName: "Amina Osman", role: .guardian, password: password),
                                      as: harness.user(.admin, in: school), in: school.id)
    }

    /// Past the address's limit of 5 a minute.
    func nextMinute() { clock.advance(61) }
}

extension APITestClient {
    func askReset(_ email: String) async throws -> APITestResponse {
        try await post("/api/mobile/auth/reset", json: ["email": email])
    }

    func verifyCode(_ email: String, _ otp: String) async throws -> APITestResponse {
        try await post("/api/mobile/auth/verify-otp", json: ["email": email, "otp": otp])
    }

    func newPassword(_ email: String, _ otp: String, _ password: String) async throws -> APITestResponse {
        try await post("/api/mobile/auth/new-password", json: ["email": email, "otp": otp, "new_password": password])
    }
}

@Suite("Password reset")
struct PasswordResetTests {
    @Test("a code is mailed in the person's language; verify-otp leaves it usable; new-password uses it once, and every old sign-in ends")
    func wholeFlow() async throws {
        let fixture = try ResetFixture()
        let user = try fixture.addUser("amina@school.org")
        let cliSession = try #require(try fixture.harness.kernel.run(SignIn.self, .init(email: "amina@school.org", password: "Corr3ct-Horse"),
                                                                      as: .anonymous, in: fixture.harness.school.id).token)
        try await fixture.harness.api { api in
            let old = try await api.tokens("amina@school.org")
            let asked = try await api.askReset("Amina@School.org ")
            #expect(asked.status == 200 && Set(asked.object.keys) == ["message"], "\(asked.text)")
            let mail = try #require(try await fixture.mail.waitFor(1).first, "no mail was asked for")
            #expect(mail.email == "amina@school.org" && mail.userID == user.id && mail.kind == "password-reset")
            #expect(mail.language == fixture.harness.school.language, "the school's language: the person chose none")
            let code = try #require(MailCatcher.code(in: mail))
            #expect(mail.subject.contains(code) && mail.text.contains("10"))
            let wrong = code == "000000" ? "000001" : "000000"

            let refused = try await api.verifyCode("amina@school.org", wrong)
            #expect(refused.status == 401 && refused.object["code"] as? String == "AUTH_RESET_CODE_INVALID")
            #expect(try await api.verifyCode("amina@school.org", code).status == 200)
            #expect(try await api.verifyCode("amina@school.org", code).status == 200, "checking does not use the code up")
            fixture.nextMinute()

            let weak = try await api.newPassword("amina@school.org", code, "short")
            #expect(weak.status == 400, "\(weak.text)")
            let changed = try await api.newPassword("amina@school.org", code, "Blue-Nile-River-7")
            #expect(changed.status == 200, "\(changed.text)")
            #expect(try await api.newPassword("amina@school.org", code, "Another-Pass-99").status == 401, "a code works once")

            #expect(try await api.get("/api/mobile/profile", headers: api.bearer(old.access)).status == 401, "the old access token ended")
            #expect(try await api.refresh(old.refresh).status == 401, "the old refresh family ended")
            fixture.nextMinute()
            #expect(try await api.signIn("amina@school.org", "Corr3ct-Horse").status == 401)
            #expect(try await api.signIn("amina@school.org", "Blue-Nile-River-7").status == 200)
        }
        #expect(try fixture.harness.kernel.run(ResolveSession.self, .init(token: cliSession), as: .anonymous, in: fixture.harness.school.id).state == .invalid,
                "the command line's session ended too")
    }

    @Test("unknown, suspended and real emails get the same answer; only the real, active account is mailed, in English once chosen")
    func sameAnswer() async throws {
        let fixture = try ResetFixture()
        try fixture.addUser("amina@school.org")
        try fixture.addUser("sara@school.org")
        _ = try fixture.harness.kernel.run(SetSuspended.self, UserChange(email: "sara@school.org", suspended: true), as: fixture.harness.user(.admin),
                                           in: fixture.harness.school.id)
        try await fixture.harness.api { api in
            let known = try await api.askReset("amina@school.org")
            let unknown = try await api.askReset("nobody@school.org")
            let suspended = try await api.askReset("sara@school.org")
            #expect(known.status == 200 && unknown.status == 200 && suspended.status == 200)
            #expect(known.body == unknown.body && known.body == suspended.body)
            let english = try await api.request(.post, "/api/mobile/auth/reset", json: ["email": "nobody@school.org"], headers: ["Accept-Language": "en"])
            #expect(english.object["message"] as? String == "If this email has an account, a 6-digit code is on its way to it. It works for 10 minutes.")
            _ = try await fixture.mail.waitFor(1)
            _ = try await fixture.mail.waitFor(2, within: 3)
            #expect(fixture.mail.mails.map(\.email) == ["amina@school.org"])
        }
    }

    @Test("a code stops working after 10 minutes, and after 5 wrong tries; a new code replaces the old one")
    func expiryAndTries() async throws {
        let fixture = try ResetFixture()
        try fixture.addUser("amina@school.org")
        try await fixture.harness.api { api in
            _ = try await api.askReset("amina@school.org")
            let firstMail = try #require(try await fixture.mail.waitFor(1).first)
            let first = try #require(MailCatcher.code(in: firstMail))
            fixture.clock.advance(10 * 60 + 1)
            #expect(try await api.verifyCode("amina@school.org", first).status == 401, "expired")

            _ = try await api.askReset("amina@school.org")
            let secondMail = try #require(try await fixture.mail.waitFor(2).last)
            let second = try #require(MailCatcher.code(in: secondMail))
            let wrong = second == "123456" ? "654321" : "123456"
            fixture.nextMinute()
            for _ in 0..<4 { #expect(try await api.verifyCode("amina@school.org", wrong).status == 401) }
            fixture.nextMinute()
            #expect(try await api.verifyCode("amina@school.org", wrong).status == 401, "the fifth wrong try")
            #expect(try await api.newPassword("amina@school.org", second, "Blue-Nile-River-7").status == 401, "five wrong tries end the code")

            fixture.nextMinute()
            _ = try await api.askReset("amina@school.org")
            let thirdMail = try #require(try await fixture.mail.waitFor(3).last)
            let third = try #require(MailCatcher.code(in: thirdMail))
            #expect(try await api.newPassword("amina@school.org", third, "Blue-Nile-River-7").status == 200, "a new code works")
        }
    }

    @Test("5 requests a minute from one address (429 with Retry-After), 3 mails per email in 15 minutes, and a malformed code is 400")
    func limits() async throws {
        let fixture = try ResetFixture()
        try fixture.addUser("amina@school.org")
        try await fixture.harness.api { api in
            for _ in 0..<5 { #expect(try await api.askReset("amina@school.org").status == 200) }
            let limited = try await api.askReset("amina@school.org")
            #expect(limited.status == 429 && limited.headers["retry-after"].flatMap { Int($0) }.map { (1...60).contains($0) } == true)
            #expect(try await api.verifyCode("amina@school.org", "123456").status == 429, "the three routes share the limit")
            _ = try await fixture.mail.waitFor(3)
            _ = try await fixture.mail.waitFor(4, within: 3)
            #expect(fixture.mail.mails.count == 3, "the fourth and fifth asks were answered but not mailed")

            fixture.nextMinute()
            let malformed = try await api.verifyCode("amina@school.org", "12345a")
            #expect(malformed.status == 400 && malformed.fields == ["otp"])
            #expect(try await api.askReset("").fields == ["email"])
        }
    }

    @Test("an email in two schools gets a code from each; each code resets only its own school's account")
    func twoSchools() async throws {
        let fixture = try ResetFixture()
        let other = try fixture.harness.makeSchool("other-school")
        try fixture.harness.kernel.setSetting("auth.password-hash-cost", to: "10", for: other.id, by: fixture.harness.user(.admin, in: other))
        try fixture.addUser("amina@school.org")
        let there = try fixture.addUser("amina@school.org", in: other)
        try await fixture.harness.api { api in
            _ = try await api.askReset("amina@school.org")
            let mails = try await fixture.mail.waitFor(2)
            #expect(mails.count == 2)
            let code = try #require(mails.first { $0.userID == there.id }.flatMap(MailCatcher.code(in:)))
            #expect(try await api.newPassword("amina@school.org", code, "Blue-Nile-River-7").status == 200)
            fixture.nextMinute()
            #expect(try await api.signIn("amina@school.org", "Blue-Nile-River-7", school: other.id).status == 200)
            #expect(try await api.signIn("amina@school.org", "Corr3ct-Horse", school: fixture.harness.school.id).status == 200, "the first school's password is unchanged")
        }
    }
}
