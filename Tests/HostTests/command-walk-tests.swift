import Foundation
import Testing

/// Runs every command of the tree as every kind of user on the demo school, with no arguments
/// and with `--json`: whatever the command thinks of that, the answer must be a documented exit
/// status with one readable line, never a crash, a Swift error's internals, or broken JSON. A
/// command someone documents and nobody tests still gets run here.
@Suite("Every command as every role", .waitsOnProcesses, .commandLineShape, .serialized)
struct CommandWalkTests {
    /// Commands that would end the walk's own session or replace its database, and `serve`,
    /// which runs until a signal (ServeTests runs it and stops it with SIGTERM).
    static let skipped: Set<String> = ["logout", "login", "demo", "restore", "serve"]
    /// BSD sysexits the README documents, and 0.
    static let documentedStatuses: Set<Int32> = [0, 64, 65, 66, 69, 74, 75, 77, 78]
    /// `"_0"` quoted: the key synthesized Codable gives an unlabeled enum payload. A bare `_0` is
    /// also a random token's (an iCalendar feed's base64url) about once in sixty runs.
    static let internals = ["Fatal error", "\"_0\"", "EncodingError", "DecodingError", "Error Domain", "quotation(", "Swift.", "Backtrace"]

    @Test("no command crashes, leaks Swift internals or prints broken JSON, for any role")
    func walk() throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo"]).status == 0)
        let leaves = try CommandTreeTests.tree().all.filter { $0.children.isEmpty && !$0.path.isEmpty && Self.skipped.isDisjoint(with: $0.path) }
        #expect(leaves.count > 50)

        // The local operator (no session), then one signed-in user of each role.
        var people: [(name: String, environment: [String: String])] = [("operator", ["HOGWARTS_CONFIG_DIR": hogwarts.directory.appending(path: "operator").path])]
        for (role, email) in [("admin", "admin@databayt.org"), ("teacher", "teacher@databayt.org"), ("student", "student@databayt.org"),
                              ("guardian", "parent@databayt.org"), ("accountant", "accountant@databayt.org"), ("staff", "staff@databayt.org")] {
            let environment = ["HOGWARTS_CONFIG_DIR": hogwarts.directory.appending(path: role).path]
            let login = try hogwarts.run(["login", "--email", email, "--school", "demo"], input: "1234\n", environment: environment)
            #expect(login.status == 0, "\(role): \(login.stderr)")
            people.append((role, environment))
        }

        for leaf in leaves {
            for person in people {
                let result = try hogwarts.run(leaf.path + ["--json", "--lang", "en"], environment: person.environment)
                let what = "\(person.name): hogwarts \(leaf.path.joined(separator: " ")) --json"
                #expect(Self.documentedStatuses.contains(result.status), "\(what) exited \(result.status): \(result.stderr.prefix(300))")
                for marker in Self.internals {
                    #expect(!result.stderr.contains(marker) && !result.stdout.contains(marker), "\(what) printed \(marker): \(result.stderr.prefix(300))")
                }
                if result.status == 0 && !result.stdout.isEmpty {
                    PlatformJSON.expect(result.stdout, what)
                } else if result.status != 0 {
                    #expect(!result.stderr.isEmpty, "\(what) failed silently")
                }
            }
        }
    }
}
