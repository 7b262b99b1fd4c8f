import Foundation
import HogwartsTestSupport
import Testing

/// `/api/v1/live` between real `hogwarts serve` nodes on one database (two on SQLite, which
/// share one file; three on PostgreSQL): a guardian's stream on one node hears the absence a
/// teacher marks through another, a reconnect with `Last-Event-ID` gets exactly what it missed,
/// and nobody else's stream, in this school or the other, hears anything.
@Suite("Live updates across servers", .waitsOnProcesses, .serialized)
struct LiveUpdatesTests {
    static let servers = TestDatabase.isPostgres ? 3 : 2
    /// Generous for 2 busy cores: a node looks every half second (`HOGWARTS_LIVE_INTERVAL`).
    static let bound: Double = 30

    @Test("the guardian's stream on another node hears the absence once, a reconnect gets exactly the missed ones, no one else hears anything")
    func absenceReachesTheGuardianOnAnotherNode() async throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo"]).status == 0)
        let nodes = try (0..<Self.servers).map { _ in try ServedHogwarts(hogwarts) }
        defer { for node in nodes { _ = node.stop() } }
        // What the demo left for the handlers goes first, so only this test's events are counted.
        let settled = try await eventually(within: 90) {
            try hogwarts.strings("SELECT COUNT(*) FROM kernel_event_deliveries WHERE status = 'PENDING'").first == "0"
        }
        #expect(settled)
        let (first, last) = (nodes[0], nodes[nodes.count - 1])

