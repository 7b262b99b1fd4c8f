import Auth
import Core
import Foundation
import HogwartsTestSupport
import Testing

/// The console's "Sign-in providers" page: an administrator adds and removes a school's OpenID
/// provider through Auth's own actions, and the sign-in page offers it at once.
@Suite("Sign-in providers in the web console")
struct AuthConsoleProvidersTests {
    let harness: TestHarness
    static let password = "Corr3ct-Horse"

    init() throws {
        harness = try TestHarness(modules: [AuthModule()])
        try harness.kernel.setSetting("auth.password-hash-cost", to: "10", for: harness.school.id, by: harness.user(.admin))
        for (email, role) in [("head@school.org", Role.admin), ("teach@school.org", Role.teacher)] {
            try harness.kernel.run(CreateUser.self, .init(email: email, displayName: email, role: role, password: Self.password),
                                   as: harness.user(.admin), in: harness.school.id)
        }
    }

    @Test("an administrator adds a provider (its button is on the sign-in page), a refused address changes nothing and says why in words, and removing it takes the button away")
    func addAndRemove() async throws {
        try await harness.console { console in
            _ = try await console.signIn("head@school.org", Self.password)
            let path = "/m/auth/sign-in-providers"
            let empty = try await console.get(path + "?lang=en")
            #expect(empty.status == 200 && empty.html.contains("name=\"issuer\""))

            let refused = try await console.post(path, [("do", "add"), ("issuer", "http://accounts.example.org"), ("client", "abc")])
            #expect(refused.status == 200 && refused.html.contains("class=\"problem\""), "\(refused.html.prefix(400))")
            #expect(!refused.html.contains("--"), "no command-line flag on a web page")
            #expect(try harness.kernel.run(ListOpenIDProviders.self, .init(), as: harness.user(.admin), in: harness.school.id).isEmpty)

            let added = try await console.post(path, [("do", "add"), ("issuer", "https://accounts.google.com"), ("client", "school-client.apps"),
                                                      ("domain", "school.org"), ("name-en", "Google"), ("name-ar", "جوجل")])
            #expect(added.status == 200 && added.html.contains("https://accounts.google.com") && added.html.contains("id=\"saved\""))
            let providers = try harness.kernel.run(ListOpenIDProviders.self, .init(), as: harness.user(.admin), in: harness.school.id)
            #expect(providers.map(\.clientID) == ["school-client.apps"] && providers.first?.domain == "school.org")
        }
        try await harness.console { anonymous in
            let signIn = try await anonymous.get("/sign-in")
            #expect(signIn.html.contains("href=\"/sign-in/openid?provider="), "the sign-in page offers the provider")
        }
        try await harness.console { console in
            _ = try await console.signIn("head@school.org", Self.password)
            _ = try await console.get("/m/auth/sign-in-providers")
            let removed = try await console.post("/m/auth/sign-in-providers", [("do", "remove"), ("issuer", "https://accounts.google.com")])
            #expect(removed.status == 200 && !removed.html.contains("school-client.apps"))
        }
        try await harness.console { anonymous in
            let signIn = try await anonymous.get("/sign-in")
            #expect(!signIn.html.contains("/sign-in/openid?provider="))
        }
    }

    @Test("a teacher has no such page: not in the menu, and refused when typed")
    func teacherRefused() async throws {
        try await harness.console { console in
            let home = try await console.signIn("teach@school.org", Self.password)
            #expect(!home.html.contains("/m/auth/sign-in-providers"))
            let typed = try await console.get("/m/auth/sign-in-providers")
            #expect(typed.status == 403)
        }
    }
}
