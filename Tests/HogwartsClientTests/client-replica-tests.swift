import Foundation
import HogwartsClient
import Testing

@Suite("Replica, rebase and reset against a fake server")
struct ClientReplicaTests {
    @Test("a pull lays what is still queued over the server's newer values (rebase)")
    func rebase() async throws {
        let server = FakeSyncServer()
        let client = try await makeClient(server)
        try await client.sync()
        await server.setOffline(100)
        try await client.enqueue(name: "item.set@1", args: set("a", "mine"))
        await server.setOffline(0)
        await server.serverWrite(key: "a", value: "office")
        await server.serverWrite(key: "b", value: "office")
        try await client.pull()
        let seen = try await client.entities("item")
        #expect(seen.map(\.data["value"]) == [.string("mine"), .string("office")])
        #expect(seen.map(\.pending) == [true, false])
        #expect(try await client.serverView()["item/a"]?["value"] == .string("office"), "the server's view is kept underneath")
        try await client.sync()
        #expect(try await client.entities("item").map(\.pending) == [false, false])
        #expect(await server.entity("a")?["value"] == .string("mine"))
    }

    @Test("a reset wipes the replica, keeps the outbox, snapshots again and re-applies the queue")
    func resetKeepsOutbox() async throws {
        let server = FakeSyncServer()
        let client = try await makeClient(server)
        await server.serverWrite(key: "old", value: "1")
        try await client.sync()
        try await client.enqueue(name: "item.set@1", args: set("a", "queued"))
        await server.serverWrite(key: "new", value: "2")
        await server.setResetNext("scopeChanged")
        let report = try await client.pull()
        #expect(report.resetReason == "scopeChanged")
        #expect(try await client.outbox().map(\.seq) == [1], "the outbox survives a reset")
        #expect(try await client.entities("item").map(\.id) == ["a", "new", "old"])
        #expect(try await client.serverView().keys.sorted() == ["item/new", "item/old"])
        try await client.sync()
        #expect(await server.applied.map(\.seq) == [1])
    }

    @Test("a delete in the server's log removes the entity locally")
    func deletes() async throws {
        let server = FakeSyncServer()
        let client = try await makeClient(server)
        await server.serverWrite(key: "a", value: "1")
        try await client.sync()
        try await client.enqueue(name: "item.delete@1", args: ["key": "a"])
        try await client.sync()
        #expect(try await client.entities("item").isEmpty)
    }

    @Test("pull pages until the server has no more, with the cursor saved per page")
    func paging() async throws {
        let server = FakeSyncServer()
        let store = try ClientStore(path: nil)
        let client = SyncClient(store: store, transport: server, clock: TestClock(), appliers: itemAppliers, pullLimit: 10)
        try await client.signIn(identifier: "t", password: "p")
        try await client.sync()
        for index in 0..<30 { await server.serverWrite(key: "k\(index)", value: "\(index)") }
        let report = try await client.pull()
        #expect(report.changesPulled == 30)
        #expect(await server.requests.filter { $0.path.hasPrefix("/api/v1/sync/pull") }.count == 4, "the first sync's pull, then pages of 10, 10 and 10")
        #expect(try await client.entities("item").count == 30)
    }

    @Test("attendance.take@1 shows the register at once: default status, marks by GR number")
    func attendanceApplier() async throws {
        let server = FakeSyncServer()
        await server.serverUpsert("class", "c1", ["id": "c1", "code": "5A", "name": "Grade 5 A"])
        await server.serverUpsert("student", "s1", ["id": "s1", "grNumber": "101", "name": "Amna", "classId": "c1", "status": "ACTIVE"])
        await server.serverUpsert("student", "s2", ["id": "s2", "grNumber": "102", "name": "Badr", "classId": "c1", "status": "ACTIVE"])
        await server.serverUpsert("student", "s3", ["id": "s3", "grNumber": "201", "name": "Other", "classId": "c2", "status": "ACTIVE"])
        let client = SyncClient(store: try ClientStore(path: nil), transport: server, clock: TestClock())
        try await client.signIn(identifier: "t", password: "p")
        try await client.sync()
        try await client.enqueue(name: "attendance.take@1", args: [
            "classCode": "5A", "date": "2026-11-24", "marks": [["student": "102", "status": "ABSENT"]],
        ])
        let records = try await client.entities("attendance.record")
        let statuses = Dictionary(uniqueKeysWithValues: records.compactMap { record in record.data["studentId"]?.string.map { ($0, record.data["status"]) } })
        #expect(statuses == ["s1": .string("PRESENT"), "s2": .string("ABSENT")])
        #expect(records.allSatisfy { $0.pending && $0.data["date"] == .string("2026-11-24") })
        await #expect(throws: ClientError.unknownStudent("999")) {
            try await client.enqueue(name: "attendance.take@1", args: ["classCode": "5A", "marks": [["student": "999", "status": "LATE"]]])
        }
        #expect(try await client.outbox().count == 1, "the refused register queued nothing")
    }

    @Test("messages.send@1 appends the message to its conversation, pending, keyed by the client id")
    func messageApplier() async throws {
        let server = FakeSyncServer()
        let client = SyncClient(store: try ClientStore(path: nil), transport: server, clock: TestClock())
        try await client.signIn(identifier: "t", password: "p")
        try await client.enqueue(name: "messages.send@1", args: ["conversation": "conv-1", "body": "Hello", "clientId": "m-1"])
        let messages = try await client.entities("message")
        #expect(messages.count == 1 && messages[0].pending)
        #expect(messages[0].data["conversationId"] == .string("conv-1") && messages[0].data["clientId"] == .string("m-1"))
        #expect(messages[0].data["senderId"] == .string("teacher-1"))
    }

    @Test("the store keeps the outbox across a restart of the app")
    func survivesRestart() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "hogwarts-client-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appending(path: "client.sqlite").path
        let server = FakeSyncServer()
        do {
            let client = try await makeClient(server, store: try ClientStore(path: path))
            try await client.enqueue(name: "item.set@1", args: set("a", "1"))
        }
        let reopened = SyncClient(store: try ClientStore(path: path), transport: server, clock: TestClock(), appliers: itemAppliers)
        #expect(try await reopened.outbox().map(\.seq) == [1])
        try await reopened.sync()
        #expect(await server.applied.map(\.seq) == [1])
    }
}
