import Core
import Foundation
import HogwartsTestSupport
import Testing

/// Two real `hogwarts serve` nodes on one database: a role change or a suspension made from the
/// command line stops a token signed by one node on the other too, within the live-family bound.
@Suite("Tokens stop on every server", .waitsOnProcesses, .serialized)
struct TokenTruthHostTests {
    /// `LiveFamilies.lifetime` (5 s) and a second for the request itself.
    static let bound: TimeInterval = 6

    @Test("a role change and a suspension end the old tokens on another server within the bound")
    func accountChangesStopTokensOnEveryServer() async throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo"]).status == 0)
        let servers = try (0..<2).map { _ in try ServedHogwarts(hogwarts) }
        defer { for server in servers { _ = server.stop() } }
        let teacher = try await servers[0].signIn("teacher@databayt.org")
        let staff = try await servers[0].signIn("staff@databayt.org")
        for token in [teacher, staff] {
            #expect(try await servers[1].request("GET", "/api/mobile/dashboard", token: token).status == 200, "each server believes the other's token")
        }
        #expect(try hogwarts.login("admin@databayt.org").status == 0)
        #expect(try hogwarts.run(["users", "role", "teacher@databayt.org", "STAFF"]).status == 0)
        #expect(try hogwarts.run(["users", "suspend", "staff@databayt.org"]).status == 0)
        let changedAt = Date()
        for token in [teacher, staff] {
            var status = 0
            while Date().timeIntervalSince(changedAt) < Self.bound + 2 {
                status = try await servers[1].request("GET", "/api/mobile/dashboard", token: token).status
                if status == 401 { break }
                try await Task.sleep(for: .milliseconds(200))
            }
            #expect(status == 401)
            #expect(Date().timeIntervalSince(changedAt) <= Self.bound)
            #expect(try await servers[0].request("GET", "/api/mobile/dashboard", token: token).status == 401)
        }
    }
}
