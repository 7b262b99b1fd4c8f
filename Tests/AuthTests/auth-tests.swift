import Auth
import Core
import Foundation
import HogwartsTestSupport
import Testing

/// A harness with Auth installed, fast hashing, and a clock tests can move.
struct AuthFixture {
    let harness: TestHarness
    let clock: TestClock

    init() throws {
        clock = TestClock()
        let clock = clock
        harness = try TestHarness(modules: [AuthModule()], clock: { clock.now })
        try harness.kernel.setSetting("auth.password-hash-cost", to: "10", for: harness.school.id, by: harness.user(.admin))
    }

    @discardableResult
    func addUser(_ email: String, role: Role = .teacher, password: String = "Corr3ct-Horse", in school: School? = nil) throws -> User {
        let school = school ?? harness.school
        return try harness.kernel.run(CreateUser.self, .init(email: email, displayName: email, role: role, password: password),
                                      as: harness.user(.admin, in: school), in: school.id)
    }

    func signIn(_ email: String, _ password: String = "Corr3ct-Horse", in school: School? = nil) throws -> SignInResult {
        try harness.kernel.run(SignIn.self, .init(email: email, password: password), as: .anonymous, in: (school ?? harness.school).id)
    }

    func resolve(_ token: String) throws -> ResolveSession.Output {
        try harness.kernel.run(ResolveSession.self, .init(token: token), as: .anonymous, in: harness.school.id)
    }

    func attempts(_ email: String) throws -> [String] {
        try harness.kernel.auditLog(for: harness.school.id, limit: 100)
            .filter { $0.action == SignIn.id && ($0.detail ?? "").hasSuffix(email) }
            .map { $0.detail ?? "" }
    }
}

final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current = Date(timeIntervalSince1970: 1_795_000_000)
    var now: Date { lock.withLock { current } }
    func advance(_ seconds: TimeInterval) { lock.withLock { current = current.addingTimeInterval(seconds) } }
}

@Suite("Auth module")
struct AuthTests {
    @Test("every string exists in Arabic and English")
    func strings() {
        let catalog = AuthModule().strings
        #expect(catalog.text("auth.module.name", in: .ar) != nil)
        #expect(catalog.missingTranslations.isEmpty)
    }

    @Test("signing in opens a 24-hour session that names the user, role and school")
    func signInAndResolve() throws {
        let fixture = try AuthFixture()
        try fixture.addUser("t@school.org", role: .teacher)
        let result = try fixture.signIn("T@School.org ")
        let token = try #require(result.token)
        #expect(result.user?.role == .teacher)
        #expect(result.expiresAt == fixture.clock.now.addingTimeInterval(24 * 3600))
        #expect(try fixture.resolve(token).state == .valid)
        #expect(try fixture.resolve("forged-token").state == .invalid)

        fixture.clock.advance(24 * 3600 + 1)
        #expect(try fixture.resolve(token).state == .expired)
    }

    @Test("wrong password, unknown email and suspended account look the same to the caller; the audit says which")
    func noEnumeration() throws {
        let fixture = try AuthFixture()
        try fixture.addUser("known@school.org")
        try fixture.addUser("away@school.org")
        try fixture.harness.kernel.run(SetSuspended.self, UserChange(email: "away@school.org", suspended: true),
                                       as: fixture.harness.user(.admin), in: fixture.harness.school.id)
        let answers = [
            try fixture.signIn("known@school.org", "Wrong-Pass1"),
            try fixture.signIn("nobody@school.org"),
            try fixture.signIn("away@school.org"),
        ]
        for answer in answers {
            #expect(answer.token == nil && answer.user == nil && answer.expiresAt == nil)
        }
        #expect(try fixture.attempts("known@school.org") == ["refused (wrong-password): known@school.org"])
        #expect(try fixture.attempts("nobody@school.org") == ["refused (unknown-email): nobody@school.org"])
        #expect(try fixture.attempts("away@school.org") == ["refused (suspended): away@school.org"])
        #expect(try fixture.harness.kernel.auditLog(for: fixture.harness.school.id).first?.outcome == .failed)
    }

    @Test("five failures in 15 minutes lock the account for 15 minutes; an admin can unlock it")
    func lockout() throws {
        let fixture = try AuthFixture()
        try fixture.addUser("t@school.org")
        for _ in 0..<5 { _ = try fixture.signIn("t@school.org", "Wrong-Pass1") }
        #expect(try fixture.signIn("t@school.org").token == nil, "locked: even the right password is refused")
        #expect(try fixture.attempts("t@school.org").first == "refused (locked): t@school.org")

        fixture.clock.advance(15 * 60 + 1)
        #expect(try fixture.signIn("t@school.org").token != nil, "the lock ends after 15 minutes")

        for _ in 0..<5 { _ = try fixture.signIn("t@school.org", "Wrong-Pass1") }
        #expect(try fixture.signIn("t@school.org").token == nil)
        try fixture.harness.kernel.run(UnlockUser.self, UserChange(email: "t@school.org"), as: fixture.harness.user(.admin), in: fixture.harness.school.id)
        #expect(try fixture.signIn("t@school.org").token != nil, "unlocked by an admin at once")
        #expect(try fixture.harness.kernel.auditLog(for: fixture.harness.school.id).contains { $0.action == UnlockUser.id })
    }

