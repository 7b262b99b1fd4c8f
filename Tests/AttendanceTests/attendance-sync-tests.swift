import Attendance
import Core
import Foundation
import HogwartsTestSupport
import Students
import Testing

/// Registers taken offline and replayed through `attendance.take@1`, and who receives the records.
@Suite("Attendance: offline sync")
struct AttendanceSyncTests {
    let fixture: AttendanceFixture
    let client = "0b7e4f7a-3c1d-4e5f-9a6b-000000000071"

    init() throws {
        fixture = try AttendanceFixture()
    }

    private func take(_ seq: Int, _ args: APIValue) -> SyncPushMutation {
        SyncPushMutation(seq: seq, id: "0b7e4f7a-3c1d-4e5f-9a6b-\(String(format: "%012d", seq))", name: "attendance.take@1", args: args)
    }

    /// Every page from `cursor`; without one, from where a new app's snapshot would leave it (the
    /// demo's history is in the snapshot, not the change log).
    private func pull(_ principal: Principal, client: String? = nil, from cursor: String? = nil) throws -> (changes: [SyncChange], cursor: String, last: Int) {
        var cursor = try cursor ?? fixture.harness.kernel.syncSnapshot(after: nil, limit: 1, as: principal, in: fixture.school.id).cursor
        var all: [SyncChange] = []
        while true {
            guard case .changes(let changes, let next, let hasMore, let last) = try fixture.harness.kernel.syncPull(
                clientID: client, cursor: cursor, limit: 1000, as: principal, in: fixture.school.id) else {
                throw AttendanceSyncTestFailure.reset
            }
            all += changes
            cursor = next
            if !hasMore { return (all, next, last) }
        }
    }

    private func data(_ change: SyncChange) -> [String: APIValue] {
        if case .object(let data)? = change.data { return data }
        return [:]
    }

    @Test("a register taken offline applies once through attendance.take; its teacher pulls every record, a guardian only their child's")
    func registerReplayed() throws {
        let teacher = try fixture.account("teacher@databayt.org")
        let parent = try fixture.account("parent@databayt.org")
        let child = try #require(try fixture.run(ListStudents.self, .init(), as: parent).students.first { $0.classCode == "7A" }
                                 ?? fixture.run(ListStudents.self, .init(), as: parent).students.first)
        let classCode = try #require(child.classCode)
        let teacherStart = try pull(teacher, client: client).cursor
        let parentStart = try pull(parent).cursor

        let mutation = take(1, ["classCode": .string(classCode), "period": "P1",
                                "marks": [["student": .string(child.grNumber), "status": "ABSENT"]]])
        let pusher = classCode == "7A" ? teacher : fixture.admin
        let pushClient = classCode == "7A" ? client : "0b7e4f7a-3c1d-4e5f-9a6b-0000000000ad"
        let first = try fixture.harness.kernel.syncPush(SyncPushRequest(clientId: pushClient, mutations: [mutation]), as: pusher, in: fixture.school.id)
        #expect(first.results.map(\.status) == [.applied])
        guard case .object(let output)? = first.results.first?.result else {
            Issue.record("no result")
            return
        }
        #expect(output["classCode"] == .string(classCode))
        let again = try fixture.harness.kernel.syncPush(SyncPushRequest(clientId: pushClient, mutations: [mutation]), as: pusher, in: fixture.school.id)
        #expect(again.results.map(\.status) == [.duplicate])
        #expect(try fixture.events().filter { $0.kind == "absent" }.count == 1, "the absence event was raised once")

