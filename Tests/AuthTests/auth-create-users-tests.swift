import Auth
import Core
import Foundation
import HogwartsTestSupport
import Testing

@Suite("Creating many accounts at once")
struct CreateUsersTests {
    func create(_ fixture: AuthFixture, _ rows: [CreateUsers.Row]) throws -> [User] {
        try fixture.harness.run(CreateUsers.self, .init(users: rows), as: .admin)
    }

    @Test("each row becomes an account; one with a password signs in, one without never does")
    func creates() throws {
        let fixture = try AuthFixture()
        let users = try create(fixture, [
            .init(email: " Sara@School.org ", displayName: "Sara Ali ", role: .teacher, password: "Corr3ct-Horse"),
            .init(email: "omar@school.org", displayName: "Omar Hassan", role: .student),
        ])
        #expect(users.map(\.email) == ["sara@school.org", "omar@school.org"])
        #expect(users.map(\.displayName) == ["Sara Ali", "Omar Hassan"])
        #expect(users.map(\.role) == [.teacher, .student])
        #expect(try fixture.signIn("sara@school.org").token != nil)
        #expect(try fixture.signIn("omar@school.org", "Corr3ct-Horse").token == nil, "no password matches an account created without one")
        let listed = try fixture.harness.run(ListUsers.self, .init(), as: .admin).map(\.email)
        #expect(listed.contains("omar@school.org") && listed.contains("sara@school.org"))
        let audit = try fixture.harness.kernel.auditLog(for: fixture.harness.school.id, limit: 10).filter { $0.action == CreateUsers.id }
        #expect(audit.map(\.detail) == ["2 users"], "one audit line for the batch")
    }

    @Test("a bad row refuses the whole batch with CreateUser's own message, naming the row")
    func sameRulesAsOne() throws {
        let fixture = try AuthFixture()
        try fixture.addUser("taken@school.org")
        let cases: [(CreateUsers.Row, CreateUser.Input)] = [
            (.init(email: "not-an-email", displayName: "X", role: .teacher), .init(email: "not-an-email", displayName: "X", role: .teacher, password: "Corr3ct-Horse")),
            (.init(email: "taken@school.org", displayName: "X", role: .teacher), .init(email: "taken@school.org", displayName: "X", role: .teacher, password: "Corr3ct-Horse")),
            (.init(email: "blank@school.org", displayName: "  ", role: .teacher), .init(email: "blank@school.org", displayName: "  ", role: .teacher, password: "Corr3ct-Horse")),
            (.init(email: "weak@school.org", displayName: "W", role: .teacher, password: "12345678"),
             .init(email: "weak@school.org", displayName: "W", role: .teacher, password: "12345678")),
        ]
        let localizer = fixture.harness.kernel.localizer
        for (row, single) in cases {
            var one: (any Error)?
            do { _ = try fixture.harness.run(CreateUser.self, single, as: .admin) } catch { one = error }
            do {
                _ = try create(fixture, [.init(email: "fine@school.org", displayName: "Fine", role: .teacher), row])
                Issue.record("\(row.email) was accepted")
            } catch let error as BatchRowError {
                #expect(error.index == 1)
                #expect(localizer.message(for: error) == one.map(localizer.message(for:)), "\(row.email): the single action's message")
            }
        }
        let emails = try fixture.harness.run(ListUsers.self, .init(), as: .admin).map(\.email)
        #expect(!emails.contains("fine@school.org"), "nothing of a refused batch stays")
    }

    @Test("an email twice in one batch is taken at its second row")
    func duplicateInBatch() throws {
        let fixture = try AuthFixture()
        #expect(throws: BatchRowError.self) {
            try create(fixture, [.init(email: "a@school.org", displayName: "A", role: .teacher), .init(email: "A@school.org", displayName: "B", role: .staff)])
        }
        do {
            _ = try create(fixture, [.init(email: "a@school.org", displayName: "A", role: .teacher), .init(email: "A@school.org", displayName: "B", role: .staff)])
        } catch let error as BatchRowError {
            #expect(error.index == 1)
            #expect(error.error as? AuthError == .emailTaken("a@school.org"))
        }
    }

    @Test("only those who manage users may create them")
    func permission() throws {
        let fixture = try AuthFixture()
        #expect(throws: KernelError.permissionDenied(permission: "auth.users.manage", role: .teacher)) {
            try fixture.harness.run(CreateUsers.self, .init(users: [.init(email: "x@school.org", displayName: "X", role: .admin)]), as: .teacher)
        }
    }
}
