import Foundation
import HogwartsTestSupport
import Testing

/// `POST /api/mobile/auth/google` against a stand-in issuer on loopback (`StandInIssuer`), whose
/// tokens the test signs itself: one good token signs in, and every way a token can be wrong is
/// refused with the same 401, for the reason the audit record names. Needs python3's
/// `cryptography`; CI sets `HOGWARTS_REQUIRE_API_TOOLS=1`, so there it must run.
@Suite("OpenID Connect: the mobile route's refusals", .waitsOnProcesses, .serialized)
struct OpenIDRefusalTests {
    static var cryptographyInstalled: Bool {
        (try? HogwartsProcess.run(URL(filePath: "/usr/bin/env"), ["python3", "-c", "import cryptography"], in: URL(filePath: "/tmp")).status) == 0
    }
    static var required: Bool { ProcessInfo.processInfo.environment["HOGWARTS_REQUIRE_API_TOOLS"] == "1" }

    @Test("a good token signs in the teacher; another issuer, audience, expired, future iat, replayed nonce, unverified email, other domain, unknown email, retired kid, forged signature and alg none are refused",
          .enabled(if: cryptographyInstalled || required, "install python3's cryptography (pip) to run this"))
    func refusals() async throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo", "--force"]).status == 0)
        let issuer = try StandInIssuer(in: hogwarts.directory)
        defer { issuer.stop() }
        #expect(try hogwarts.login("admin@databayt.org").status == 0)
        let added = try hogwarts.run(["auth", "oidc", "add", "--issuer", issuer.issuer, "--client-id", "hogwarts-test", "--domain", "databayt.org", "--lang", "en"])
        #expect(added.status == 0, "\(added.stderr)")
        let server = try ServedHogwarts(hogwarts)
        defer { _ = server.stop() }

        func post(_ token: String) async throws -> ServedHogwarts.Response {
            // The per-address limit (10 a minute) is sign-in's own test; here every answer must be the token's.
            try hogwarts.execute("DELETE FROM kernel_rate_limits")
            return try await server.request("POST", "/api/mobile/auth/google", json: ["id_token": token])
        }
        func lastAudit() throws -> String {
            try hogwarts.strings("SELECT detail FROM kernel_audit WHERE action = 'auth.sign-in-openid' ORDER BY id DESC LIMIT 1").first ?? ""
        }

        let good = try issuer.token()
        let signedIn = try await post(good)
        #expect(signedIn.status == 200, "\(String(decoding: signedIn.body, as: UTF8.self))")
        #expect((signedIn.object["user"] as? [String: Any])?["email"] as? String == "teacher@databayt.org")
        #expect((signedIn.object["user"] as? [String: Any])?["role"] as? String == "TEACHER")
        #expect(signedIn.object["access_token"] is String && signedIn.object["refresh_token"] is String)

        let now = Int(Date().timeIntervalSince1970)
        let cases: [(String, String, String)] = [
            ("replayed nonce", good, "openid-replayed-nonce"),
            ("another issuer", try issuer.token(["iss": "http://127.0.0.1:9/elsewhere"]), "no-provider"),
            ("another audience", try issuer.token(["aud": "someone-else"]), "no-provider"),
            ("issued to another party", try issuer.token(["aud": ["hogwarts-test", "someone-else"], "azp": "someone-else"]), "audience"),
            ("expired", try issuer.token(["iat": now - 900, "exp": now - 600]), "expired"),
            ("issued in the future", try issuer.token(["iat": now + 3600, "exp": now + 7200]), "issuedInFuture"),
            ("unverified email", try issuer.token(["email_verified": false]), "unverifiedEmail"),
            ("email outside the domain", try issuer.token(["email": "teacher@elsewhere.org"]), "domain"),
            ("hosted domain outside the domain", try issuer.token(["hd": "elsewhere.org"]), "domain"),
            ("email unknown in the school", try issuer.token(["email": "nobody@databayt.org"]), "openid-unknown-email"),
            ("a kid the JWKS no longer has", try issuer.token(kid: "retired"), "unknownKey"),
            ("a forged signature", try issuer.token(kid: "current", signWith: "retired"), "signature"),
            ("alg none", try issuer.token(alg: "none"), "algorithm"),
        ]
        for (name, token, reason) in cases {
            let answer = try await post(token)
            #expect(answer.status == 401 && answer.object["code"] as? String == "AUTH_IDENTITY_REFUSED", "\(name): \(answer.status)")
            #expect(answer.object["access_token"] == nil, "\(name)")
            let audit = try lastAudit()
            #expect(audit.contains("refused (\(reason))"), "\(name): \(audit)")
        }
    }

    @Test("where the school chose a role for new accounts, an unknown email of the provider's domain gets one at its first sign-in, with the provider's name; off, it is refused",
          .enabled(if: cryptographyInstalled || required, "install python3's cryptography (pip) to run this"))
    func newAccounts() async throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo", "--force"]).status == 0)
        let issuer = try StandInIssuer(in: hogwarts.directory)
        defer { issuer.stop() }
        #expect(try hogwarts.login("admin@databayt.org").status == 0)
        #expect(try hogwarts.run(["auth", "oidc", "add", "--issuer", issuer.issuer, "--client-id", "hogwarts-test", "--domain", "databayt.org"]).status == 0)
        let server = try ServedHogwarts(hogwarts)
        defer { _ = server.stop() }
        let newcomer: [String: Any] = ["email": "newcomer@databayt.org", "name": "Salma Newcomer"]

        let off = try await server.request("POST", "/api/mobile/auth/google", json: ["id_token": try issuer.token(newcomer)])
        #expect(off.status == 401, "off by default")
        #expect(try hogwarts.run(["settings", "set", "auth.openid-new-accounts", "student", "--school", "demo"]).status == 0)
        let made = try await server.request("POST", "/api/mobile/auth/google", json: ["id_token": try issuer.token(newcomer)])
        #expect(made.status == 200, "\(String(decoding: made.body, as: UTF8.self))")
        let user = made.object["user"] as? [String: Any] ?? [:]
        #expect(user["email"] as? String == "newcomer@databayt.org" && user["role"] as? String == "STUDENT")
        let accounts = try hogwarts.strings("""
            SELECT u.display_name || '|' || u.role FROM auth_users u JOIN schools k ON k.id = u.school_id WHERE k.slug = 'demo' AND u.email = 'newcomer@databayt.org'
            """)
        #expect(accounts == ["Salma Newcomer|STUDENT"])
        let outside = try await server.request("POST", "/api/mobile/auth/google", json: ["id_token": try issuer.token(["email": "stranger@elsewhere.org"])])
        #expect(outside.status == 401, "never outside the provider's domain")
    }
}