        let teacher = try await first.signIn("teacher@databayt.org")
        let parent = try await last.signIn("parent@databayt.org")
        let parentInNile = try await first.signIn("parent@databayt.org", school: "nile")
        let student = try await last.signIn("student@databayt.org")
        let child = try #require(try hogwarts.strings("""
            SELECT s.id FROM students_students s JOIN schools k ON k.id = s.school_id WHERE k.slug = 'demo' AND s.gr_number = 'GR-0024'
            """).first)
        let classID = try #require(try hogwarts.strings("""
            SELECT c.id FROM students_classes c JOIN schools k ON k.id = c.school_id WHERE k.slug = 'demo' AND c.code = '7A'
            """).first)
        /// Present, then absent: each call is a new absence, so a new alert for the guardian.
        func markAbsent(on node: ServedHogwarts, date: String) async throws {
            for status in ["PRESENT", "ABSENT"] {
                let saved = try await node.request("POST", "/api/mobile/attendance/bulk", token: teacher,
                                                   json: ["section_id": classID, "date": date, "records": [["student_id": child, "status": status]]])
                #expect((200..<300).contains(saved.status), "\(saved.status) \(String(decoding: saved.body, as: UTF8.self))")
            }
        }

        let guardian = try LiveListener(port: last.port, token: parent)
        let others = try [LiveListener(port: first.port, token: parentInNile), LiveListener(port: last.port, token: student),
                          LiveListener(port: first.port, token: teacher)]
        defer { for listener in [guardian] + others { listener.close() } }
        for listener in [guardian] + others {
            #expect(await listener.opened(within: Self.bound), "status \(String(describing: listener.status))")
        }

        let marked = Date()
        try await markAbsent(on: first, date: DemoDays.daysAgo(4))
        let heard = await guardian.events(count: 1, within: Self.bound)
        let alert = try #require(heard.first, "no event within \(Self.bound) s")
        print("live: absence marked on node 1 heard on node \(nodes.count) after \(Int(Date().timeIntervalSince(marked) * 1000)) ms (two requests included)")
        #expect(alert.name == "notification" && alert.object["type"] as? String == "ATTENDANCE_ALERT")
        #expect((alert.object["metadata"] as? [String: String])?["link"] == "attendance:GR-0024:\(DemoDays.daysAgo(4))")
        #expect((alert.object["title"] as? String ?? "").contains("absent"), "in the stream's language (English): \(alert.data)")
        let firstID = try #require(alert.id)

        // Away, three absences are marked through every node; back on another node with the last id it saw.
        guardian.close()
        for (index, date) in [DemoDays.daysAgo(3), DemoDays.daysAgo(2), DemoDays.daysAgo(1)].enumerated() {
            try await markAbsent(on: nodes[index % nodes.count], date: date)
        }
        let resumed = try LiveListener(port: first.port, token: parent, lastEventID: firstID)
        defer { resumed.close() }
        let missed = await resumed.events(count: 3, within: Self.bound)
        #expect(missed.compactMap { ($0.object["metadata"] as? [String: String])?["link"] }
                == [DemoDays.daysAgo(3), DemoDays.daysAgo(2), DemoDays.daysAgo(1)].map { "attendance:GR-0024:\($0)" }, "\(missed.map(\.data))")
        // Then live again, after what it caught up on, and nothing twice.
        try await markAbsent(on: last, date: DemoDays.today)
        let all = await resumed.events(count: 4, within: Self.bound)
        let ids = all.compactMap(\.id)
        #expect(all.count == 4 && ids == ids.sorted() && Set(ids).count == 4 && ids.allSatisfy { $0 > firstID }, "\(all.map(\.data))")

        // A moment for a stray repeat to show, then: nobody else heard a thing.
        try await Task.sleep(for: .seconds(2))
        #expect(resumed.events.count == 4)
        for listener in others {
            #expect(listener.events.isEmpty, "\(listener.events.map(\.data))")
        }
    }

    @Test("one server: the absence marked through it reaches the guardian's stream on it, in Arabic by default, and a command's mark too")
    func oneServer() async throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo"]).status == 0)
        let node = try ServedHogwarts(hogwarts)
        defer { _ = node.stop() }
        let settled = try await eventually(within: 90) {
            try hogwarts.strings("SELECT COUNT(*) FROM kernel_event_deliveries WHERE status = 'PENDING'").first == "0"
        }
        #expect(settled)
        let teacher = try await node.signIn("teacher@databayt.org")
        let parent = try await node.signIn("parent@databayt.org")
        let child = try #require(try hogwarts.strings("""
            SELECT s.id FROM students_students s JOIN schools k ON k.id = s.school_id WHERE k.slug = 'demo' AND s.gr_number = 'GR-0024'
            """).first)
        let classID = try #require(try hogwarts.strings("""
            SELECT c.id FROM students_classes c JOIN schools k ON k.id = c.school_id WHERE k.slug = 'demo' AND c.code = '7A'
            """).first)
        let guardian = try LiveListener(port: node.port, token: parent, language: "ar")
        defer { guardian.close() }
        #expect(await guardian.opened(within: Self.bound))
        let marked = Date()
        for status in ["PRESENT", "ABSENT"] {
            let saved = try await node.request("POST", "/api/mobile/attendance/bulk", token: teacher,
                                               json: ["section_id": classID, "date": DemoDays.daysAgo(1), "records": [["student_id": child, "status": status]]])
            #expect((200..<300).contains(saved.status))
        }
        let heard = await guardian.events(count: 1, within: Self.bound)
        print("live: absence marked and heard on one server after \(Int(Date().timeIntervalSince(marked) * 1000)) ms (two requests included)")
        let alert = try #require(heard.first)
        #expect((alert.object["title"] as? String ?? "").contains("نور"), "Arabic by default: \(alert.data)")

        // A command run beside the server (its own process) is heard at the server's next look.
        #expect(try hogwarts.login("teacher@databayt.org", school: "demo").status == 0)
        #expect(try hogwarts.run(["attendance", "take", "--class", "7A", "--date", DemoDays.today]).status == 0)
        #expect(try hogwarts.run(["attendance", "take", "--class", "7A", "--date", DemoDays.today, "--absent", "GR-0024"]).status == 0)
        let both = await guardian.events(count: 2, within: Self.bound)
        #expect(both.count == 2 && (both.last?.object["metadata"] as? [String: String])?["link"] == "attendance:GR-0024:\(DemoDays.today)", "\(both.map(\.data))")

        // SIGTERM with the stream still open: the server ends it and exits, as an init system expects.
        let stopping = Date()
        #expect(node.stop() == 0)
        #expect(Date().timeIntervalSince(stopping) < 10, "an open stream held the stop for \(Date().timeIntervalSince(stopping)) s")
        #expect(await guardian.ended(within: 5))
    }

    @Test("a client that does not ask for an event stream, or sends an id that is not one, is answered at once in the API's error shape")
    func refusals() async throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo"]).status == 0)
        let node = try ServedHogwarts(hogwarts)
        defer { _ = node.stop() }
        let parent = try await node.signIn("parent@databayt.org")
        let json = try await node.request("GET", "/api/v1/live", token: parent)
        #expect(json.status == 406 && json.object["code"] as? String == "NOT_ACCEPTABLE")
        let badID = try await node.request("GET", "/api/v1/live", token: parent, headers: ["Accept": "text/event-stream", "Last-Event-ID": "yesterday"])
        #expect(badID.status == 400 && badID.object["code"] as? String == "INVALID_FIELD")
        let anonymous = try await node.request("GET", "/api/v1/live", headers: ["Accept": "text/event-stream"])
        #expect(anonymous.status == 401)
    }
}
