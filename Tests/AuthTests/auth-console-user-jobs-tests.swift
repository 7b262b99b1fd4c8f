import Auth
import Core
import Foundation
import HogwartsTestSupport
import Testing

/// One account's jobs in the web console (issue 34): a reset code mailed, a lock lifted, a role
/// changed, a suspension confirmed first; each through Auth's own action, audited by it.
@Suite("Auth: an account's jobs in the web console")
struct AuthConsoleUserJobsTests {
    let harness: TestHarness
    let mail = MailCatcher()
    static let password = "Corr3ct-Horse"
    static let page = "/m/auth/user"

    init() throws {
        // One moment for the whole test: the lock counts wrong sign-ins inside 15 minutes.
        let start = Date()
        harness = try TestHarness(modules: [AuthModule(), mail.module], clock: { start })
        try harness.kernel.setSetting("auth.password-hash-cost", to: "10", for: harness.school.id, by: harness.user(.admin))
        for (email, name, role) in [("head@school.org", "Amina Head", Role.admin), ("omar@school.org", "Omar Said", .guardian)] {
            try harness.kernel.run(CreateUser.self, .init(email: email, displayName: name, role: role, password: Self.password),
                                   as: harness.user(.admin), in: harness.school.id)
        }
    }

    func account(_ email: String) throws -> User? {
        try harness.kernel.run(ListUsers.self, .init(search: email), as: .localOperator, in: harness.school.id).first { $0.email == email }
    }

    func signIn(_ email: String, _ password: String) throws -> Bool {
        try harness.kernel.run(SignIn.self, .init(email: email, password: password, opensSession: false), as: .anonymous, in: harness.school.id).user != nil
    }

    @Test("the admin mails a reset code from the account's page; the code sets a new password; the request is audited")
    func resetCode() async throws {
        try await harness.console { console in
            try await console.signIn("head@school.org", Self.password)
            let list = try await console.get("/m/auth/users")
            #expect(list.html.contains("href=\"\(Self.page)?email=omar%40school.org\""))
            let page = try await console.get("\(Self.page)?email=omar%40school.org")
            #expect(page.status == 200 && page.html.contains("id=\"reset-job\""))
            #expect(!page.html.contains("--") && !page.html.contains("hogwarts "))
            let done = try await console.post(Self.page, [("do", "reset"), ("email", "omar@school.org")])
            #expect(done.html.contains("id=\"user-done\"") && done.html.contains("أُرسل رمز إعادة التعيين إلى omar@school.org."))
        }
        let sent = try #require(try await mail.waitFor(1).first)
        #expect(sent.email == "omar@school.org")
        let code = try #require(MailCatcher.code(in: sent))
        let changed = try harness.kernel.run(CompletePasswordReset.self, .init(email: "omar@school.org", code: code, newPassword: "Blue-Nile-River-7"),
                                             as: .anonymous, in: harness.school.id)
        #expect(changed)
        #expect(try signIn("omar@school.org", "Blue-Nile-River-7"))
        #expect(try harness.kernel.auditLog(for: harness.school.id).contains { $0.action == RequestPasswordReset.id })
    }

    @Test("a locked account shows its lock, and Unlock lets it sign in again at once")
    func unlock() async throws {
        for _ in 0..<5 { _ = try signIn("omar@school.org", "Wrong-Pass1") }
        #expect(try !signIn("omar@school.org", Self.password), "locked")
        try await harness.console { console in
            try await console.signIn("head@school.org", Self.password)
            _ = try await console.post("/language", [("lang", "en"), ("back", "/m/auth/users")])
            let page = try await console.get("\(Self.page)?email=omar%40school.org")
            #expect(page.html.contains("Locked after wrong sign-ins, until"))
            let done = try await console.post(Self.page, [("do", "unlock"), ("email", "omar@school.org")])
            #expect(done.html.contains("omar@school.org is unlocked: they can sign in now."))
            #expect(!done.html.contains("Locked after wrong sign-ins"))
        }
        #expect(try account("omar@school.org")?.lockedUntil == nil)
        #expect(try signIn("omar@school.org", Self.password))
        #expect(try harness.kernel.auditLog(for: harness.school.id).contains { $0.action == UnlockUser.id })
    }

    @Test("suspending asks first and changes nothing until confirmed; reinstating and a new role are one press each")
    func suspendAndRole() async throws {
        try await harness.console { console in
            try await console.signIn("head@school.org", Self.password)
            let asked = try await console.post(Self.page, [("do", "suspend"), ("email", "omar@school.org")])
            #expect(asked.html.contains("id=\"confirm-suspend\"") && asked.html.contains("name=\"confirm\" value=\"yes\""))
            #expect(try account("omar@school.org")?.status == .active, "nothing changed before the confirmation")
            let suspended = try await console.post(Self.page, [("do", "suspend"), ("email", "omar@school.org"), ("confirm", "yes")])
            #expect(suspended.html.contains("data-status=\"SUSPENDED\"") && suspended.html.contains("id=\"user-done\""))
            #expect(try account("omar@school.org")?.status == .suspended)
            #expect(!suspended.html.contains("id=\"reset-job\""), "no code for a suspended account")
            _ = try await console.post(Self.page, [("do", "reinstate"), ("email", "omar@school.org")])
            #expect(try account("omar@school.org")?.status == .active)
            let role = try await console.post(Self.page, [("do", "role"), ("email", "omar@school.org"), ("role", "TEACHER")])
            #expect(role.html.contains("تغيّر دور omar@school.org"))
            #expect(try account("omar@school.org")?.role == .teacher)

            let own = try await console.post(Self.page, [("do", "suspend"), ("email", "head@school.org"), ("confirm", "yes")])
            #expect(!own.html.contains("id=\"status-job\""), "no jobs on one's own account")
            #expect(try account("head@school.org")?.status == .active)
            #expect(try await console.get("\(Self.page)?email=nobody%40school.org").html.contains("role=\"alert\""))
        }
        let audit = try harness.kernel.auditLog(for: harness.school.id, limit: 20).map(\.action)
        #expect(audit.contains(SetSuspended.id) && audit.contains(ChangeRole.id))
    }

    @Test("someone who may not manage users cannot open an account's page")
    func refused() async throws {
        try await harness.console { console in
            try await console.signIn("omar@school.org", Self.password)
            #expect(try await console.get("\(Self.page)?email=head%40school.org").status == 403)
            let forged = try await console.post(Self.page, [("do", "suspend"), ("email", "head@school.org"), ("confirm", "yes")])
            #expect(forged.status == 403)
        }
        #expect(try account("head@school.org")?.status == .active)
    }
}
