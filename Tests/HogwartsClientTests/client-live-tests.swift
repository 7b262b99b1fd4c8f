import Foundation
import HogwartsClient
import HogwartsTestSupport
import Testing

/// The client against the real server (every module's rules, permissions and sync routes).
@Suite("Client against the real server")
struct ClientLiveTests {
    @Test("a teacher takes attendance with the server unreachable; back online, one sync: the server has it exactly once")
    func offlineAttendance() async throws {
        let harness = try demoServer()
        try await serve(harness.kernel) { server in
            let network = NetworkSwitch()
            let clock = TestClock()
            let client = SyncClient(store: try ClientStore(path: nil), transport: SwitchedTransport(inner: server, network: network), clock: clock)
            let user = try await client.signIn(identifier: "teacher@databayt.org", password: "1234")
            #expect(user.role == "TEACHER")
            let first = try await client.sync()
            #expect(first.pullError == nil)
            let classes = try await client.entities("class")
            let students = try await client.entities("student")
            let taught = try #require(classes.first { schoolClass in students.contains { $0.data["classId"]?.string == schoolClass.id } })
            let roster = students.filter { $0.data["classId"]?.string == taught.id }.sorted { $0.id < $1.id }
            let absent = try #require(roster.first?.data["grNumber"]?.string)

            network.isDown = true
            let date = DemoDays.today
            try await client.enqueue(name: "attendance.take@1", args: [
                "classCode": taught.data["code"] ?? .null, "date": .string(date), "marks": [["student": .string(absent), "status": "ABSENT"]],
            ])
            let offline = try await client.sync()
            #expect(offline.waiting?.seq == 1 && clock.waits == [1, 2, 4])
            let shown = try await client.entities("attendance.record").filter { $0.data["date"]?.string == date && $0.data["classId"] == .string(taught.id) }
            #expect(shown.count == roster.count && shown.allSatisfy(\.pending), "the register shows while offline")

            network.isDown = false
            let back = try await client.networkRestored()
            #expect(back.acknowledged == 1 && back.pending == 0 && back.rejected.isEmpty, "\(back)")
            let clientID = try await client.clientID()
            #expect(try harness.ledger(of: clientID).map(\.status) == ["applied"])
            let records = try await client.entities("attendance.record").filter { $0.data["date"]?.string == date && $0.data["classId"] == .string(taught.id) }
            #expect(records.count == roster.count && records.allSatisfy { !$0.pending }, "the server's records replace the optimistic ones")
            #expect(records.filter { $0.data["status"] == "ABSENT" }.count == 1)
            #expect(try harness.count("SELECT COUNT(*) FROM attendance_records WHERE class_id = ? AND date = ?", [taught.id, date]) == roster.count)

            // The same mutation again (a resend after a lost answer) changes nothing.
            try await client.sync()
            #expect(try harness.ledger(of: clientID).count == 1)
        }
    }
}
