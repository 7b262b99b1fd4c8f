import Foundation
import HogwartsClient
import Testing

@Suite("Outbox against a fake server")
struct ClientOutboxTests {
    @Test("queued while offline, sent in the order written, shown at once")
    func fifo() async throws {
        let server = FakeSyncServer()
        let client = try await makeClient(server)
        for (key, value) in [("a", "1"), ("b", "2"), ("a", "3")] { try await client.enqueue(name: "item.set@1", args: set(key, value)) }
        #expect(try await client.entities("item").map(\.data["value"]) == [.string("3"), .string("2")], "optimistic effects before any sync")
        #expect(try await client.entities("item").allSatisfy(\.pending))
        let report = try await client.sync()
        #expect(report.acknowledged == 3 && report.pending == 0)
        #expect(await server.applied.map(\.seq) == [1, 2, 3])
        #expect(await server.entity("a")?["value"] == .string("3"))
        let items = try await client.entities("item")
        #expect(items.map(\.data["value"]) == [.string("3"), .string("2")] && items.allSatisfy { !$0.pending }, "confirmed by the pull")
    }

    @Test("a long queue goes in batches of at most 100")
    func batches() async throws {
        let server = FakeSyncServer()
        let client = try await makeClient(server)
        for index in 0..<250 { try await client.enqueue(name: "item.set@1", args: set("k\(index % 7)", "\(index)")) }
        try await client.sync()
        #expect(await server.pushes.map(\.mutations.count) == [100, 100, 50])
        #expect(await server.applied.map(\.seq) == Array(1...250))
    }

    @Test("a busy server: retried after 1, 2 and 4 s, then the head waits; the next sync resumes it")
    func retrySchedule() async throws {
        let server = FakeSyncServer()
        let clock = TestClock()
        let client = try await makeClient(server, clock: clock)
        try await client.enqueue(name: "item.set@1", args: set("a", "1"))
        try await client.enqueue(name: "item.set@1", args: set("b", "2"))
        await server.setBusy(10)
        let report = try await client.sync()
        #expect(clock.waits == [1, 2, 4])
        #expect(report.waiting?.seq == 1 && report.waitingReason?.contains("503") == true)
        let outbox = try await client.outbox()
        #expect(outbox.map(\.seq) == [1, 2] && outbox.first?.state == .waiting && outbox.first?.attempts == 4)
        #expect(await server.applied.isEmpty)

        await server.setBusy(0)
        let resumed = try await client.networkRestored()
        #expect(resumed.waiting == nil && resumed.pending == 0)
        #expect(await server.applied.map(\.seq) == [1, 2])
    }

    @Test("a busy server's Retry-After is honoured (503 and 429), never shortens the schedule, and is capped at 5 minutes")
    func retryAfter() async throws {
        let server = FakeSyncServer()
        let clock = TestClock()
        let client = try await makeClient(server, clock: clock)
        try await client.enqueue(name: "item.set@1", args: set("a", "1"))
        await server.setBusy(2, retryAfter: "30")
        try await client.sync()
        #expect(clock.waits == [30, 30])
        #expect(await server.applied.map(\.seq) == [1])

        try await client.enqueue(name: "item.set@1", args: set("b", "2"))
        await server.setBusy(3, retryAfter: "0", status: 429)
        try await client.sync()
        #expect(clock.waits == [30, 30, 1, 2, 4])
        #expect(await server.applied.map(\.seq) == [1, 2])

        try await client.enqueue(name: "item.set@1", args: set("c", "3"))
        await server.setBusy(1, retryAfter: "86400")
        try await client.sync()
        #expect(clock.waits.last == 300)
        #expect(await server.applied.map(\.seq) == [1, 2, 3])
    }

    @Test("no network at all: the same schedule, nothing lost")
    func offline() async throws {
        let server = FakeSyncServer()
        let clock = TestClock()
        let client = try await makeClient(server, clock: clock)
        try await client.enqueue(name: "item.set@1", args: set("a", "1"))
        await server.setOffline(100)
        let report = try await client.sync()
        #expect(clock.waits == [1, 2, 4] && report.waiting?.seq == 1)
        #expect(report.pullError != nil, "the pull fails too, and says so")
        #expect(try await client.entities("item").first?.data["value"] == .string("1"), "the replica still shows the change")
        await server.setOffline(0)
        try await client.sync()
        #expect(await server.applied.map(\.seq) == [1])
    }

    @Test("a transient failure retries without a second sleep once it succeeds")
    func oneFailure() async throws {
        let server = FakeSyncServer()
        let clock = TestClock()
        let client = try await makeClient(server, clock: clock)
        try await client.enqueue(name: "item.set@1", args: set("a", "1"))
        await server.setBusy(1)
        let report = try await client.sync()
        #expect(clock.waits == [1] && report.waiting == nil && report.acknowledged == 1)
    }

