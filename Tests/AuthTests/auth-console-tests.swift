import Auth
import Core
import Foundation
import HogwartsTestSupport
import Testing

/// Signing in to the web console goes through Auth's own actions: the cookie, the CSRF token,
/// the single refusal, the lockout and the audit are the CLI's and the API's.
@Suite("Auth in the web console")
struct AuthConsoleTests {
    let harness: TestHarness
    static let password = "Corr3ct-Horse"

    init() throws {
        // The clock stands at the suite's start: on a loaded machine five sign-ins can take longer
        // than the 15-minute window the lockout counts in (CI's SQLite pass, once).
        let start = Date()
        harness = try TestHarness(modules: [AuthModule()], clock: { start })
        try harness.kernel.setSetting("auth.password-hash-cost", to: "10", for: harness.school.id, by: harness.user(.admin))
        try harness.kernel.run(CreateUser.self, .init(email: "head@school.org", displayName: "Amina Head", role: .admin, password: Self.password),
                               as: harness.user(.admin), in: harness.school.id)
    }

    @Test("signing in sets an HttpOnly, SameSite=Strict session cookie, Secure behind TLS, and opens the dashboard in Arabic")
    func signInCookie() async throws {
        try await harness.console { console in
            let page = try await console.signIn("head@school.org", Self.password)
            #expect(page.status == 200)
            #expect(page.html.contains("<html lang=\"ar\" dir=\"rtl\">"))
            #expect(page.html.contains("Amina Head"))
            #expect(console.cookies["hogwarts_session"] != nil)
        }
        try await harness.console { console in
            _ = try await console.get("/sign-in")
            let answer = try await console.post("/sign-in", [("email", "head@school.org"), ("password", Self.password)], follow: false,
                                                headers: ["X-Forwarded-Proto": "https"])
            let cookie = try #require(answer.setCookies.first { $0.hasPrefix("hogwarts_session=") })
            #expect(answer.status == 303)
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.contains("Secure"))
        }
    }

    @Test("a wrong password gets the one refusal, is audited, and the fifth locks the account even for the right password")
    func refusalAndLockout() async throws {
        try await harness.console { console in
            for _ in 0..<5 {
                let page = try await console.signIn("head@school.org", "wrong-password")
                #expect(page.status == 401)
                #expect(console.cookies["hogwarts_session"] == nil)
            }
            let locked = try await console.signIn("head@school.org", Self.password)
            #expect(locked.status == 401)
            #expect(locked.html.contains("role=\"alert\""))
        }
        let audit = try harness.kernel.auditLog(for: harness.school.id, limit: 20).map { $0.detail ?? "" }
        #expect(audit.contains { $0.contains("refused (wrong-password)") })
        #expect(audit.contains { $0.contains("refused (locked)") })
    }

    @Test("a form without the CSRF token is refused and changes nothing")
    func csrf() async throws {
        try await harness.console { console in
            _ = try await console.get("/sign-in")
            let forged = try await console.post("/sign-in", [("email", "head@school.org"), ("password", Self.password), ("_csrf", "forged")])
            #expect(forged.status == 403)
            #expect(console.cookies["hogwarts_session"] == nil)
            _ = try await console.signIn("head@school.org", Self.password)
            let refused = try await console.post("/language", [("lang", "en"), ("back", "/"), ("_csrf", "0123456789012345678901234567890123456789")])
            #expect(refused.status == 403)
            #expect(try await console.get("/").html.contains("lang=\"ar\""))
        }
    }

    @Test("English is kept in the profile, and signing out ends the session on the server")
    func languageAndSignOut() async throws {
        try await harness.console { console in
            _ = try await console.signIn("head@school.org", Self.password)
            let english = try await console.post("/language", [("lang", "en"), ("back", "/")])
            #expect(english.html.contains("<html lang=\"en\" dir=\"ltr\">"))
            let session = try #require(console.cookies["hogwarts_session"])
            _ = try await console.post("/sign-out", [])
            #expect(console.cookies["hogwarts_session"] == nil)
            console.setCookie("hogwarts_session", session)
            let after = try await console.get("/", follow: false)
            #expect(after.status == 303 && after.location?.hasPrefix("/sign-in") == true)
        }
        let user = try #require(try harness.kernel.run(ListUsers.self, .init(), as: harness.user(.admin), in: harness.school.id)
            .first { $0.email == "head@school.org" })
        let profile = try harness.kernel.run(ShowProfile.self, .init(),
                                             as: Principal(userID: user.id, role: .admin, schoolID: harness.school.id, displayName: user.displayName),
                                             in: harness.school.id)
        #expect(profile.language == .en)
    }
}
