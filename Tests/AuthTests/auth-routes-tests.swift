import Auth
import Core
import Foundation
import HogwartsTestSupport
import Testing

/// Real accounts, signed in over HTTP the way a phone does it.
extension AuthFixture {
    @discardableResult
    func addPerson(_ email: String, _ name: String, role: Role, password: String = "Corr3ct-Horse", in school: School? = nil) throws -> User {
        let school = school ?? harness.school
        return try harness.kernel.run(CreateUser.self, .init(email: email, displayName: name, role: role, password: password),
                                      as: harness.user(.admin, in: school), in: school.id)
    }

    /// A second school whose new passwords are hashed as cheaply as the first's.
    func otherSchool(_ slug: String = "other-school") throws -> School {
        let school = try harness.makeSchool(slug)
        try harness.kernel.setSetting("auth.password-hash-cost", to: "10", for: school.id, by: harness.user(.admin, in: school))
        return school
    }
}

extension APITestClient {
    func signIn(_ identifier: Any, _ password: Any = "Corr3ct-Horse", school: String? = nil, headers: [String: String] = [:]) async throws -> APITestResponse {
        var body: [String: Any] = ["identifier": identifier, "password": password]
        if let school { body["school_id"] = school }
        return try await post("/api/mobile/auth", json: body, headers: headers)
    }

    /// The tokens of a sign-in that must succeed.
    func tokens(_ identifier: String, _ password: String = "Corr3ct-Horse", school: String? = nil) async throws -> (access: String, refresh: String) {
        let response = try await signIn(identifier, password, school: school)
        #expect(response.status == 200, "sign-in of \(identifier): \(response.text)")
        return (try #require(response.object["access_token"] as? String), try #require(response.object["refresh_token"] as? String))
    }

    func bearer(_ token: String, _ extra: [String: String] = [:]) -> [String: String] {
        extra.merging(["Authorization": "Bearer " + token]) { _, new in new }
    }

    func refresh(_ token: String?) async throws -> APITestResponse {
        try await request(.put, "/api/mobile/auth", headers: token.map { ["X-Refresh-Token": $0] } ?? [:])
    }
}

extension APITestResponse {
    var user: [String: Any] { object["user"] as? [String: Any] ?? [:] }
    var fields: [String] { (object["details"] as? [[String: Any]] ?? []).compactMap { $0["field"] as? String } }
    var message: String { object["error"] as? String ?? "" }
}

@Suite("Auth routes")
struct AuthRoutesTests {
    @Test("sign-in answers the contract's AuthResponse, with tokens that work, and opens no CLI session")
    func signIn() async throws {
        let fixture = try AuthFixture()
        let user = try fixture.addPerson("amina@school.org", "Amina Osman Ali", role: .teacher)
        try await fixture.harness.api { api in
            let response = try await api.signIn(" Amina@School.org")
            #expect(response.status == 200)
            #expect(Set(response.object.keys) == ["access_token", "refresh_token", "expires_at", "user"])
            let expected = Int((fixture.clock.now.timeIntervalSince1970 + 24 * 3600) * 1000)
            #expect(response.object["expires_at"] as? Int == expected, "milliseconds since 1970, 24 hours ahead")
            #expect(response.user["id"] as? String == user.id)
            #expect(response.user["email"] as? String == "amina@school.org")
            #expect(response.user["school_id"] as? String == fixture.harness.school.id)
            #expect(response.user["role"] as? String == "TEACHER")
            #expect(response.user["given_name"] as? String == "Amina")
            #expect(response.user["family_name"] as? String == "Osman Ali")
            #expect(response.user["avatar_url"] is NSNull && response.user["grade"] is NSNull, "the keys are there, null")
            let access = try #require(response.object["access_token"] as? String)
            let profile = try await api.get("/api/mobile/profile", headers: api.bearer(access))
            #expect(profile.status == 200 && profile.object["id"] as? String == user.id)
        }
        #expect(try fixture.attempts("amina@school.org") == ["signed-in (api): amina@school.org"])
    }