        let size = try fixture.register(classCode).count
        if classCode == "7A" {
            let records = try pull(teacher, client: client, from: teacherStart)
            #expect(records.changes.filter { $0.type == "attendance.record" }.count == size)
            #expect(records.last == 1, "the pull confirms the applied seq")
        }
        let theirs = try pull(parent, from: parentStart).changes.filter { $0.type == "attendance.record" }
        #expect(theirs.count == 1)
        #expect(theirs.first.map(data)?["studentId"] == .string(child.id))
        #expect(theirs.first.map(data)?["status"] == "ABSENT")
        #expect(theirs.first.map(data)?["period"] == "P1")
    }

    @Test("an offline register naming a student of another class is rejected by the GR number given, exactly as a number nobody has: no name")
    func foreignStudentNamesNoOne() throws {
        let teacher = try fixture.account("teacher@databayt.org")
        let other = try #require(try fixture.register("8A").first)
        let response = try fixture.harness.kernel.syncPush(SyncPushRequest(clientId: client, mutations: [
            take(1, ["classCode": "7A", "period": "P1", "marks": [["student": .string(other.grNumber), "status": "ABSENT"]]]),
            take(2, ["classCode": "7A", "period": "P1", "marks": [["student": "GR-5001", "status": "ABSENT"]]]),
        ]), as: teacher, in: fixture.school.id, language: .en)
        #expect(response.results.map(\.status) == [.rejected, .rejected])
        let (foreign, unknown) = (response.results[0], response.results[1])
        #expect(foreign.code == "ATTENDANCE_NOT_IN_CLASS" && foreign.code == unknown.code)
        #expect(foreign.error?.contains(other.name) == false, "no name: \(foreign.error ?? "")")
        #expect(foreign.error?.replacingOccurrences(of: other.grNumber, with: "GR") == unknown.error?.replacingOccurrences(of: "GR-5001", with: "GR"))
    }

    @Test("an offline ABSENT over the office's EXCUSED is rejected with the server's record; the seq still advances")
    func excusedIsKept() throws {
        let parent = try fixture.account("parent@databayt.org")
        let child = try #require(try fixture.run(ListStudents.self, .init(), as: parent).students.first)
        let classCode = try #require(child.classCode)
        try fixture.run(TakeAttendance.self, .init(classCode: classCode, period: "P1", marks: [AttendanceMark(student: child.grNumber, status: .absent)]))
        let excuse = try fixture.run(SubmitExcuse.self, .init(grNumber: child.grNumber, date: "2026-11-22", period: "P1", reason: .medical, description: "Fever"), as: parent)
        try fixture.run(ReviewExcuse.self, .init(excuse: excuse, approve: true))
        let before = try fixture.register(classCode)

        let response = try fixture.harness.kernel.syncPush(SyncPushRequest(clientId: client, mutations: [
            take(1, ["classCode": .string(classCode), "period": "P1", "marks": [["student": .string(child.grNumber), "status": "ABSENT"]]]),
            take(2, ["classCode": .string(classCode), "period": "P2"]),
        ]), as: fixture.admin, in: fixture.school.id)
        #expect(response.results.map(\.status) == [.rejected, .applied])
        let rejected = try #require(response.results.first)
        #expect(rejected.code == "ATTENDANCE_EXCUSED_KEPT")
        #expect(rejected.error?.contains(child.grNumber) == true)
        guard case .object(let current)? = rejected.current, case .array(let records)? = current["records"],
              case .object(let record)? = records.first else {
            Issue.record("no current records: \(String(describing: rejected.current))")
            return
        }
        #expect(record["status"] == "EXCUSED")
        #expect(record["studentId"] == .string(child.id))
        #expect(try fixture.register(classCode) == before, "nothing of the rejected register was written")
        #expect(response.lastMutationSeq == 2)
    }

    @Test("a register taken the ordinary way (the CLI's path) reaches the guardian's pull")
    func ordinaryWriteAppears() throws {
        let parent = try fixture.account("parent@databayt.org")
        let child = try #require(try fixture.run(ListStudents.self, .init(), as: parent).students.first)
        let start = try pull(parent).cursor
        try fixture.run(TakeAttendance.self, .init(classCode: child.classCode ?? "", period: "P3", marks: [AttendanceMark(student: child.grNumber, status: .late)]))
        let changes = try pull(parent, from: start).changes.filter { $0.type == "attendance.record" }
        #expect(changes.count == 1)
        #expect(changes.first.map(data)?["status"] == "LATE")
    }
}

enum AttendanceSyncTestFailure: Error { case reset }
