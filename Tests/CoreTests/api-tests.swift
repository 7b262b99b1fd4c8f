import Core
import Foundation
import HogwartsTestSupport
import Testing

/// The HTTP layer every module's routes stand on: one error shape, the token's school, tokens
/// that cannot be swapped or replayed, the module switch, limits, the document and the metrics.
@Suite struct APITests {
    @Test func publicRoutesAnswerWithoutAToken() async throws {
        let harness = try TestHarness(modules: [NotesModule()])
        try await harness.api { api in
            #expect(try await api.get("/health").object["status"] as? String == "ok")
            let ready = try await api.get("/ready")
            #expect(ready.status == 200 && ready.object["status"] as? String == "ready")
            let schools = try await api.get("/api/mobile/schools")
            #expect(schools.array.map { $0["domain"] as? String } == ["test-school"])
            #expect(schools.array.first?["name_en"] as? String == "Test School")
            #expect(schools.array.first?.keys.contains("logo_url") == true)
        }
    }

    @Test func aSignedInRouteRefusesNoTokenInTheRequestsLanguage() async throws {
        let harness = try TestHarness(modules: [NotesModule()])
        try await harness.api { api in
            let arabic = try await api.get("/api/notes")
            #expect(arabic.status == 401 && arabic.code == "UNAUTHENTICATED")
            #expect((arabic.object["error"] as? String)?.contains("سجّل الدخول") == true)
            #expect(arabic.object["details"] as? [Any] != nil)
            let english = try await api.get("/api/notes", headers: ["Accept-Language": "fr;q=1, en-GB;q=0.8"])
            #expect((english.object["error"] as? String)?.hasPrefix("Sign in first") == true)
            let forged = try await api.get("/api/notes", headers: ["Authorization": "Bearer not.a.token"])
            #expect(forged.status == 401 && forged.code == "INVALID_TOKEN")
        }
    }

    @Test func badBodiesAre400NamingTheFieldAndWriteNothing() async throws {
        let harness = try TestHarness(modules: [NotesModule()])
        let teacher = harness.user(.teacher)
        try await harness.api { api in
            let malformed = try await api.request(.post, "/api/notes", as: teacher, raw: "{\"title\": ")
            #expect(malformed.status == 400 && malformed.code == "MALFORMED_JSON")
            let wrongType = try await api.post("/api/notes", as: teacher, json: ["title": 5])
            #expect(wrongType.status == 400 && wrongType.code == "INVALID_FIELD")
            #expect((wrongType.object["details"] as? [[String: Any]])?.first?["field"] as? String == "title")
            let missing = try await api.post("/api/notes", as: teacher, json: ["titel": "typo"])
            #expect((missing.object["details"] as? [[String: Any]])?.first?["field"] as? String == "title")
            let tooLong = try await api.post("/api/notes", as: teacher, json: ["title": String(repeating: "x", count: 41)])
            #expect(tooLong.status == 400 && tooLong.code == "NOTES_TOO_LONG")
            let huge = try await api.request(.post, "/api/notes", as: teacher, raw: "{\"title\": \"" + String(repeating: "x", count: 1 << 20) + "\"}")
            #expect(huge.status == 413 && huge.code == "BODY_TOO_LARGE")
            let unknown = try await api.get("/api/nothing-here", as: teacher)
            #expect(unknown.status == 404 && unknown.code == "NOT_FOUND")
            #expect(try await api.get("/api/notes", as: teacher).data.isEmpty)
        }
    }

    @Test func theSchoolIsAlwaysTheTokens() async throws {
        let harness = try TestHarness(modules: [NotesModule()])
        let other = try harness.makeSchool("other")
        try harness.run(AddNote.self, .init(title: "home note"), as: .teacher)
        try await harness.api { api in
            let outsider = harness.user(.teacher, in: other)
            let listed = try await api.get("/api/notes?school_id=\(harness.school.id)", as: outsider, headers: ["X-School-Id": harness.school.id])
            #expect(listed.status == 200)
            #expect(listed.object["data"] as? [String] == [])
            let written = try await api.post("/api/notes", as: outsider, json: ["title": "mine"], headers: ["X-School-Id": harness.school.id])
            #expect(written.status == 201)
        }
        let home = try harness.run(ListNotes.self, .init(), as: .teacher)
        #expect(home == ["home note"])
    }

    @Test func aModuleSwitchedOffAnswers404ForThatSchoolOnly() async throws {
        let harness = try TestHarness(modules: [NotesModule()])
        let other = try harness.makeSchool("other")
        _ = try harness.kernel.disable("notes", for: harness.school.id, by: .localOperator)
        try await harness.api { api in
            let off = try await api.get("/api/notes", as: harness.user(.teacher))
            #expect(off.status == 404 && off.code == "MODULE_DISABLED")
            #expect(try await api.get("/api/notes", as: harness.user(.teacher, in: other)).status == 200)
            let modules = try await api.get("/api/v1/modules", as: harness.user(.student))
            #expect(modules.data.first { $0["id"] as? String == "notes" }?["enabled"] as? Bool == false)
        }
    }