    @Test("wrong password, unknown email, a username, suspended and locked accounts all get one 401, counted in the metrics")
    func oneRefusal() async throws {
        let fixture = try AuthFixture()
        let school = fixture.harness.school.id
        try fixture.addPerson("known@school.org", "Known", role: .teacher)
        try fixture.addPerson("away@school.org", "Away", role: .teacher)
        try fixture.addPerson("locked@school.org", "Locked", role: .teacher)
        try fixture.harness.kernel.run(SetSuspended.self, UserChange(email: "away@school.org", suspended: true), as: fixture.harness.user(.admin), in: school)
        for _ in 0..<5 { _ = try fixture.signIn("locked@school.org", "Wrong-Pass1") }
        try await fixture.harness.api { api in
            let answers = [
                try await api.signIn("known@school.org", "Wrong-Pass1"),
                try await api.signIn("nobody@school.org"),
                try await api.signIn("known"),
                try await api.signIn("away@school.org"),
                try await api.signIn("locked@school.org"),
            ]
            for answer in answers {
                #expect(answer.status == 401 && answer.code == "AUTH_INVALID_CREDENTIALS")
                #expect(answer.message == answers[0].message && answer.object["access_token"] == nil)
            }
            let metrics = try await api.get("/metrics")
            #expect(metrics.text.contains("hogwarts_sign_in_failures_total 5"))
        }
        #expect(try fixture.attempts("known@school.org") == ["refused (wrong-password): known@school.org"])
        // An unknown email and a username still ran SignIn in the school, with its one bcrypt
        // check at the school's cost (counted in auth-hardening-tests), so the time says nothing.
        #expect(try fixture.attempts("nobody@school.org") == ["refused (unknown-email): nobody@school.org"])
        #expect(try fixture.attempts(": known") == ["refused (unknown-email): known"])
        #expect(try fixture.attempts("away@school.org") == ["refused (suspended): away@school.org"])
        #expect(try fixture.attempts("locked@school.org").first == "refused (locked): locked@school.org")
    }

    @Test("the refusal is in the request's language; the code is the same")
    func refusalLanguage() async throws {
        let fixture = try AuthFixture()
        try await fixture.harness.api { api in
            let english = try await api.signIn("nobody@school.org", headers: ["Accept-Language": "en"])
            let arabic = try await api.signIn("nobody@school.org", headers: ["Accept-Language": "ar"])
            let unspecified = try await api.signIn("nobody@school.org")
            #expect(english.message.hasPrefix("Sign-in refused"))
            #expect(arabic.message.contains("تعذّر تسجيل الدخول"))
            #expect(unspecified.message == arabic.message, "Arabic by default")
            #expect(Set([english.code, arabic.code, unspecified.code]) == ["AUTH_INVALID_CREDENTIALS"])
        }
    }

    @Test("an email in several schools gets 409 with the schools, and signs in once school_id names one")
    func severalSchools() async throws {
        let fixture = try AuthFixture()
        let other = try fixture.otherSchool()
        try fixture.addPerson("parent@family.org", "Parent Here", role: .guardian)
        try fixture.addPerson("parent@family.org", "Parent There", role: .guardian, password: "Other-Pass-99", in: other)
        try fixture.addPerson("only@other.org", "Only There", role: .teacher, in: other)
        try await fixture.harness.api { api in
            let ambiguous = try await api.signIn("parent@family.org", headers: ["Accept-Language": "en"])
            #expect(ambiguous.status == 409 && ambiguous.code == "AUTH_SEVERAL_SCHOOLS")
            #expect(ambiguous.fields == ["school_id"])
            #expect(ambiguous.message.contains("school_id"))
            let schools = ambiguous.object["schools"] as? [[String: Any]] ?? []
            #expect(Set(schools.compactMap { $0["id"] as? String }) == [fixture.harness.school.id, other.id])
            #expect(schools.contains { $0["name_en"] as? String == "Test School" && $0["name"] as? String == "مدرسة الاختبار" })

            let there = try await api.signIn("parent@family.org", "Other-Pass-99", school: other.id)
            #expect(there.status == 200 && there.user["school_id"] as? String == other.id && there.user["family_name"] as? String == "There")
            let access = try #require(there.object["access_token"] as? String)
            let profile = try await api.get("/api/mobile/profile", headers: api.bearer(access, ["X-School-Id": fixture.harness.school.id]))
            #expect((profile.object["school"] as? [String: Any])?["id"] as? String == other.id, "the token's school, whatever the header says")

            // Each school checks its own password; another school's account is not this school's.
            #expect(try await api.signIn("parent@family.org", "Other-Pass-99", school: fixture.harness.school.id).status == 401)
            #expect(try await api.signIn("only@other.org", school: fixture.harness.school.id).status == 401)
            // An email in one school signs in there without school_id.
            #expect(try await api.signIn("only@other.org").user["school_id"] as? String == other.id)
            let unknownSchool = try await api.signIn("parent@family.org", school: "no-such-school")
            #expect(unknownSchool.status == 400 && unknownSchool.fields == ["school_id"])
        }
    }