    @Test("four failures spread beyond 15 minutes do not lock")
    func failuresOutsideTheWindow() throws {
        let fixture = try AuthFixture()
        try fixture.addUser("t@school.org")
        for _ in 0..<4 { _ = try fixture.signIn("t@school.org", "Wrong-Pass1") }
        fixture.clock.advance(16 * 60)
        _ = try fixture.signIn("t@school.org", "Wrong-Pass1")
        #expect(try fixture.signIn("t@school.org").token != nil)
    }

    @Test("signing out, suspending and resetting the password end sessions")
    func sessionsEnd() throws {
        let fixture = try AuthFixture()
        try fixture.addUser("t@school.org")
        let admin = fixture.harness.user(.admin)
        let school = fixture.harness.school.id

        let first = try #require(try fixture.signIn("t@school.org").token)
        try fixture.harness.kernel.run(SignOut.self, .init(token: first), as: .anonymous, in: school)
        #expect(try fixture.resolve(first).state == .invalid)

        let second = try #require(try fixture.signIn("t@school.org").token)
        try fixture.harness.kernel.run(SetSuspended.self, UserChange(email: "t@school.org", suspended: true), as: admin, in: school)
        #expect(try fixture.resolve(second).state == .invalid)
        try fixture.harness.kernel.run(SetSuspended.self, UserChange(email: "t@school.org", suspended: false), as: admin, in: school)

        let third = try #require(try fixture.signIn("t@school.org").token)
        try fixture.harness.kernel.run(ResetPassword.self, UserChange(email: "t@school.org", password: "N3w-Secret-Pass"), as: admin, in: school)
        #expect(try fixture.resolve(third).state == .invalid)
        #expect(try fixture.signIn("t@school.org").token == nil)
        #expect(try fixture.signIn("t@school.org", "N3w-Secret-Pass").token != nil)
    }

    @Test("weak passwords are refused with the rule they break, and nothing is written", arguments: [
        ("short1", "too-short"), ("aaaaaaaaaa", "repetitive"), ("password1", "common"), ("teacher-2026", "contains-email"),
    ])
    func passwordRules(password: String, rule: String) throws {
        let fixture = try AuthFixture()
        #expect(throws: AuthError.weakPassword(rule)) { try fixture.addUser("teacher@school.org", password: password) }
        #expect(try fixture.harness.kernel.run(ListUsers.self, .init(), as: fixture.harness.user(.admin), in: fixture.harness.school.id).isEmpty)
    }

    @Test("an email is unique within a school but may exist in several schools")
    func emailPerSchool() throws {
        let fixture = try AuthFixture()
        let other = try fixture.harness.makeSchool("other-school")
        try fixture.addUser("parent@family.org", role: .guardian)
        #expect(throws: AuthError.emailTaken("parent@family.org")) { try fixture.addUser("Parent@Family.org", role: .guardian) }
        try fixture.addUser("parent@family.org", role: .guardian, in: other)
        #expect(try fixture.signIn("parent@family.org", in: other).token != nil)
    }

    @Test("only administrators manage users")
    func managementNeedsAdmin() throws {
        let fixture = try AuthFixture()
        for role in [Role.teacher, .student, .guardian, .staff, .accountant] {
            #expect(throws: KernelError.permissionDenied(permission: "auth.users.manage", role: role)) {
                try fixture.harness.kernel.run(CreateUser.self, .init(email: "x@y.org", displayName: "X", role: .admin, password: "Corr3ct-Horse"),
                                               as: fixture.harness.user(role), in: fixture.harness.school.id)
            }
        }
    }

    @Test("hashes exported by the web app ($2a$, $2b$, $2y$) verify")
    func bcryptCompatibility() {
        // The OpenBSD/crypt_blowfish test vector for "U*U".
        let vector = "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"
        #expect(PasswordHasher.verify("U*U", against: vector))
        #expect(PasswordHasher.verify("U*U", against: "$2b$" + vector.dropFirst(4)))
        #expect(PasswordHasher.verify("U*U", against: "$2y$" + vector.dropFirst(4)))
        #expect(!PasswordHasher.verify("U*V", against: vector))
    }

    @Test("a school created with a weak admin password is not created at all")
    func schoolBootstrapIsAtomic() throws {
        let fixture = try AuthFixture()
        let weak = CreateUser.Input(email: "head@new.org", displayName: "Head", role: .admin, password: "1234")
        #expect(throws: AuthError.weakPassword("too-short")) {
            try fixture.harness.kernel.createSchool(NewSchool(slug: "new-school", name: LocalizedText(ar: "ج", en: "N"))) { context in
                try CreateUser().validate(weak, in: context)
            }
        }
        #expect(throws: KernelError.unknownSchool("new-school")) { try fixture.harness.kernel.school("new-school") }
    }
}
