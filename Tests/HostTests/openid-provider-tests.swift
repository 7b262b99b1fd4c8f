import Foundation
import HogwartsTestSupport
import Testing

/// The mobile ID-token route with a real OpenID provider's tokens: django-oidc-provider on
/// loopback (`RealProvider`), its id_token obtained through its own authorization-code flow.
/// CI installs it (`.ci/run`) and sets `HOGWARTS_REQUIRE_API_TOOLS=1`, so there it must run.
@Suite("OpenID Connect with a real provider", .waitsOnProcesses, .serialized)
struct OpenIDProviderTests {
    static var required: Bool { ProcessInfo.processInfo.environment["HOGWARTS_REQUIRE_API_TOOLS"] == "1" }

    @Test("the provider's id_token signs the teacher in once (its nonce is then used); an email in both schools gets the school picker, then the chosen school",
          .enabled(if: RealProvider.installed || required, "install django-oidc-provider and Django (pip) to run this"))
    func mobileRoute() async throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo", "--force"]).status == 0)
        let provider = try RealProvider(in: hogwarts.directory, redirectURI: "http://127.0.0.1:1/callback",
                                        users: ["teacher@databayt.org", "parent@databayt.org"])
        defer { provider.stop() }
        for admin in ["admin@databayt.org", "admin@nile.databayt.org"] {
            #expect(try hogwarts.login(admin).status == 0)
            let added = try hogwarts.run(["auth", "oidc", "add", "--issuer", provider.issuer, "--client-id", RealProvider.clientID, "--lang", "en"])
            #expect(added.status == 0, "\(added.stderr)")
        }
        let server = try ServedHogwarts(hogwarts)
        defer { _ = server.stop() }

        let token = try provider.idToken(for: "teacher@databayt.org")
        let signedIn = try await server.request("POST", "/api/mobile/auth/google", json: ["id_token": token])
        #expect(signedIn.status == 200, "\(String(decoding: signedIn.body, as: UTF8.self))")
        let user = signedIn.object["user"] as? [String: Any] ?? [:]
        #expect(user["email"] as? String == "teacher@databayt.org" && user["role"] as? String == "TEACHER")
        let access = try #require(signedIn.object["access_token"] as? String)
        let whoami = try await server.request("GET", "/api/mobile/profile", token: access)
        #expect(whoami.status == 200 && whoami.object["email"] as? String == "teacher@databayt.org")

        let replayed = try await server.request("POST", "/api/mobile/auth/google", json: ["id_token": token])
        #expect(replayed.status == 401 && replayed.object["code"] as? String == "AUTH_IDENTITY_REFUSED", "the same token, its nonce used")
        let apple = try await server.request("POST", "/api/mobile/auth/apple", json: ["identity_token": try provider.idToken(for: "teacher@databayt.org")])
        #expect(apple.status == 401, "the apple route takes only Apple's issuer")

        let parentToken = try provider.idToken(for: "parent@databayt.org")
        let picker = try await server.request("POST", "/api/mobile/auth/google", json: ["id_token": parentToken])
        #expect(picker.status == 409 && picker.object["code"] as? String == "AUTH_SEVERAL_SCHOOLS")
        let schools = (picker.object["schools"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        #expect(schools.count == 2)
        let chosen = try #require(schools.last)
        let parent = try await server.request("POST", "/api/mobile/auth/google", json: ["id_token": parentToken, "school_id": chosen])
        #expect(parent.status == 200 && (parent.object["user"] as? [String: Any])?["school_id"] as? String == chosen,
                "\(String(decoding: parent.body, as: UTF8.self))")
    }
}
