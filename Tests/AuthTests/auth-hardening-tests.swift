@testable import Auth
import Core
import Foundation
import Synchronization
import HogwartsTestSupport
import Testing

/// Issue 11: sign-in refusals that cost the same, free text checked at the door, the session
/// file kept private.
@Suite("Auth hardening")
struct AuthHardeningTests {
    /// The costs of the bcrypt verifications one sign-in made. Counted, not timed: speed is
    /// measured by benchmarks, never by timed tests.
    static func verifications(_ fixture: AuthFixture, _ email: String, _ password: String, in school: School? = nil) throws -> (SignInResult, [Int?]) {
        let log = PasswordVerificationLog()
        let result = try PasswordHasher.$log.withValue(log) { try fixture.signIn(email, password, in: school) }
        return (result, log.costs)
    }

    @Test("unknown email, wrong password, locked and suspended accounts each cost exactly one bcrypt check at the school's cost")
    func refusalsCostTheSame() throws {
        let fixture = try AuthFixture()
        let school = fixture.harness.school.id
        try fixture.addUser("known@school.org")
        try fixture.addUser("locked@school.org")
        try fixture.addUser("away@school.org")
        try fixture.harness.kernel.run(SetSuspended.self, UserChange(email: "away@school.org", suspended: true), as: fixture.harness.user(.admin), in: school)
        for _ in 0..<5 { _ = try fixture.signIn("locked@school.org", "Wrong-Pass1") }

        let (unknown, unknownCosts) = try Self.verifications(fixture, "nobody@school.org", "Wrong-Pass1")
        let (wrong, wrongCosts) = try Self.verifications(fixture, "known@school.org", "Wrong-Pass1")
        let (locked, lockedCosts) = try Self.verifications(fixture, "locked@school.org", "Corr3ct-Horse")
        let (suspended, suspendedCosts) = try Self.verifications(fixture, "away@school.org", "Corr3ct-Horse")
        let (_, successCosts) = try Self.verifications(fixture, "known@school.org", "Corr3ct-Horse")

        // The fixture's accounts are hashed at cost 10: every attempt does one check at 10.
        #expect(unknownCosts == [10])
        #expect(wrongCosts == [10])
        #expect(lockedCosts == [10])
        #expect(suspendedCosts == [10])
        #expect(successCosts == [10])
        for answer in [unknown, wrong, locked, suspended] {
            #expect(answer.token == nil && answer.user == nil && answer.expiresAt == nil, "one refusal, whatever the reason")
        }
        #expect(try fixture.attempts("nobody@school.org") == ["refused (unknown-email): nobody@school.org"])
        #expect(try fixture.attempts("known@school.org").contains("refused (wrong-password): known@school.org"))
        #expect(try fixture.attempts("locked@school.org").first == "refused (locked): locked@school.org")
        #expect(try fixture.attempts("away@school.org") == ["refused (suspended): away@school.org"])
    }

    @Test("a sign-in checks its password without holding the writer: another person's write commits meanwhile",
          .disabled(if: TestDatabase.isPostgres, "PostgreSQL's writers do not queue behind one another"))
    func passwordCheckedOutsideTheWriter() throws {
        let fixture = try AuthFixture()
        try fixture.addUser("known@school.org")
        try fixture.addUser("other@school.org")
        let (kernel, school, admin) = (fixture.harness.kernel, fixture.harness.school.id, fixture.harness.user(.admin))
        let committedMeanwhile = Mutex<Bool?>(nil)
        // While bcrypt runs, an admin suspends another account from another thread. If the
        // sign-in held the writer, that write would wait for it: given up on after 5 minutes.
        let log = PasswordVerificationLog {
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                _ = try? kernel.run(SetSuspended.self, UserChange(email: "other@school.org", suspended: true), as: admin, in: school)
                done.signal()
            }
            let committed = done.wait(timeout: .now() + 300) == .success
            committedMeanwhile.withLock { $0 = committed }
        }
        let result = try PasswordHasher.$log.withValue(log) { try fixture.signIn("known@school.org", "Corr3ct-Horse") }

