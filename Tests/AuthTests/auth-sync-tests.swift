import Auth
import Core
import Foundation
import HogwartsTestSupport
import Testing

/// Seed 000 §9.2 for the profile: last write wins by `updatedAt`, field by field.
@Suite("Auth: offline profile edits")
struct AuthSyncTests {
    struct Person {
        let fixture: AuthFixture
        let principal: Principal

        init() throws {
            fixture = try AuthFixture()
            let user = try fixture.addUser("amal@example.org")
            principal = Principal(userID: user.id, role: .teacher, schoolID: fixture.harness.school.id, displayName: user.displayName)
        }

        var now: Date { fixture.clock.now }

        @discardableResult
        func update(_ input: UpdateProfile.Input) throws -> Profile {
            try fixture.harness.kernel.run(UpdateProfile.self, input, as: principal, in: fixture.harness.school.id)
        }
    }

    @Test("a newer field applies, a staler one is kept from the server without failing the others, and the answer names it")
    func perField() throws {
        let person = try Person()
        let now = person.now
        try person.update(.init(displayName: "Amal (phone A)", bio: "A", updatedAt: .init(displayName: now.addingTimeInterval(-60), bio: now.addingTimeInterval(-60)),
                                clientID: "a"))
        // Phone B was offline longer: its name is older than A's, its biography newer.
        let merged = try person.update(.init(displayName: "Amal (phone B)", bio: "B",
                                             updatedAt: .init(displayName: now.addingTimeInterval(-600), bio: now.addingTimeInterval(-30)), clientID: "b"))
        #expect(merged.user.displayName == "Amal (phone A)")
        #expect(merged.bio == "B")
        #expect(merged.keptFromServer == ["displayName"])
        let shown = try person.fixture.harness.kernel.run(ShowProfile.self, .init(), as: person.principal, in: person.fixture.harness.school.id)
        #expect(shown.user.displayName == "Amal (phone A)" && shown.bio == "B" && shown.keptFromServer == nil)
    }

    @Test("a time from a clock running ahead counts as now, so a later edit still wins")
    func futureClamped() throws {
        let person = try Person()
        try person.update(.init(language: .ar, updatedAt: .init(language: person.now.addingTimeInterval(86_400)), clientID: "fast"))
        person.fixture.clock.advance(60)
        let later = try person.update(.init(language: .en, updatedAt: .init(language: person.now.addingTimeInterval(-1)), clientID: "slow"))
        #expect(later.language == .en && later.keptFromServer == [])
    }

    @Test("two edits of a field at the same instant: the higher client id wins, whichever arrives last")
    func tieGoesToHigherClient() throws {
        let person = try Person()
        let at = person.now.addingTimeInterval(-10)
        try person.update(.init(bio: "from z", updatedAt: .init(bio: at), clientID: "zz"))
        let lower = try person.update(.init(bio: "from a", updatedAt: .init(bio: at), clientID: "aa"))
        #expect(lower.bio == "from z" && lower.keptFromServer == ["bio"])
        let other = try Person()
        try other.update(.init(bio: "from a", updatedAt: .init(bio: at), clientID: "aa"))
        let higher = try other.update(.init(bio: "from z", updatedAt: .init(bio: at), clientID: "zz"))
        #expect(higher.bio == "from z" && higher.keptFromServer == [])
    }

    @Test("an edit without times (the CLI, the web API) is now: it applies over an offline edit and an offline edit older than it is kept")
    func plainEditIsNow() throws {
        let person = try Person()
        try person.update(.init(displayName: "Offline name", updatedAt: .init(displayName: person.now.addingTimeInterval(-5)), clientID: "p"))
        let plain = try person.update(.init(displayName: "Typed at the desk"))
        #expect(plain.user.displayName == "Typed at the desk" && plain.keptFromServer == nil)
        let stale = try person.update(.init(displayName: "Older offline name", updatedAt: .init(displayName: person.now.addingTimeInterval(-1)), clientID: "p"))
        #expect(stale.user.displayName == "Typed at the desk" && stale.keptFromServer == ["displayName"])
        person.fixture.clock.advance(1)
        #expect(try person.update(.init(displayName: "Again")).user.displayName == "Again", "two plain edits: the last one wins")
    }

