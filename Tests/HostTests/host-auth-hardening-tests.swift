import Foundation
import Testing

/// Issue 11, Auth's side, through the built binary: whoami names the session's real school,
/// the session file stays private, free text is checked, and `--json` is plain snake_case.
@Suite("Auth hardening with the hogwarts binary", .waitsOnProcesses, .commandLineShape)
struct HostAuthHardeningTests {
    static func signedInDemo(_ email: String = "admin@databayt.org") throws -> HogwartsProcess {
        let hogwarts = try HogwartsProcess()
        let demo = try hogwarts.run(["demo"])
        #expect(demo.status == 0, "\(demo.stderr)")
        let login = try hogwarts.login(email, school: "demo")
        #expect(login.status == 0, "\(login.stderr)")
        return hogwarts
    }

    @Test("whoami shows the session's own school and refuses --school or HOGWARTS_SCHOOL naming another")
    func whoamiSchool() throws {
        let hogwarts = try Self.signedInDemo()
        defer { hogwarts.cleanUp() }
        let plain = try hogwarts.run(["whoami", "--lang", "en"])
        #expect(plain.status == 0 && plain.stdout.contains("ADMIN") && plain.stdout.contains("demo"), "\(plain.stderr)")
        #expect(try hogwarts.run(["whoami", "--school", "demo"]).status == 0)

        for (arguments, environment) in [(["whoami", "--school", "nile"], [:]), (["whoami"], ["HOGWARTS_SCHOOL": "nile"])] {
            let other = try hogwarts.run(arguments + ["--lang", "en"], environment: environment)
            #expect(other.status != 0, "\(arguments) \(environment) printed \(other.stdout)")
            #expect(!other.stdout.contains("nile"), "never 'ADMIN nile' for a demo account")
            #expect(!other.stderr.isEmpty)
        }
    }