    @Test("a rejection does not block what follows; it is listed with the server's code and reason")
    func rejectionDoesNotBlock() async throws {
        let server = FakeSyncServer()
        let client = try await makeClient(server)
        try await client.enqueue(name: "item.set@1", args: set("a", "1"))
        try await client.enqueue(name: "item.refuse@1", args: ["anything": true])
        try await client.enqueue(name: "item.set@1", args: set("b", "2"))
        let report = try await client.sync()
        #expect(report.rejected.map(\.seq) == [2] && report.pending == 0)
        #expect(await server.applied.map(\.seq) == [1, 3])
        let failed = try await client.failed()
        #expect(failed.count == 1 && failed[0].code == "ITEM_REFUSED" && failed[0].message == "refused by the fake server")
        #expect(failed[0].current?["value"] == .string("server"))
    }

    @Test("retrying a failed mutation queues it at the tail with a new seq")
    func manualRetry() async throws {
        let server = FakeSyncServer()
        let client = try await makeClient(server)
        try await client.enqueue(name: "item.refuse@1", args: ["n": 1])
        try await client.enqueue(name: "item.set@1", args: set("a", "1"))
        try await client.sync()
        try await client.enqueue(name: "item.set@1", args: set("b", "2"))
        try await client.retry(seq: 1)
        let outbox = try await client.outbox()
        #expect(outbox.map(\.seq) == [3, 4] && outbox.last?.name == "item.refuse@1")
        #expect(try await client.failed().isEmpty)
        let report = try await client.sync()
        #expect(report.rejected.map(\.seq) == [4])
        #expect(await server.lastSeq(of: try await client.clientID()) == 4)
        await #expect(throws: ClientError.notInOutbox(99)) { try await client.retry(seq: 99) }
    }

    @Test("an answer lost after the server applied: the resend is a duplicate, applied once")
    func lostAnswer() async throws {
        let server = FakeSyncServer()
        let clock = TestClock()
        let client = try await makeClient(server, clock: clock)
        try await client.enqueue(name: "item.set@1", args: set("a", "1"))
        try await client.enqueue(name: "item.set@1", args: set("a", "2"))
        await server.setLoseAnswers(1)
        let report = try await client.sync()
        #expect(clock.waits == [1] && report.acknowledged == 2 && report.pending == 0)
        #expect(await server.applied.map(\.seq) == [1, 2], "applied once, not twice")
        #expect(await server.pushCount() == 2)
    }

    @Test("every answer lost: the pull's lastMutationSeq acknowledges them")
    func pullAcknowledges() async throws {
        let server = FakeSyncServer()
        let client = try await makeClient(server)
        try await client.enqueue(name: "item.set@1", args: set("a", "1"))
        await server.setLoseAnswers(4)
        let report = try await client.sync()
        #expect(report.waiting?.seq == 1, "the push gave up waiting")
        #expect(try await client.outbox().isEmpty, "but the pull said the server has it")
        #expect(try await client.lastAcknowledgedSeq() == 1)
        #expect(await server.applied.count == 1)
    }

    @Test("an expired access token is refreshed once and the request resent")
    func tokenRefresh() async throws {
        let server = FakeSyncServer()
        let client = try await makeClient(server)
        try await client.enqueue(name: "item.set@1", args: set("a", "1"))
        await server.expireTokens()
        let report = try await client.sync()
        #expect(report.acknowledged == 1)
        #expect(await server.requests.filter { $0.method == "PUT" && $0.path == "/api/mobile/auth" }.count == 1)
    }

    @Test("an applier that refuses the input queues nothing")
    func enqueueIsAtomic() async throws {
        let server = FakeSyncServer()
        let client = try await makeClient(server)
        await #expect(throws: ClientError.self) { try await client.enqueue(name: "item.set@1", args: ["value": "no key"]) }
        #expect(try await client.outbox().isEmpty)
        #expect(try await client.entities("item").isEmpty)
        let seq = try await client.enqueue(name: "item.set@1", args: set("a", "1"))
        #expect(seq == 1, "the refused one used no sequence number")
    }

    @Test("a mutation with no local applier is queued and shows once the server has it")
    func unknownMutation() async throws {
        let server = FakeSyncServer()
        let client = SyncClient(store: try ClientStore(path: nil), transport: server, clock: TestClock(), appliers: LocalAppliers())
        try await client.signIn(identifier: "t", password: "p")
        try await client.enqueue(name: "item.set@1", args: set("a", "1"))
        #expect(try await client.entities("item").isEmpty)
        try await client.sync()
        #expect(try await client.entities("item").map(\.data["value"]) == [.string("1")])
    }
}