    @Test("a stale field is still checked: a bad value is refused even when it would have been kept")
    func staleStillValidated() throws {
        let person = try Person()
        try person.update(.init(bio: "kept", updatedAt: .init(bio: person.now), clientID: "p"))
        #expect(throws: (any Error).self) {
            try person.update(.init(bio: String(repeating: "x", count: ProfileLimits.bio + 1), updatedAt: .init(bio: person.now.addingTimeInterval(-100)), clientID: "p"))
        }
        #expect(try person.update(.init()).bio == "kept")
    }
}

@Suite("Auth: profile through the sync routes")
struct AuthSyncRouteTests {
    static func time(_ date: Date) -> APIValue { .string(date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))) }

    func push(_ person: AuthSyncTests.Person, seq: Int, client: String, _ args: [String: APIValue]) throws -> SyncPushResult? {
        try person.fixture.harness.kernel.syncPush(SyncPushRequest(clientId: client, mutations: [
            SyncPushMutation(seq: seq, id: "00000000-0000-4000-8000-\(String(format: "%012d", seq))", name: "auth.update-profile@1", args: .object(args)),
        ]), as: person.principal, in: person.fixture.harness.school.id).results.first
    }

    func profiles(as principal: Principal, _ fixture: AuthFixture) throws -> [String: [String: APIValue]] {
        guard case .changes(let changes, _, let hasMore, _) = try fixture.harness.kernel.syncPull(clientID: nil, cursor: nil, limit: 1000, as: principal,
                                                                                                 in: fixture.harness.school.id) else { return [:] }
        #expect(!hasMore)
        var found: [String: [String: APIValue]] = [:]
        for change in changes where change.type == "profile" {
            if case .object(let data) = change.data { found[change.id] = data }
        }
        return found
    }

    @Test("auth.update-profile@1 applies once; a stale field comes back as kept; the profile reaches its owner alone")
    func throughSync() throws {
        let person = try AuthSyncTests.Person()
        let now = person.now
        let client = UUID().uuidString.lowercased()
        try person.update(.init(bio: "Set at the desk"))
        let args: [String: APIValue] = ["displayName": "Amal S.", "bio": "Written offline", "clientId": .string(client),
                                        "updatedAt": .object(["displayName": Self.time(now.addingTimeInterval(-30)), "bio": Self.time(now.addingTimeInterval(-300))])]
        let applied = try #require(try push(person, seq: 1, client: client, args))
        #expect(applied.status == .applied)
        guard case .object(let result) = applied.result else { Issue.record("no result"); return }
        #expect(result["keptFromServer"] == .array(["bio"]))
        #expect(try push(person, seq: 1, client: client, args)?.status == .duplicate)
        let shown = try person.fixture.harness.kernel.run(ShowProfile.self, .init(), as: person.principal, in: person.fixture.harness.school.id)
        #expect(shown.user.displayName == "Amal S." && shown.bio == "Set at the desk")
        let mine = try profiles(as: person.principal, person.fixture)
        #expect(mine.keys.sorted() == [person.principal.userID], "one's own profile only")
        #expect(mine[person.principal.userID]?["name"] == .string("Amal S."))
        guard case .object(let times) = mine[person.principal.userID]?["fieldUpdatedAt"] else { Issue.record("no field times"); return }
        #expect(Set(times.keys) == ["displayName", "bio"])
        let colleague = try person.fixture.addUser("colleague@example.org")
        let theirs = try profiles(as: Principal(userID: colleague.id, role: .teacher, schoolID: person.fixture.harness.school.id, displayName: "c"), person.fixture)
        #expect(theirs[person.principal.userID] == nil && theirs.keys.sorted() == [colleague.id])
        let admin = person.fixture.harness.user(.admin)
        #expect(try profiles(as: admin, person.fixture)[person.principal.userID] == nil, "not even an administrator's app")
    }
}
