@testable import Core
import Foundation
import HogwartsTestSupport
import JWTKit
import Testing

/// A token is believed only for a live sign-in of the person and role it names, and only under
/// one of our keys: tokens forged with the real signing key are refused like expired ones.
@Suite struct TokenTruthTests {
    @Test func aTokenForAMadeUpSessionIsRefused() async throws {
        let harness = try TestHarness(modules: [NotesModule()])
        try await harness.api { api in
            let forged = try await api.server.tokens.sign(harness.user(.teacher), email: nil, family: "made-up", generation: 0, at: harness.kernel.now())
            let answer = try await api.get("/api/notes", headers: ["Authorization": "Bearer " + forged.accessToken])
            #expect(answer.status == 401 && answer.code == "INVALID_TOKEN")
        }
    }

    @Test func aTokenForARealSessionWithAnotherRoleOrPersonIsRefused() async throws {
        let harness = try TestHarness(modules: [NotesModule()])
        try await harness.api { api in
            let tokens = api.server.tokens
            let teacher = harness.user(.teacher)
            let pair = try await tokens.issue(for: teacher, email: nil)
            let family = try await tokens.verifyAccess(pair.accessToken).family
            let now = harness.kernel.now()
            let promoted = Principal(userID: teacher.userID, role: .admin, schoolID: harness.school.id, displayName: teacher.displayName)
            let asAdmin = try await tokens.sign(promoted, email: nil, family: family, generation: 0, at: now)
            let asSomeoneElse = try await tokens.sign(harness.user(.teacher).renamed("admin@test-school"), email: nil, family: family, generation: 0, at: now)
            for forged in [asAdmin.accessToken, asSomeoneElse.accessToken] {
                let answer = try await api.get("/api/notes", headers: ["Authorization": "Bearer " + forged])
                #expect(answer.status == 401 && answer.code == "INVALID_TOKEN")
            }
            #expect(try await api.get("/api/notes", headers: ["Authorization": "Bearer " + pair.accessToken]).status == 200)
        }
    }

    /// Another server (a second kernel on the same database) changes the family: this server
    /// believes its remembered answer for at most `LiveFamilies.lifetime`, then refuses.
    @Test func aChangeMadeElsewhereStopsTheTokenWithinTheBound() async throws {
        let clock = TestClock()
        let harness = try TestHarness(modules: [NotesModule()], clock: { clock.now })
        let other = try Kernel(databasePath: harness.databasePath, modules: [NotesModule()], language: .en, clock: { clock.now })
        try await harness.api { api in
            let pair = try await api.server.tokens.issue(for: harness.user(.teacher), email: nil)
            let bearer = ["Authorization": "Bearer " + pair.accessToken]
            let family = try await api.server.tokens.verifyAccess(pair.accessToken).family
            #expect(try await api.get("/api/notes", headers: bearer).status == 200)
            try other.tokenStore.setRole(.admin, family: family, school: harness.school.id)
            clock.advance(LiveFamilies.lifetime)
            #expect(try await api.get("/api/notes", headers: bearer).status == 401, "the role in the database is no longer the token's")
        }
    }

    @Test func aTokenNamingAKeyThatIsNotOursIsRefused() async throws {
        let harness = try TestHarness(modules: [NotesModule()])
        try await harness.api { api in
            let tokens = api.server.tokens
            let pair = try await tokens.issue(for: harness.user(.teacher), email: nil)
            let family = try await tokens.verifyAccess(pair.accessToken).family
            // The real secret under a kid we never made: jwt-kit alone would verify it with its default key.
            let now = harness.kernel.now()
            let stored = try harness.kernel.tokenStore.signingKeys(at: now)
            let secret = try #require(stored.all.first { $0.id == stored.current }?.secret)
            let foreign = JWTKeyCollection()
            await foreign.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256, kid: "not-ours")
            let claims = TokenClaims(sub: .init(value: harness.user(.teacher).userID), email: nil, schoolID: harness.school.id, role: Role.teacher.rawValue, name: nil,
                                     type: "access", sid: family, gen: nil, iat: .init(value: now), exp: .init(value: now.addingTimeInterval(3600)))
            let forged = try await foreign.sign(claims, kid: "not-ours")
            let answer = try await api.get("/api/notes", headers: ["Authorization": "Bearer " + forged])
            #expect(answer.status == 401 && answer.code == "INVALID_TOKEN")
            // The same claims under our kid are accepted: only the kid differs.
            let ours = JWTKeyCollection()
            await ours.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256, kid: JWKIdentifier(string: stored.current))
            let genuine = try await ours.sign(claims, kid: JWKIdentifier(string: stored.current))
            #expect(try await api.get("/api/notes", headers: ["Authorization": "Bearer " + genuine]).status == 200)
        }
    }
}

private extension Principal {
    func renamed(_ userID: String) -> Principal {
        Principal(userID: userID, role: role, schoolID: schoolID, displayName: displayName)
    }
}
