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

    @Test("the console's provider button: the teacher signs in on the provider's own page and lands on the dashboard as the teacher; an email the school does not know gets one sentence and no session",
          .disabled(if: TestDatabase.isPostgres, "what a browser sees is the same on either engine: the SQLite pass runs it; the id_token test above runs on both"),
          .enabled(if: (RealProvider.installed && ConsoleBrowserTests.toolsInstalled) || required,
                   "install django-oidc-provider and Django (pip), chromium (apt) and playwright (pip) to run this"))
    func consoleCodeFlow() async throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo", "--force"]).status == 0)
        let server = try ServedHogwarts(hogwarts)
        defer { _ = server.stop() }
        let provider = try RealProvider(in: hogwarts.directory, redirectURI: "http://127.0.0.1:\(server.port)/sign-in/openid/callback",
                                        users: ["teacher@databayt.org", "stranger@databayt.org"])
        defer { provider.stop() }
        let secret = hogwarts.directory.appending(path: "client-secret")
        try RealProvider.clientSecret.write(to: secret, atomically: true, encoding: .utf8)
        #expect(try hogwarts.login("admin@databayt.org", school: "demo").status == 0)
        let added = try hogwarts.run(["auth", "oidc", "add", "--issuer", provider.issuer, "--client-id", RealProvider.clientID,
                                      "--client-secret-file", secret.path, "--name-en", "School account", "--name-ar", "حساب المدرسة", "--lang", "en"])
        #expect(added.status == 0, "\(added.stderr)")

        func browse(as email: String) throws -> [String: Any] {
            let run = try HogwartsProcess.run(URL(filePath: "/usr/bin/env"), [
                "python3", HogwartsProcess.packageRoot.appending(path: "Tests/Browser/console_openid.py").path,
                "--base-url", "http://127.0.0.1:\(server.port)", "--email", email, "--chromium", ConsoleBrowserTests.chromium,
            ], in: hogwarts.directory)
            #expect(run.status == 0, "\(run.stdout.suffix(2000))\n\(run.stderr.suffix(3000))")
            let line = run.stdout.split(separator: "\n").last.map(String.init) ?? ""
            return (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
        }
        let teacherName = try #require(try hogwarts.strings("""
            SELECT u.display_name FROM auth_users u JOIN schools k ON k.id = u.school_id WHERE k.slug = 'demo' AND u.email = 'teacher@databayt.org'
            """).first)
        let teacher = try browse(as: "teacher@databayt.org")
        #expect(teacher["signedIn"] as? Bool == true && teacher["path"] as? String == "/", "\(teacher)")
        #expect(teacher["name"] as? String == teacherName && !(teacher["role"] as? String ?? "").isEmpty, "\(teacher)")
        #expect((teacher["scriptErrors"] as? [String])?.isEmpty == true)

        let stranger = try browse(as: "stranger@databayt.org")
        #expect(stranger["signedIn"] as? Bool == false && !(stranger["error"] as? String ?? "").isEmpty, "\(stranger)")
        #expect(!(stranger["error"] as? String ?? "").contains("--"), "no command-line words on a web page")
        let refused = try hogwarts.strings("""
            SELECT COUNT(*) FROM auth_sign_in_attempts WHERE outcome = 'openid-unknown-email' AND email = 'stranger@databayt.org'
            """).first
        #expect(refused == "1", "the refusal is recorded with its reason")
    }
}
