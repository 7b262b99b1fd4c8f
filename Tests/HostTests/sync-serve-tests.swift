import Foundation
import HogwartsTestSupport
import Testing

/// Offline sync against the real `hogwarts serve`: a register taken with the command line while
/// the server runs reaches the teacher's pull, and a register pushed by an app applies once.
@Suite("Offline sync over HTTP", .waitsOnProcesses, .serialized)
struct SyncServeTests {
    /// Pulls every page from `cursor`, returning the changes, the last cursor and lastMutationSeq.
    private func pullAll(_ server: ServedHogwarts, token: String, client: String, from cursor: String?) async throws
        -> (changes: [[String: Any]], cursor: String, last: Int) {
        var cursor = cursor
        var changes: [[String: Any]] = []
        while true {
            let query = cursor.map { "&cursor=" + ($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0) } ?? ""
            let page = try await server.request("GET", "/api/v1/sync/pull?clientId=\(client)&limit=1000\(query)", token: token)
            #expect(page.status == 200, "\(String(decoding: page.body, as: UTF8.self))")
            changes += page.object["changes"] as? [[String: Any]] ?? []
            cursor = page.object["cursor"] as? String
            guard page.status == 200, let next = cursor else { throw ServedHogwarts.ServeError.badPath("pull") }
            if page.object["hasMore"] as? Bool != true { return (changes, next, page.object["lastMutationSeq"] as? Int ?? -1) }
        }
    }

    @Test("a CLI register reaches the pull of a teacher's app; a pushed register applies once and the pull confirms its seq")
    func cliAndPush() async throws {
        let hogwarts = try SignInTests.demo()
        defer { hogwarts.cleanUp() }
        let server = try ServedHogwarts(hogwarts)
        defer { _ = server.stop() }
        let token = try await server.signIn("teacher@databayt.org")
        let client = "5d0c7c9e-8f1a-4b2c-9d3e-00000000c11e"
        // Without a cursor the pull answers a reset: the demo's history is in the snapshot, which
        // is where a new app starts.
        let cursorless = try await server.request("GET", "/api/v1/sync/pull?clientId=\(client)", token: token)
        #expect((cursorless.object["reset"] as? [String: Any])?["reason"] as? String == "cursorExpired", "\(String(decoding: cursorless.body, as: UTF8.self))")
        let snapshot = try await server.request("GET", "/api/v1/sync/snapshot?limit=1", token: token)
        let start = try await pullAll(server, token: token, client: client, from: try #require(snapshot.object["cursor"] as? String))

        #expect(try hogwarts.login("teacher@databayt.org").status == 0)
        let day = DemoDays.today
        let taken = try hogwarts.run(["attendance", "take", "--class", "7A", "--date", day, "--period", "P2", "--absent", "3", "--lang", "en"])
        #expect(taken.status == 0, "\(taken.stderr)")
        let afterCLI = try await pullAll(server, token: token, client: client, from: start.cursor)
        let records = afterCLI.changes.filter { $0["type"] as? String == "attendance.record" }
        #expect(records.count > 20, "every student of 7A: \(records.count)")
        #expect(records.allSatisfy { ($0["data"] as? [String: Any])?["period"] as? String == "P2" })

        let push: [String: Any] = ["clientId": client, "schemaVersion": 1, "mutations": [[
            "seq": 1, "id": "5d0c7c9e-8f1a-4b2c-9d3e-000000000001", "name": "attendance.take@1",
            "args": ["classCode": "7A", "date": day, "period": "P3", "marks": [["student": "4", "status": "LATE"]]],
            "clientTime": "\(day)T08:00:00Z", "baseVersion": NSNull(),
        ]]]
        let first = try await server.request("POST", "/api/v1/sync/push", token: token, json: push)
        #expect(first.status == 200, "\(String(decoding: first.body, as: UTF8.self))")
        #expect((first.object["results"] as? [[String: Any]])?.first?["status"] as? String == "applied")
        let second = try await server.request("POST", "/api/v1/sync/push", token: token, json: push)
        #expect((second.object["results"] as? [[String: Any]])?.first?["status"] as? String == "duplicate")
        let afterPush = try await pullAll(server, token: token, client: client, from: afterCLI.cursor)
        #expect(afterPush.last == 1)
        let late = afterPush.changes.filter { ($0["data"] as? [String: Any])?["status"] as? String == "LATE" }
        #expect(late.count == 1)
    }
}