    @Test("bad bodies are 400 naming the field")
    func badBodies() async throws {
        let fixture = try AuthFixture()
        try await fixture.harness.api { api in
            let malformed = try await api.request(.post, "/api/mobile/auth", raw: "{\"identifier\": ")
            #expect(malformed.status == 400 && malformed.code == "MALFORMED_JSON")
            let missing = try await api.post("/api/mobile/auth", json: ["password": "Corr3ct-Horse"])
            #expect(missing.status == 400 && missing.code == "INVALID_FIELD" && missing.fields == ["identifier"])
            let wrongType = try await api.signIn(5)
            #expect(wrongType.status == 400 && wrongType.fields == ["identifier"])
            let noPassword = try await api.post("/api/mobile/auth", json: ["identifier": "a@b.org"])
            #expect(noPassword.status == 400 && noPassword.fields == ["password"])
            let empty = try await api.signIn("  ")
            #expect(empty.status == 400 && empty.fields == ["identifier"])
            let badSchool = try await api.post("/api/mobile/auth", json: ["identifier": "a@b.org", "password": "x", "school_id": 7])
            #expect(badSchool.status == 400 && badSchool.fields == ["school_id"])
            let overlong = try await api.signIn(String(repeating: "a", count: 250) + "@b.org")
            #expect(overlong.status == 400 && overlong.fields == ["identifier"])
        }
    }

    @Test("the eleventh attempt within a minute from one address gets 429 with Retry-After")
    func perAddressLimit() async throws {
        let fixture = try AuthFixture()
        try await fixture.harness.api { api in
            for attempt in 1...10 {
                #expect(try await api.signIn("nobody@school.org").status == 401, "attempt \(attempt)")
            }
            let limited = try await api.signIn("nobody@school.org", headers: ["Accept-Language": "en"])
            #expect(limited.status == 429 && limited.code == "TOO_MANY_REQUESTS")
            let wait = try #require(limited.headers["retry-after"].flatMap { Int($0) })
            #expect((1...60).contains(wait))
            // Other routes are not limited; the window slides on.
            #expect(try await api.get("/api/mobile/schools").status == 200)
            fixture.clock.advance(61)
            #expect(try await api.signIn("nobody@school.org").status == 401)
        }
    }