    @Test func anIdempotencyKeyAppliesAWriteOnce() async throws {
        let harness = try TestHarness(modules: [NotesModule()])
        let teacher = harness.user(.teacher)
        try await harness.api { api in
            let first = try await api.request(.post, "/api/notes", as: teacher, json: ["title": "once"], headers: ["Idempotency-Key": "k-1"])
            let again = try await api.request(.post, "/api/notes", as: teacher, json: ["title": "once"], headers: ["Idempotency-Key": "k-1"])
            #expect(first.object["id"] as? String == again.object["id"] as? String)
        }
        #expect(try harness.run(ListNotes.self, .init(), as: .teacher) == ["once"])
    }

    @Test func refreshTokensRotateAndAReplayRevokesTheFamily() async throws {
        let harness = try TestHarness(modules: [NotesModule()])
        try await harness.api { api in
            let tokens = api.server.tokens
            let first = try await tokens.issue(for: harness.user(.teacher), email: nil)
            let second = try await tokens.refresh(first.refreshToken)
            #expect(try await api.get("/api/notes", headers: ["Authorization": "Bearer " + second.accessToken]).status == 200)
            // The first refresh token comes back: someone copied it. Every token of the sign-in ends.
            await #expect(throws: APIError.self) { try await tokens.refresh(first.refreshToken) }
            let revoked = try await api.get("/api/notes", headers: ["Authorization": "Bearer " + second.accessToken])
            #expect(revoked.status == 401)
            await #expect(throws: APIError.self) { try await tokens.refresh(second.refreshToken) }
        }
    }

    @Test func accessAndRefreshTokensCannotStandInForEachOther() async throws {
        let harness = try TestHarness(modules: [NotesModule()])
        try await harness.api { api in
            let pair = try await api.server.tokens.issue(for: harness.user(.teacher), email: nil)
            #expect(try await api.get("/api/notes", headers: ["Authorization": "Bearer " + pair.refreshToken]).status == 401)
            await #expect(throws: APIError.self) { try await api.server.tokens.refresh(pair.accessToken) }
            // The contract's bare token (no "Bearer ") is accepted, as the web app does.
            #expect(try await api.get("/api/notes", headers: ["Authorization": pair.accessToken]).status == 200)
        }
    }

    @Test func signingOutEndsTheTokenAndARefreshForAGoneAccountIsRefused() async throws {
        let harness = try TestHarness(modules: [NotesModule()])
        try await harness.api { api in
            let pair = try await api.server.tokens.issue(for: harness.user(.teacher), email: nil)
            let access = try await api.server.tokens.verifyAccess(pair.accessToken)
            try await api.server.tokens.revoke(access)
            #expect(try await api.get("/api/notes", headers: ["Authorization": "Bearer " + pair.accessToken]).status == 401)
            let gone = Principal(userID: "gone-1", role: .teacher, schoolID: harness.school.id, displayName: "Gone")
            let goneTokens = try await api.server.tokens.issue(for: gone, email: nil)
            await #expect(throws: APIError.self) { try await api.server.tokens.refresh(goneTokens.refreshToken) }
        }
    }

    @Test func aTokenAcceptedOnceIsStillCheckedForExpiryAndItsSignature() async throws {
        let clock = TestClock()
        let harness = try TestHarness(modules: [NotesModule()], clock: { clock.now })
        try await harness.api { api in
            let pair = try await api.server.tokens.issue(for: harness.user(.teacher), email: nil)
            let bearer = ["Authorization": "Bearer " + pair.accessToken]
            #expect(try await api.get("/api/notes", headers: bearer).status == 200)
            // The same claims under a signature one character off: remembered tokens are matched whole.
            // (A character well inside the signature: the last one carries padding bits.)
            var forged = Array(pair.accessToken)
            forged[forged.count - 10] = forged[forged.count - 10] == "x" ? "y" : "x"
            #expect(try await api.get("/api/notes", headers: ["Authorization": "Bearer " + String(forged)]).status == 401)
            clock.advance(AccessTokens.accessLifetime + 1)
            #expect(try await api.get("/api/notes", headers: bearer).status == 401, "expired, though its signature was checked before")
        }
    }

    @Test func tokensSurviveARestartAndAKeyRotation() async throws {
        let harness = try TestHarness(modules: [NotesModule()])
        let before = try await harness.api { api in try await api.server.tokens.issue(for: harness.user(.teacher), email: nil) }
        try harness.kernel.rotateSigningKey()
        try await harness.api { api in
            // A new server (a restart) still accepts the old key's token, and signs with the new key.
            #expect(try await api.get("/api/notes", headers: ["Authorization": "Bearer " + before.accessToken]).status == 200)
            let after = try await api.server.tokens.issue(for: harness.user(.teacher), email: nil)
            #expect(Self.kid(after.accessToken) != Self.kid(before.accessToken))
            _ = try await api.server.tokens.refresh(before.refreshToken)
        }
    }