    @Test("an unknown email without --school is asked for its password and refused like a wrong one, one sign-in attempt each")
    func unknownEmailWithoutSchool() throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo"]).status == 0)
        let unknown = try hogwarts.login("ghost@databayt.org")
        let wrong = try hogwarts.login("accountant@databayt.org", password: "nope")
        #expect(unknown.status == 77 && wrong.status == 77)
        #expect(unknown.stderr == wrong.stderr)
        let outcomes = try hogwarts.strings("SELECT outcome FROM auth_sign_in_attempts WHERE email IN ('ghost@databayt.org', 'accountant@databayt.org') ORDER BY outcome")
        #expect(outcomes == ["unknown-email", "wrong-password"], "both went through one sign-in")
    }

    @Test("a session file others can read is reported on stderr with the chmod that fixes it; signing in again makes it 0600")
    func sessionFileWarning() throws {
        let hogwarts = try Self.signedInDemo()
        defer { hogwarts.cleanUp() }
        let sessionFile = hogwarts.directory.appending(path: "config/sessions.json").path
        let mode = { try FileManager.default.attributesOfItem(atPath: sessionFile)[.posixPermissions] as? Int }
        #expect(try mode() == 0o600)
        #expect(try hogwarts.run(["whoami"]).stderr.isEmpty, "a private file, no warning")

        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: sessionFile)
        let warned = try hogwarts.run(["whoami", "--lang", "en"])
        #expect(warned.status == 0, "a warning, not a failure")
        #expect(warned.stderr.contains("chmod 600 \(sessionFile)"), "\(warned.stderr)")

        #expect(try hogwarts.login("admin@databayt.org", school: "demo").status == 0)
        #expect(try mode() == 0o600)
        #expect(try hogwarts.run(["whoami"]).stderr.isEmpty)
    }

    @Test("names with control characters or 10,000 characters are refused naming the field, and nothing is created")
    func freeText() throws {
        let hogwarts = try Self.signedInDemo()
        defer { hogwarts.cleanUp() }
        let long = String(repeating: "x", count: 10_000)
        let schools: [([String], String)] = [
            (["--name-ar", "شمال\u{1B}[2J", "--name-en", "North"], "--name-ar"),
            (["--name-ar", "شمال", "--name-en", "North\nSchool"], "--name-en"),
            (["--name-ar", "شمال", "--name-en", long], "--name-en"),
            (["--name-ar", "شمال", "--name-en", "North", "--admin-name", "Head\u{7}"], "--admin-name"),
            (["--name-ar", "  ", "--name-en", "North"], "--name-ar"),
        ]
        for (names, field) in schools {
            let created = try hogwarts.run(["school", "create", "--slug", "north", "--admin-email", "head@north.org", "--lang", "en"] + names,
                                           input: "Str0ng-Passw0rd\n")
            #expect(created.status == 65, "\(field): \(created.stderr)")
            #expect(created.stderr.contains(field), "\(created.stderr)")
            #expect(!created.stderr.contains("\u{1B}") && !created.stderr.contains("\u{7}"), "nothing raw on the terminal")
        }
        #expect(!(try hogwarts.run(["school", "list"]).stdout.contains("north")))

        for name in ["Al\u{1B}[31mi", "Two\nLines", long] {
            let user = try hogwarts.run(["users", "create", "--email", "new@databayt.org", "--name", name, "--role", "TEACHER", "--lang", "en"],
                                        input: "Str0ng-Passw0rd\n")
            #expect(user.status == 65, "\(user.stderr)")
            #expect(user.stderr.contains("name"), "\(user.stderr)")
        }
        #expect(!(try hogwarts.run(["users", "list"]).stdout.contains("new@databayt.org")))
    }

    @Test("--json of login, whoami, users list, school list and show, and logout parses, with snake_case keys and no Swift internals")
    func json() throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo"]).status == 0)
        let login = try hogwarts.run(["login", "--email", "admin@databayt.org", "--school", "demo", "--json"], input: "1234\n")
        let user = try Self.object(login)
        #expect(user["email"] as? String == "admin@databayt.org" && user["display_name"] != nil && user["role"] as? String == "ADMIN")

        let whoami = try Self.object(try hogwarts.run(["whoami", "--json"]))
        #expect(Set(whoami.keys) == ["user_id", "name", "role", "school"])
        #expect(whoami["school"] as? String == "demo" && whoami["role"] as? String == "ADMIN")

        let users = try #require(try Self.parse(try hogwarts.run(["users", "list", "--json"])) as? [[String: Any]])
        #expect(users.contains { $0["email"] as? String == "teacher@databayt.org" && $0["status"] as? String == "ACTIVE" })

        let schools = try #require(try Self.parse(try hogwarts.run(["school", "list", "--json"])) as? [[String: Any]])
        #expect(schools.compactMap { $0["slug"] as? String }.sorted() == ["demo", "nile"])
        #expect(schools.allSatisfy { $0["time_zone"] as? String == "Africa/Khartoum" && $0["name"] is [String: Any] })

        let show = try Self.object(try hogwarts.run(["school", "show", "nile", "--json"]))
        #expect(show["slug"] as? String == "nile" && (show["modules"] as? [String])?.contains("auth") == true)

        let logout = try Self.object(try hogwarts.run(["logout", "--json"]))
        #expect(logout["signed_out"] as? String == "admin@databayt.org")
    }

    /// The JSON a command printed, after checking it succeeded and every key is snake_case.
    static func parse(_ result: HogwartsProcess.Result) throws -> Any {
        #expect(result.status == 0, "\(result.stderr)")
        let value = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        for key in keys(in: value) {
            #expect(key.range(of: "^[a-z][a-z0-9]*(_[a-z0-9]+)*$", options: .regularExpression) != nil, "key \(key) is not snake_case")
        }
        return value
    }

    static func object(_ result: HogwartsProcess.Result) throws -> [String: Any] {
        try #require(try parse(result) as? [String: Any])
    }

    static func keys(in value: Any) -> [String] {
        if let object = value as? [String: Any] { return object.keys + object.values.flatMap(keys(in:)) }
        if let array = value as? [Any] { return array.flatMap(keys(in:)) }
        return []
    }
}
