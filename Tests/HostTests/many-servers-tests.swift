import Core
import Foundation
import HogwartsTestSupport
import Testing

/// Real `hogwarts serve` processes on one database, as a district runs them behind a load
/// balancer: three on PostgreSQL, two on one SQLite file (whose writers take turns). What one
/// server does, none of the others does again, and limits hold across them.
@Suite("Many servers on one database", .waitsOnProcesses, .serialized)
struct ManyServersTests {
    static let servers = TestDatabase.isPostgres ? 3 : 2

    @Test("under a mixed load over the servers and three `notifications deliver` runs: every event handled once, every guardian notified once per event, every outbox entry sent once, the address limit held across servers")
    func exactlyOnceAcrossServers() async throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo"]).status == 0)
        // Counted before any server runs: a server sending between two counts would make them disagree.
        let outboxLog = hogwarts.directory.appending(path: "hogwarts-outbox.log")
        let linesBefore = Self.lines(outboxLog)
        let since = try hogwarts.strings("SELECT COALESCE(MAX(created_at), '') FROM notifications_items").first ?? ""
        let sentBefore = try Self.count(hogwarts, "SELECT COUNT(*) FROM notifications_outbox WHERE state = 'SENT'")
        let servers = try (0..<Self.servers).map { _ in try ServedHogwarts(hogwarts) }
        defer { for server in servers { _ = server.stop() } }

        let token = try await servers[0].signIn("teacher@databayt.org")
        let classes = try await servers[0].request("GET", "/api/mobile/teacher/classes", token: token).data.compactMap { $0["section_id"] as? String }
        #expect(classes.count >= 2)
        // The demo's guardian with an account, and colleagues: each message notifies its recipient.
        let recipients = try hogwarts.strings("""
            SELECT u.id FROM auth_users u JOIN schools s ON s.id = u.school_id
            WHERE s.slug = 'demo' AND (u.email = 'parent@databayt.org' OR (u.role = 'TEACHER' AND u.email <> 'teacher@databayt.org'))
            ORDER BY u.email LIMIT 6
            """)
        #expect(recipients.count >= 3)

        // The load: each class's register saved once, every student absent, on all the servers at
        // once; messages through all of them; and three one-off delivery runs beside them.
        let deliverRuns = (0..<3).map { _ in Task.detached { try hogwarts.run(["notifications", "deliver"]).status } }
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for (index, classID) in classes.prefix(6).enumerated() {
                let server = servers[index % servers.count]
                group.addTask {
                    let roster = try await server.request("GET", "/api/mobile/attendance/class/\(classID)", token: token).data.compactMap { $0["student_id"] as? String }
                    let records = roster.map { ["student_id": $0, "status": "ABSENT"] }
                    return try await server.request("POST", "/api/mobile/attendance/bulk", token: token, json: ["section_id": classID, "records": records]).status
                }
            }
            for (index, recipient) in recipients.enumerated() {
                let server = servers[index % servers.count]
                group.addTask {
                    let conversation = try await server.request("POST", "/api/mobile/conversations", token: token,
                                                                json: ["participant_ids": [recipient], "type": "direct"])
                    guard let id = conversation.object["id"] as? String else { return conversation.status }
                    for number in 0..<3 {
                        let sent = try await servers[(index + number) % servers.count].request("POST", "/api/mobile/conversations/\(id)/messages", token: token,
                                                                                    json: ["content": "Message \(number) to recipient \(index)"])
                        guard (200..<300).contains(sent.status) else { return sent.status }
                    }
                    return 200
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.allSatisfy { (200..<300).contains($0) }, "\(statuses)")
        for run in deliverRuns { #expect(try await run.value == 0) }

        // The servers deliver the rest themselves, with no cron.
        let drained = try await eventually(within: 90) {
            // SENDING too: an entry being sent has its line written before its SENT is recorded.
            try Self.count(hogwarts, "SELECT COUNT(*) FROM notifications_outbox WHERE state IN ('PENDING', 'SENDING')") == 0
                && Self.count(hogwarts, "SELECT COUNT(*) FROM kernel_event_deliveries WHERE status = 'PENDING'") == 0
        }
        #expect(drained, "every outbox entry and every event delivered within 90 s by the servers")

        #expect(try Self.count(hogwarts, "SELECT COUNT(*) FROM kernel_event_deliveries WHERE status <> 'DELIVERED' OR attempts <> 1") == 0,
                "every event reached each handler once, on its first attempt")
        let absences = try Self.count(hogwarts, "SELECT COUNT(*) FROM notifications_items WHERE type = 'ATTENDANCE_ALERT' AND created_at > '\(since)'")
        let messages = try Self.count(hogwarts, "SELECT COUNT(*) FROM notifications_items WHERE type = 'MESSAGE' AND created_at > '\(since)'")
        #expect(absences > 0 && messages == recipients.count * 3, "\(absences) absence and \(messages) message notifications")
        let repeated = try hogwarts.strings("""
            SELECT user_id || ' ' || body_en FROM notifications_items WHERE created_at > '\(since)'
            GROUP BY user_id, type, body_en, link HAVING COUNT(*) > 1
            """)
        #expect(repeated.isEmpty, "no one was notified twice of one event: \(repeated.prefix(3))")
        let sent = try Self.count(hogwarts, "SELECT COUNT(*) FROM notifications_outbox WHERE state = 'SENT'") - sentBefore
        let written = Self.lines(outboxLog) - linesBefore
        #expect(sent > 0 && written == sent, "each outbox entry sent once: \(sent) entries recorded SENT, \(written) lines written")

        // Ten sign-ins a minute from one address, counted by all the servers together: ten at
        // once, then one more every six seconds. On a loaded machine the 33 attempts can take
        // longer than that, so each six seconds they took admits one more; three servers
        // counting apart would admit ten each.
        let limit = RateLimiter.Limit.signIn
        let started = Date()
        let attempts = try await withThrowingTaskGroup(of: ServedHogwarts.Response.self) { group in
            for index in 0..<33 {
                group.addTask {
                    try await servers[index % servers.count].request("POST", "/api/mobile/auth", json: ["identifier": "nobody@example.org", "password": "wrong"])
                }
            }
            return try await group.reduce(into: [ServedHogwarts.Response]()) { $0.append($1) }
        }
        let took = Date().timeIntervalSince(started)
        let refilled = Int(took / (limit.window / Double(limit.attempts)))
        let limited = attempts.filter { $0.status == 429 }
        #expect(limit.attempts + refilled < 2 * limit.attempts, "the attempts took \(Int(took)) s: too long to tell one count from several")
        #expect(attempts.count - limited.count <= limit.attempts + refilled,
                "\(attempts.count - limited.count) of 33 attempts admitted in \(Int(took)) s")
        #expect(limited.allSatisfy { Int($0.headers["retry-after"] ?? "") ?? 0 >= 1 })
    }

    static func count(_ hogwarts: HogwartsProcess, _ sql: String) throws -> Int {
        Int(try hogwarts.strings(sql).first ?? "") ?? -1
    }

    static func lines(_ file: URL) -> Int {
        ((try? String(contentsOf: file, encoding: .utf8)) ?? "").split(separator: "\n").count
    }
}
