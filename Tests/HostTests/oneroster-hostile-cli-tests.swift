import Foundation
import HogwartsTestSupport
@testable import OneRoster
import Testing

/// Hostile OneRoster files through the real command, under a memory limit: each ends in its
/// named error and exit 65 in well under the limit, and the database keeps every account.
@Suite("OneRoster hostile files (CLI)", .waitsOnProcesses, .commandLineShape, .serialized)
struct OneRosterHostileCLITests {
    /// `hogwarts` with its own database and config, inside `ulimit -v` (2 GB of address space).
    func limited(_ hogwarts: HogwartsProcess, _ arguments: [String]) throws -> HogwartsProcess.Result {
        let environment = ["HOGWARTS_DATABASE": hogwarts.databasePath, "HOGWARTS_CONFIG_DIR": hogwarts.directory.appending(path: "config").path]
        return try HogwartsProcess.run(URL(filePath: "/bin/sh"), ["-c", "ulimit -v 2000000; exec \"$0\" \"$@\"", hogwarts.binary.path] + arguments,
                                       in: hogwarts.directory, environment: environment)
    }

    @Test("a zip bomb, many entries and too many rows: exit 65 naming the setting, nothing written")
    func hostile() throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo"]).status == 0)
        #expect(try hogwarts.login("admin@databayt.org").status == 0)
        let accounts = try hogwarts.strings("SELECT email FROM auth_users ORDER BY email")
        let orgs = "sourcedId,status,dateLastModified,name,type,identifier,parentSourcedId\norg-1,,,Big,school,BIG,\n"
        let header = "sourcedId,status,dateLastModified,enabledUser,orgSourcedIds,role,username,userIds,givenName,familyName,middleName,identifier,email,sms,phone,agentSourcedIds,grades,password\n"
        let line = "u-x,,,true,org-1,teacher,,,A,B,,,,,,,,\n"

        let bomb = hogwarts.directory.appending(path: "bomb.zip").path
        try OneRosterPackage.write(["orgs.csv": orgs, "users.csv": header + String(repeating: line, count: (200 << 20) / line.utf8.count)], to: bomb, zip: true)
        var result = try limited(hogwarts, ["oneroster", "import", bomb, "--lang", "en"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("oneroster.max-compression-ratio"), "\(result.stderr)")

        let many = hogwarts.directory.appending(path: "many.zip").path
        var files = ["orgs.csv": orgs]
        for index in 0..<1_001 { files["x/\(index).txt"] = "x" }
        try OneRosterPackage.write(files, to: many, zip: true)
        result = try limited(hogwarts, ["oneroster", "import", many, "--lang", "en"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("oneroster.max-entries"), "\(result.stderr)")

        #expect(try hogwarts.run(["settings", "set", "oneroster.max-rows", "10000", "--school", "demo"]).status == 0)
        let big = hogwarts.directory.appending(path: "big").path
        let rows = (0..<20_000).map { "t\($0),,,true,org-1,teacher,t\($0),,A,B,,,t\($0)@big.example,,,,,\n" }.joined()
        try OneRosterPackage.write(["orgs.csv": orgs, "users.csv": header + rows], to: big, zip: false)
        result = try limited(hogwarts, ["oneroster", "import", big, "--lang", "en"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("oneroster.max-rows"), "\(result.stderr)")

        #expect(try hogwarts.strings("SELECT email FROM auth_users ORDER BY email") == accounts, "nothing written")
    }

    @Test("a set with two schools lists them and names --org; --org imports one")
    func severalSchools() throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo"]).status == 0)
        #expect(try hogwarts.login("admin@databayt.org").status == 0)
        let set = hogwarts.directory.appending(path: "two").path
        try OneRosterPackage.write([
            "orgs.csv": "sourcedId,status,dateLastModified,name,type,identifier,parentSourcedId\norg-1,,,One,school,ONE,\norg-2,,,Two,school,TWO,\n",
        ], to: set, zip: false)
        let result = try hogwarts.run(["oneroster", "import", set, "--dry-run", "--lang", "en"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("org-1 (ONE, One)") && result.stderr.contains("org-2 (TWO, Two)") && result.stderr.contains("--org"), "\(result.stderr)")
        let chosen = try hogwarts.run(["oneroster", "import", set, "--dry-run", "--org", "TWO", "--lang", "en"])
        #expect(chosen.status == 0, "\(chosen.stderr)")
        #expect(chosen.stdout.contains("Errors: 0"))
    }
}
