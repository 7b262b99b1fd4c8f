import Foundation
import HogwartsTestSupport
import Testing

/// On PostgreSQL another server's commit reaches a stream through LISTEN/NOTIFY, not at the
/// stream server's next look: with looks thirty seconds apart, the guardian still hears the
/// absence marked on the other server within a few seconds.
@Suite("Live updates across servers by LISTEN/NOTIFY", .waitsOnProcesses, .serialized)
struct LiveNotifyTests {
    @Test("with looks 30 s apart, an absence marked on one server reaches the guardian's stream on another within 10 s",
          .enabled(if: TestDatabase.isPostgres, "NOTIFY is PostgreSQL's; SQLite servers share a file and look"))
    func notifyWakesTheOtherServer() async throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo"]).status == 0)
        let slow = ["HOGWARTS_LIVE_INTERVAL": "30"]
        let (marking, streaming) = (try ServedHogwarts(hogwarts, environment: slow), try ServedHogwarts(hogwarts, environment: slow))
        defer { _ = marking.stop(); _ = streaming.stop() }
        let settled = try await eventually(within: 90) {
            try hogwarts.strings("SELECT COUNT(*) FROM kernel_event_deliveries WHERE status = 'PENDING'").first == "0"
        }
        #expect(settled)
        let teacher = try await marking.signIn("teacher@databayt.org")
        let parent = try await streaming.signIn("parent@databayt.org")
        let child = try #require(try hogwarts.strings("""
            SELECT s.id FROM students_students s JOIN schools k ON k.id = s.school_id WHERE k.slug = 'demo' AND s.gr_number = 'GR-0024'
            """).first)
        let classID = try #require(try hogwarts.strings("""
            SELECT c.id FROM students_classes c JOIN schools k ON k.id = c.school_id WHERE k.slug = 'demo' AND c.code = '7A'
            """).first)
        let guardian = try LiveListener(port: streaming.port, token: parent)
        defer { guardian.close() }
        #expect(await guardian.opened(within: 30))
        // The stream's server has just looked: its next look is thirty seconds away.
        try await Task.sleep(for: .seconds(1))
        let marked = Date()
        for status in ["PRESENT", "ABSENT"] {
            let saved = try await marking.request("POST", "/api/mobile/attendance/bulk", token: teacher,
                                                  json: ["section_id": classID, "date": DemoDays.today, "records": [["student_id": child, "status": status]]])
            #expect((200..<300).contains(saved.status))
        }
        let heard = await guardian.events(count: 1, within: 10)
        print("live: heard on the other server \(Int(Date().timeIntervalSince(marked) * 1000)) ms after the mark, looks 30 s apart")
        #expect(heard.first?.name == "notification", "not heard within 10 s: the other server waited for its look")
    }
}