    @Test func aRunningServerSignsWithARotatedKeyAndAcceptsWhatItSigns() async throws {
        let clock = TestClock()
        let harness = try TestHarness(modules: [NotesModule()], clock: { clock.now })
        try await harness.api { api in
            let before = try await api.server.tokens.issue(for: harness.user(.teacher), email: nil)
            try harness.kernel.rotateSigningKey()
            clock.advance(2)
            #expect(try await api.get("/api/notes", headers: ["Authorization": "Bearer " + before.accessToken]).status == 200)
            let after = try await api.server.tokens.issue(for: harness.user(.teacher), email: nil)
            #expect(Self.kid(after.accessToken) != Self.kid(before.accessToken), "the running server picked up the new key")
            #expect(try await api.get("/api/notes", headers: ["Authorization": "Bearer " + after.accessToken]).status == 200)
        }
    }

    @Test func metricsCountRequestsByRouteAndStatus() async throws {
        let harness = try TestHarness(modules: [NotesModule()])
        try await harness.api { api in
            _ = try await api.get("/api/notes", as: harness.user(.teacher))
            _ = try await api.get("/api/notes")
            let metrics = try await api.get("/metrics").text
            #expect(metrics.contains(#"hogwarts_http_requests_total{route="/api/notes",method="GET",status="200"} 1"#))
            #expect(metrics.contains(#"hogwarts_http_requests_total{route="/api/notes",method="GET",status="401"} 1"#))
            #expect(metrics.contains(#"hogwarts_actions_total{action="notes.list",outcome="succeeded"} 1"#))
            #expect(metrics.contains("hogwarts_http_request_duration_seconds_bucket"))
        }
    }

    @Test func theOpenAPIDocumentDescribesEveryRoute() async throws {
        let harness = try TestHarness(modules: [NotesModule()])
        try await harness.api { api in
            let document = try await api.get("/openapi.json").object
            #expect(document["openapi"] as? String == "3.1.0")
            let paths = document["paths"] as? [String: [String: Any]] ?? [:]
            #expect(Set(paths.keys).isSuperset(of: ["/api/notes", "/health", "/ready", "/api/mobile/schools", "/api/v1/modules", "/api/mobile/dashboard"]))
            let post = paths["/api/notes"]?["post"] as? [String: Any]
            #expect(post?["requestBody"] != nil)
            #expect((post?["responses"] as? [String: Any])?["201"] != nil)
            let headers = (post?["parameters"] as? [[String: Any]] ?? []).filter { $0["in"] as? String == "header" }.compactMap { $0["name"] as? String }
            #expect(headers.contains("Idempotency-Key"))
            #expect((paths["/health"]?["get"] as? [String: Any])?["security"] as? [Any] != nil)
        }
    }

    @Test func theSignInLimitCountsPerAddress() throws {
        let clock = TestClock()
        let harness = try TestHarness(modules: [NotesModule()], clock: { clock.now })
        let limit = RateLimiter.Limit(attempts: 3, window: 60)
        let kernel = harness.kernel
        #expect(try (0..<3).map { _ in try kernel.admit("sign-in|10.0.0.1", limit: limit) } == [nil, nil, nil])
        #expect(try kernel.admit("sign-in|10.0.0.1", limit: limit) == 20)
        #expect(try kernel.admit("sign-in|10.0.0.2", limit: limit) == nil)
        clock.advance(61)
        #expect(try kernel.admit("sign-in|10.0.0.1", limit: limit) == nil)
    }

    /// Servers on one database count one address's attempts together: ten a minute in all, not per server.
    @Test func serversOnOneDatabaseShareTheSignInLimit() async throws {
        let clock = TestClock()
        let harness = try TestHarness(modules: [NotesModule()], clock: { clock.now })
        let other = try Kernel(databasePath: harness.databasePath, modules: [NotesModule()], language: .en, clock: { clock.now })
        let limit = RateLimiter.Limit.signIn
        let kernels = [harness.kernel, other]
        let admitted = try await withThrowingTaskGroup(of: Bool.self) { group in
            for attempt in 0..<30 {
                let kernel = kernels[attempt % 2]
                group.addTask { try kernel.admit("sign-in|192.0.2.7", limit: limit) == nil }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(admitted == limit.attempts)
        clock.advance(6)
        #expect(try other.admit("sign-in|192.0.2.7", limit: limit) == nil)
        #expect(try harness.kernel.admit("sign-in|192.0.2.7", limit: limit) != nil)
    }

    private static func kid(_ token: String) -> String? {
        guard let header = token.split(separator: ".").first else { return nil }
        var text = String(header).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        text += String(repeating: "=", count: (4 - text.count % 4) % 4)
        return Data(base64Encoded: text).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }?["kid"] as? String
    }
}