        #expect(result.user?.email == "known@school.org")
        #expect(committedMeanwhile.withLock { $0 } == true)
        #expect(log.costs == [10], "still exactly one bcrypt check")
        #expect(try fixture.signIn("other@school.org").user == nil, "the write made meanwhile took effect: the account is suspended")
    }

    @Test("a new password is hashed outside the write transaction: other writes commit meanwhile", arguments: ["create-user", "create-users", "reset-password"])
    func passwordHashedOutsideTheWriter(action: String) throws {
        let fixture = try AuthFixture()
        try fixture.addUser("known@school.org")
        try fixture.addUser("other@school.org")
        let (kernel, school, admin) = (fixture.harness.kernel, fixture.harness.school.id, fixture.harness.user(.admin))
        let committedMeanwhile = Mutex<[Bool]>([])
        // While bcrypt runs, an admin suspends another account from another thread. If the
        // hashing held the writer, that write would wait for it: given up on after 5 minutes.
        let suspendMeanwhile: @Sendable () -> Void = {
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                _ = try? kernel.run(SetSuspended.self, UserChange(email: "other@school.org", suspended: true), as: admin, in: school)
                done.signal()
            }
            let committed = done.wait(timeout: .now() + 300) == .success
            committedMeanwhile.withLock { $0.append(committed) }
        }
        try PasswordHasher.$whileHashing.withValue(suspendMeanwhile) {
            switch action {
            case "create-user":
                _ = try kernel.run(CreateUser.self, .init(email: "new@school.org", displayName: "New", role: .teacher, password: "Corr3ct-Horse"), as: admin, in: school)
            case "create-users":
                _ = try kernel.run(CreateUsers.self, .init(users: [.init(email: "new@school.org", displayName: "New", role: .teacher, password: "Corr3ct-Horse")]),
                                   as: admin, in: school)
            default:
                _ = try kernel.run(ResetPassword.self, UserChange(email: "known@school.org", password: "Corr3ct-Horse-2"), as: admin, in: school)
            }
        }
        #expect(committedMeanwhile.withLock { $0 } == [true], "hashed once, and the other write committed meanwhile")
        #expect(try fixture.signIn("other@school.org").user == nil, "the write made meanwhile took effect: the account is suspended")
        let email = action == "reset-password" ? "known@school.org" : "new@school.org"
        let password = action == "reset-password" ? "Corr3ct-Horse-2" : "Corr3ct-Horse"
        #expect(try fixture.signIn(email, password).user?.email == email, "the prepared hash is the one stored")
    }

    @Test("a decoy is as costly as the school's real hashes, even when they differ from the setting (as in the demo)")
    func decoyFollowsRealHashes() throws {
        let fixture = try AuthFixture()
        // The demo writes cost-10 hashes into a school whose setting is the default, 12.
        let demoLike = try fixture.harness.kernel.createSchool(NewSchool(slug: "demo-like", name: LocalizedText(ar: "د", en: "D"))) { context in
            for email in ["a@demo.org", "b@demo.org"] {
                try UserAccounts.insert(id: context.newID(), email: email, displayName: email, role: .teacher, passwordHash: AuthDemo.passwordHash, in: context)
            }
        }
        #expect(try fixture.harness.kernel.settings(for: demoLike.id).first { $0.key == "auth.password-hash-cost" }?.value == "12")
        #expect(try Self.verifications(fixture, "nobody@demo.org", "1234", in: demoLike).1 == [10])
        #expect(try Self.verifications(fixture, "a@demo.org", "wrong", in: demoLike).1 == [10])

        // A school with no accounts yet uses its setting.
        let empty = try fixture.harness.makeSchool("empty-school")
        #expect(try Self.verifications(fixture, "nobody@empty.org", "x", in: empty).1 == [12])
    }

    @Test("the decoy is a well-formed hash of the asked cost, built without hashing")
    func decoyIsWellFormed() {
        // At cost 5 it is the OpenBSD vector for "U*U": the C library really computes and compares it.
        #expect(PasswordHasher.verify("U*U", against: PasswordHasher.decoy(cost: 5)))
        #expect(!PasswordHasher.verify("U*U", against: PasswordHasher.decoy(cost: 6)))
        for cost in 10...16 {
            #expect(PasswordHasher.cost(of: PasswordHasher.decoy(cost: cost)) == cost)
            #expect(PasswordHasher.decoy(cost: cost).count == 60)
        }
        #expect(PasswordHasher.cost(of: AuthDemo.passwordHash) == 10)
        #expect(PasswordHasher.cost(of: "not a hash") == nil)
    }

    @Test("control characters in a sign-in email are refused like an unknown email, at the same cost, and never stored raw")
    func controlCharactersAtSignIn() throws {
        let fixture = try AuthFixture()
        try fixture.addUser("t@school.org")
        let (answer, costs) = try Self.verifications(fixture, "t@school.org\u{1B}[2J", "Corr3ct-Horse")
        #expect(answer.token == nil)
        #expect(costs == [10])
        let details = try fixture.harness.kernel.auditLog(for: fixture.harness.school.id, limit: 10).compactMap(\.detail)
        #expect(details.contains { $0.hasPrefix("refused (unknown-email)") && !$0.contains("\u{1B}") })
    }

    @Test("names and emails with a NUL, an escape, a line break or 10,000 characters are refused, naming the field, and nothing is written",
          arguments: [
              ("Al\u{0}i", "t@school.org", "kernel.error.text-control", "The name"),
              ("Red\u{1B}[31m", "t@school.org", "kernel.error.text-control", "The name"),
              ("Two\nlines", "t@school.org", "kernel.error.text-control", "The name"),
              (String(repeating: "a", count: 10_000), "t@school.org", "kernel.error.text-too-long", "The name"),
              ("Teacher", "t\u{7}@school.org", "kernel.error.text-control", "The email"),
              ("Teacher", String(repeating: "e", count: 10_000) + "@school.org", "kernel.error.text-too-long", "The email"),
          ])
    func freeTextRefused(name: String, email: String, key: String, field: String) throws {
        let fixture = try AuthFixture()
        do {
            try fixture.harness.kernel.run(CreateUser.self, .init(email: email, displayName: name, role: .teacher, password: "Corr3ct-Horse"),
                                           as: fixture.harness.user(.admin), in: fixture.harness.school.id)
            Issue.record("accepted \(name.prefix(20)) / \(email.prefix(20))")
        } catch let error as InputError {
            #expect(error.messageKey == key)
            #expect(error.messageArguments["field"] == field)
        }
        #expect(try fixture.harness.kernel.run(ListUsers.self, .init(), as: fixture.harness.user(.admin), in: fixture.harness.school.id).isEmpty)
    }

    @Test("every field name used in a refusal exists in Arabic and English")
    func fieldNamesLocalized() {
        let catalog = AuthModule().strings
        for key in ["auth.field.email", "auth.field.name", "auth.field.name-ar", "auth.field.name-en", "auth.field.admin-email",
                    "auth.field.admin-name", "auth.error.other-school", "auth.warning.session-file-exposed", "auth.error.text-required",
                    "auth.error.weak-password.control", "auth.error.weak-password.too-long"] {
            #expect(catalog.text(key, in: .ar) != nil && catalog.text(key, in: .en) != nil, "\(key)")
        }
    }

    @Test("a password bcrypt would cut short (a NUL, more than 72 bytes) is refused", arguments: [
        ("Corr3ct\u{0}Horse", "control"), (String(repeating: "Ab3-", count: 19), "too-long"), (String(repeating: "كلمة", count: 10), "too-long"),
    ])
    func passwordsBcryptWouldTruncate(password: String, rule: String) throws {
        let fixture = try AuthFixture()
        #expect(throws: AuthError.weakPassword(rule)) { try fixture.addUser("teacher@school.org", password: password) }
    }

    @Test("the session file is written 0600, and a group- or world-readable one is noticed (the binary's test checks the warning)")
    func sessionFilePermissions() throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "hogwarts-session-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = SessionFile(variables: ["HOGWARTS_CONFIG_DIR": directory.path])
        #expect(file.exposedMode() == nil, "no file, nothing to say")
        try file.save(.init(schoolID: "s", email: "t@school.org", token: "secret"), for: "/tmp/x.sqlite")
        let mode = { try FileManager.default.attributesOfItem(atPath: file.url.path)[.posixPermissions] as? Int }
        #expect(try mode() == 0o600)
        #expect(file.exposedMode() == nil)

        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.url.path)
        #expect(file.exposedMode() == 0o644)
        #expect(file.entry(for: "/tmp/x.sqlite")?.token == "secret", "still readable by its owner: a warning, not a failure")

        // Saving again replaces it with a private file.
        try file.save(nil, for: "/tmp/x.sqlite")
        #expect(try mode() == 0o600)
        #expect(file.exposedMode() == nil)
    }
}