    @Test("PUT /auth rotates the pair; a refresh token used twice revokes every token of the sign-in")
    func refreshRotation() async throws {
        let fixture = try AuthFixture()
        try fixture.addPerson("t@school.org", "Tarig Hassan", role: .teacher)
        try await fixture.harness.api { api in
            let first = try await api.tokens("t@school.org")
            fixture.clock.advance(5)
            let rotated = try await api.refresh(first.refresh)
            #expect(rotated.status == 200)
            #expect(rotated.user["email"] as? String == "t@school.org" && rotated.user["given_name"] as? String == "Tarig")
            #expect(rotated.object["expires_at"] as? Int == Int((fixture.clock.now.timeIntervalSince1970 + 24 * 3600) * 1000))
            let second = (access: try #require(rotated.object["access_token"] as? String), refresh: try #require(rotated.object["refresh_token"] as? String))
            #expect(second.access != first.access && second.refresh != first.refresh)
            #expect(try await api.get("/api/mobile/profile", headers: api.bearer(second.access)).status == 200)

            let reused = try await api.refresh(first.refresh)
            #expect(reused.status == 401 && reused.code == "REFRESH_TOKEN_REUSED")
            let afterTheft = try await api.get("/api/mobile/profile", headers: api.bearer(second.access))
            #expect(afterTheft.status == 401 && afterTheft.code == "INVALID_TOKEN", "the newer pair is revoked too")
            #expect(try await api.refresh(second.refresh).status == 401)
        }
    }

    @Test("one refresh token sent four times at once: one new pair at most, and the sign-in is revoked as for any token used twice")
    func refreshRace() async throws {
        let fixture = try AuthFixture()
        try fixture.addPerson("t@school.org", "Tarig Hassan", role: .teacher)
        try await fixture.harness.api { api in
            // Eight sign-ins, each refreshed four times at once: the race is a matter of timing.
            for _ in 0..<8 {
                let first = try await api.tokens("t@school.org")
                let answers = try await withThrowingTaskGroup(of: APITestResponse.self) { group in
                    for _ in 0..<4 { group.addTask { try await api.refresh(first.refresh) } }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                let rotated = answers.filter { $0.status == 200 }
                #expect(rotated.count == 1, "statuses \(answers.map(\.status))")
                #expect(answers.filter { $0.status == 401 }.allSatisfy { $0.code == "REFRESH_TOKEN_REUSED" || $0.code == "INVALID_TOKEN" })
                for answer in rotated {
                    let access = try #require(answer.object["access_token"] as? String)
                    #expect(try await api.get("/api/mobile/profile", headers: api.bearer(access)).status == 401, "the newer pair is revoked too")
                }
            }
        }
    }

    @Test("access and refresh tokens cannot stand in for each other; a missing refresh token is 401")
    func tokenTypes() async throws {
        let fixture = try AuthFixture()
        try fixture.addPerson("t@school.org", "Teacher", role: .teacher)
        try await fixture.harness.api { api in
            let pair = try await api.tokens("t@school.org")
            let missing = try await api.refresh(nil)
            #expect(missing.status == 401 && missing.code == "UNAUTHENTICATED")
            let accessAsRefresh = try await api.refresh(pair.access)
            #expect(accessAsRefresh.status == 401 && accessAsRefresh.code == "INVALID_TOKEN")
            let refreshAsBearer = try await api.get("/api/mobile/profile", headers: api.bearer(pair.refresh))
            #expect(refreshAsBearer.status == 401 && refreshAsBearer.code == "INVALID_TOKEN")
            #expect(try await api.refresh("not.a.token").status == 401)
            // Neither refusal spent the refresh token.
            #expect(try await api.refresh(pair.refresh).status == 200)
        }
    }

    @Test("logout revokes the sign-in: its access and refresh tokens are refused afterwards")
    func logout() async throws {
        let fixture = try AuthFixture()
        try fixture.addPerson("t@school.org", "Teacher", role: .teacher)
        try await fixture.harness.api { api in
            let other = try await api.tokens("t@school.org")
            let pair = try await api.tokens("t@school.org")
            let unsigned = try await api.post("/api/mobile/auth/logout")
            #expect(unsigned.status == 401 && unsigned.code == "UNAUTHENTICATED")
            let out = try await api.post("/api/mobile/auth/logout", headers: api.bearer(pair.access))
            #expect(out.status == 200 && out.object["success"] as? Bool == true)
            #expect(try await api.get("/api/mobile/profile", headers: api.bearer(pair.access)).status == 401)
            #expect(try await api.refresh(pair.refresh).status == 401)
            #expect(try await api.post("/api/mobile/auth/logout", headers: api.bearer(pair.access)).status == 401)
            #expect(try await api.get("/api/mobile/profile", headers: api.bearer(other.access)).status == 200, "another phone's sign-in goes on")
        }
    }

    /// Servers re-read revoked sign-ins at most once a second (on the kernel's clock), so the
    /// test moves the fixture's clock past that second instead of sleeping.
    @Test("suspending, changing the role or resetting the password ends the user's API sign-ins")
    func accountChangesEndSignIns() async throws {
        let fixture = try AuthFixture()
        let school = fixture.harness.school.id
        let admin = fixture.harness.user(.admin)
        for email in ["away@school.org", "moved@school.org", "reset@school.org"] { try fixture.addPerson(email, "Person", role: .teacher) }
        try await fixture.harness.api { api in
            var pairs: [String: (access: String, refresh: String)] = [:]
            for email in ["away@school.org", "moved@school.org", "reset@school.org"] {
                let pair = try await api.tokens(email)
                #expect(try await api.get("/api/mobile/profile", headers: api.bearer(pair.access)).status == 200)
                pairs[email] = pair
            }
            try fixture.harness.kernel.run(SetSuspended.self, UserChange(email: "away@school.org", suspended: true), as: admin, in: school)
            try fixture.harness.kernel.run(ChangeRole.self, UserChange(email: "moved@school.org", role: .staff), as: admin, in: school)
            try fixture.harness.kernel.run(ResetPassword.self, UserChange(email: "reset@school.org", password: "N3w-Secret-Pass"), as: admin, in: school)
            fixture.clock.advance(1.1)
            for (email, pair) in pairs {
                let refused = try await api.get("/api/mobile/profile", headers: api.bearer(pair.access))
                #expect(refused.status == 401 && refused.code == "INVALID_TOKEN", "\(email)'s access token")
                #expect(try await api.refresh(pair.refresh).status == 401, "\(email)'s refresh token")
            }
            #expect(try await api.signIn("away@school.org").status == 401)
            #expect(try await api.signIn("moved@school.org").user["role"] as? String == "STAFF", "a new sign-in carries the new role")
            #expect(try await api.signIn("reset@school.org", "N3w-Secret-Pass").status == 200)
        }
    }

    @Test("GET /profile answers the contract's keys; PUT changes the name, biography and language")
    func profile() async throws {
        let fixture = try AuthFixture()
        let user = try fixture.addPerson("amina@school.org", "Amina Osman", role: .teacher)
        try await fixture.harness.api { api in
            let token = try await api.tokens("amina@school.org").access
            let shown = try await api.get("/api/mobile/profile", headers: api.bearer(token))
            #expect(shown.status == 200)
            #expect(Set(shown.object.keys) == ["id", "email", "username", "avatar_url", "role", "bio", "language", "school", "student", "teacher"])
            #expect(shown.object["id"] as? String == user.id && shown.object["email"] as? String == "amina@school.org")
            #expect(shown.object["username"] as? String == "Amina Osman" && shown.object["role"] as? String == "TEACHER")
            #expect(shown.object["bio"] is NSNull && shown.object["avatar_url"] is NSNull)
            #expect(shown.object["student"] is NSNull && shown.object["teacher"] is NSNull)
            #expect(shown.object["language"] as? String == "ar", "the school's language until the person picks one")
            let school = shown.object["school"] as? [String: Any] ?? [:]
            #expect(school["id"] as? String == fixture.harness.school.id && school["domain"] as? String == "test-school")
            #expect(school["name"] as? String == "مدرسة الاختبار" && school["name_en"] as? String == "Test School")

            let updated = try await api.put("/api/mobile/profile", json: ["username": "Amina O. Osman", "bio": "Teaches maths.\nLoves chess.", "language": "en"],
                                            headers: api.bearer(token))
            #expect(updated.status == 200)
            #expect(Set(updated.object.keys) == ["id", "username", "email", "image", "bio", "language"], "the camelCase row")
            #expect(updated.object["username"] as? String == "Amina O. Osman" && updated.object["image"] is NSNull)
            #expect(updated.object["bio"] as? String == "Teaches maths.\nLoves chess." && updated.object["language"] as? String == "en")

            let onlyLanguage = try await api.put("/api/mobile/profile", json: ["language": "ar"], headers: api.bearer(token))
            #expect(onlyLanguage.object["username"] as? String == "Amina O. Osman" && onlyLanguage.object["language"] as? String == "ar", "left-out fields stay")
            let cleared = try await api.put("/api/mobile/profile", json: ["bio": ""], headers: api.bearer(token))
            #expect(cleared.object["bio"] is NSNull)
            let again = try await api.signIn("amina@school.org")
            #expect(again.user["given_name"] as? String == "Amina" && again.user["family_name"] as? String == "O. Osman")
        }
        #expect(try fixture.harness.kernel.auditLog(for: fixture.harness.school.id).contains { $0.action == UpdateProfile.id })
    }

    @Test("profile refusals: no token, bad fields named, no account behind the token, another school's user sees only their own")
    func profileRefusals() async throws {
        let fixture = try AuthFixture()
        let other = try fixture.otherSchool()
        try fixture.addPerson("amina@school.org", "Amina Osman", role: .teacher)
        try fixture.addPerson("far@other.org", "Far Away", role: .student, in: other)
        try await fixture.harness.api { api in
            #expect(try await api.get("/api/mobile/profile").status == 401)
            #expect(try await api.put("/api/mobile/profile", json: ["bio": "x"]).status == 401)
            let token = try await api.tokens("amina@school.org").access
            let cases: [([String: Any], String)] = [
                (["username": String(repeating: "x", count: 101)], "username"),
                (["username": "   "], "username"),
                (["username": "Bad\u{1B}[2J"], "username"),
                (["username": 5], "username"),
                (["bio": String(repeating: "b", count: 501)], "bio"),
                (["language": "fr"], "language"),
            ]
            for (body, field) in cases {
                let refused = try await api.put("/api/mobile/profile", json: body, headers: api.bearer(token, ["Accept-Language": "en"]))
                #expect(refused.status == 400 && refused.code == "INVALID_FIELD" && refused.fields == [field], "\(body)")
                #expect(refused.message.contains(field))
            }
            let malformed = try await api.request(.put, "/api/mobile/profile", raw: "{\"bio\": ", headers: api.bearer(token))
            #expect(malformed.status == 400 && malformed.code == "MALFORMED_JSON")
            #expect(try await api.get("/api/mobile/profile", headers: api.bearer(token)).object["username"] as? String == "Amina Osman", "nothing was written")

            // A token whose account does not exist in its school (or was removed).
            let ghost = try await api.get("/api/mobile/profile", as: fixture.harness.user(.teacher), headers: ["Accept-Language": "en"])
            #expect(ghost.status == 404 && ghost.code == "AUTH_NO_ACCOUNT")

            let far = try await api.tokens("far@other.org")
            let theirs = try await api.get("/api/mobile/profile", headers: api.bearer(far.access, ["X-School-Id": fixture.harness.school.id]))
            #expect(theirs.object["email"] as? String == "far@other.org" && theirs.object["role"] as? String == "STUDENT")
            #expect((theirs.object["school"] as? [String: Any])?["domain"] as? String == "other-school")
        }
    }

    @Test("GET /admin/staff lists teachers, then staff (no accountants), a page at a time, with totals, for administrators only")
    func staff() async throws {
        let fixture = try AuthFixture()
        let other = try fixture.otherSchool()
        try fixture.addPerson("huda@school.org", "Huda Salih", role: .teacher)
        try fixture.addPerson("omar@school.org", "Omar Idris", role: .teacher)
        try fixture.addPerson("zainab@school.org", "Zainab", role: .teacher)
        try fixture.addPerson("clerk@school.org", "Sara Clerk", role: .staff)
        try fixture.addPerson("money@school.org", "Musa Accounts", role: .accountant)
        try fixture.addPerson("pupil@school.org", "Pupil One", role: .student)
        try fixture.addPerson("head@school.org", "Head Teacher", role: .admin)
        try fixture.addPerson("elsewhere@other.org", "Other Teacher", role: .teacher, in: other)
        try fixture.harness.kernel.run(SetSuspended.self, UserChange(email: "zainab@school.org", suspended: true),
                                       as: fixture.harness.user(.admin), in: fixture.harness.school.id)
        let admin = fixture.harness.user(.admin)
        try await fixture.harness.api { api in
            let all = try await api.get("/api/mobile/admin/staff", as: admin)
            #expect(all.status == 200)
            #expect(Set(all.object.keys) == ["data", "total", "total_teachers", "total_staff", "page", "per_page"])
            // The web app's list: teachers first, then staff; accountants are not on it.
            #expect(all.data.compactMap { $0["email"] as? String } == ["huda@school.org", "omar@school.org", "zainab@school.org", "clerk@school.org"])
            #expect(all.object["total"] as? Int == 4 && all.object["total_teachers"] as? Int == 3 && all.object["total_staff"] as? Int == 1)
            #expect(all.object["page"] as? Int == 1 && all.object["per_page"] as? Int == 30)
            let huda = try #require(all.data.first { $0["email"] as? String == "huda@school.org" })
            #expect(Set(huda.keys) == ["id", "given_name", "family_name", "email", "role", "status", "photo_url", "employee_id", "department", "position"])
            #expect(huda["given_name"] as? String == "Huda" && huda["family_name"] as? String == "Salih" && huda["role"] as? String == "TEACHER")
            #expect(huda["status"] as? String == "ACTIVE" && huda["photo_url"] is NSNull && huda["position"] is NSNull)
            #expect(all.data.first { $0["email"] as? String == "zainab@school.org" }?["status"] as? String == "SUSPENDED")
            #expect(all.data.first { $0["email"] as? String == "zainab@school.org" }?["family_name"] as? String == "")

            let teachers = try await api.get("/api/mobile/admin/staff?role=teacher", as: admin)
            #expect(teachers.data.allSatisfy { $0["role"] as? String == "TEACHER" } && teachers.data.count == 3)
            #expect(teachers.object["total"] as? Int == 3 && teachers.object["total_staff"] as? Int == 1)
            let staff = try await api.get("/api/mobile/admin/staff?role=STAFF", as: admin)
            #expect(staff.data.compactMap { $0["role"] as? String } == ["STAFF"] && staff.object["total"] as? Int == 1)

            let searched = try await api.get("/api/mobile/admin/staff?search=sal", as: admin)
            #expect(searched.data.compactMap { $0["email"] as? String } == ["huda@school.org"])
            #expect(searched.object["total"] as? Int == 1 && searched.object["total_teachers"] as? Int == 1 && searched.object["total_staff"] as? Int == 0)
            let byEmail = try await api.get("/api/mobile/admin/staff?search=CLERK%40", as: admin)
            #expect(byEmail.data.compactMap { $0["email"] as? String } == ["clerk@school.org"])
            #expect(try await api.get("/api/mobile/admin/staff?search=money", as: admin).data.isEmpty, "an accountant is not staff here")
            let wildcard = try await api.get("/api/mobile/admin/staff?search=%25", as: admin)
            #expect(wildcard.data.isEmpty, "a % is searched for, not a wildcard")

            let page = try await api.get("/api/mobile/admin/staff?per_page=2&page=2", as: admin)
            #expect(page.data.compactMap { $0["email"] as? String } == ["zainab@school.org", "clerk@school.org"], "pages keep teachers first")
            #expect(page.object["total"] as? Int == 4 && page.object["page"] as? Int == 2 && page.object["per_page"] as? Int == 2)
            #expect(try await api.get("/api/mobile/admin/staff?page=9", as: admin).data.isEmpty)

            let badRole = try await api.get("/api/mobile/admin/staff?role=student", as: admin)
            #expect(badRole.status == 400 && badRole.fields == ["role"])
            #expect(try await api.get("/api/mobile/admin/staff?page=x", as: admin).fields == ["page"])
            #expect(try await api.get("/api/mobile/admin/staff?per_page=101", as: admin).fields == ["per_page"])
            #expect(try await api.get("/api/mobile/admin/staff").status == 401)
            for role in [Role.teacher, .staff, .student, .guardian, .accountant] {
                let refused = try await api.get("/api/mobile/admin/staff", as: fixture.harness.user(role))
                #expect(refused.status == 403, "\(role)")
            }
            let theirs = try await api.get("/api/mobile/admin/staff", as: fixture.harness.user(.admin, in: other))
            #expect(theirs.data.compactMap { $0["email"] as? String } == ["elsewhere@other.org"], "each school sees its own staff only")
        }
    }

    @Test("the OpenAPI document describes every Auth route")
    func openAPI() async throws {
        let fixture = try AuthFixture()
        try await fixture.harness.api { api in
            let paths = try await api.get("/openapi.json").object["paths"] as? [String: [String: Any]] ?? [:]
            #expect(Set((paths["/api/mobile/auth"] ?? [:]).keys) == ["post", "put"])
            let refresh = (paths["/api/mobile/auth"]?["put"] as? [String: Any])?["parameters"] as? [[String: Any]] ?? []
            #expect(refresh.contains { $0["name"] as? String == "X-Refresh-Token" && $0["in"] as? String == "header" && $0["required"] as? Bool == true })
            #expect(paths["/api/mobile/auth/logout"]?["post"] != nil)
            #expect(Set((paths["/api/mobile/profile"] ?? [:]).keys) == ["get", "put"])
            #expect(paths["/api/mobile/admin/staff"]?["get"] != nil)
        }
    }

    @Test("the CLI's user list is unchanged: every account by email, or one role")
    func listUsersForTheCLI() throws {
        let fixture = try AuthFixture()
        try fixture.addPerson("b@school.org", "B", role: .teacher)
        try fixture.addPerson("a@school.org", "A", role: .student)
        let admin = fixture.harness.user(.admin)
        let school = fixture.harness.school.id
        #expect(try fixture.harness.kernel.run(ListUsers.self, .init(), as: admin, in: school).map(\.email) == ["a@school.org", "b@school.org"])
        #expect(try fixture.harness.kernel.run(ListUsers.self, .init(role: .teacher), as: admin, in: school).map(\.email) == ["b@school.org"])
        #expect(throws: InputError.self) { try fixture.harness.kernel.run(ListUsers.self, .init(offset: -1), as: admin, in: school) }
    }
}
