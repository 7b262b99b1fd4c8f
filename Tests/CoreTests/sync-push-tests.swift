import Core
import Foundation
import HogwartsTestSupport
import Testing

/// The push half of offline sync: each client's mutations apply exactly once, in order, with
/// rejections that never block the queue and transient failures that keep nothing.
@Suite("Sync push")
struct SyncPushTests {
    let harness: TestHarness
    let sync: SyncDriver
    let client = "6f1c1b1e-1d2a-4c3b-8a4d-000000000001"

    init() throws {
        harness = try TestHarness(modules: [MemoModule()])
        sync = SyncDriver(harness: harness)
    }

    private var teacher: Principal { harness.user(.teacher) }

    @Test("the same batch pushed three times has one effect, one ledger entry each and one change set; the copies answer duplicate")
    func repeatedBatch() throws {
        let batch = [sync.memo(1, "m1"), sync.memo(2, "m2")]
        let first = try sync.push(client, batch)
        #expect(first.results.map(\.status) == [.applied, .applied])
        #expect(first.results.first?.result == .object(["id": "m1"]))
        for _ in 0..<2 {
            let again = try sync.push(client, batch)
            #expect(again.results.map(\.status) == [.duplicate, .duplicate])
            #expect(again.results.first?.result == .object(["id": "m1"]))
            #expect(again.lastMutationSeq == 2)
        }
        #expect(try sync.memoCount("m1") == 1)
        let pulled = try sync.pullAll(client, as: teacher)
        #expect(pulled.changes.map(\.id) == ["m1", "m2"])
        #expect(pulled.lastMutationSeq == 2)
    }

    @Test("a reply lost after the commit: the retry answers duplicate and a pull confirms the seq")
    func faultAfterCommit() throws {
        _ = try sync.push(client, [sync.memo(1, "lost-reply")])
        // The client never saw that answer: it pulls, then sends the same mutation again.
        let pulled = try sync.pullAll(client, as: teacher)
        #expect(pulled.lastMutationSeq == 1)
        let retry = try sync.push(client, [sync.memo(1, "lost-reply")])
        #expect(retry.results.map(\.status) == [.duplicate])
        #expect(try sync.memoCount("lost-reply") == 1)
    }

    @Test("a crash before the commit keeps nothing; the retry applies once")
    func crashBeforeCommit() throws {
        memoCrashes.withLock { _ = $0.insert("crash-1") }
        #expect(throws: SyncError.self) { try sync.push(client, [sync.memo(1, "crash-1")]) }
        #expect(try sync.memoCount("crash-1") == 0)
        let nothing = try sync.pullAll(client, as: teacher)
        #expect(nothing.changes.isEmpty)
        #expect(nothing.lastMutationSeq == 0)

        let retry = try sync.push(client, [sync.memo(1, "crash-1")])
        #expect(retry.results.map(\.status) == [.applied])
        #expect(try sync.memoCount("crash-1") == 1)
        #expect(try sync.pullAll(client, as: teacher).changes.map(\.id) == ["crash-1"])
    }

    @Test("a transient failure answers 503 with Retry-After over HTTP")
    func transientOverHTTP() async throws {
        memoCrashes.withLock { _ = $0.insert("crash-http") }
        let teacher = teacher
        let client = client
        let response = try await harness.api { api in
            try await api.post("/api/v1/sync/push", as: teacher, json: [
                "clientId": client, "schemaVersion": 1,
                "mutations": [["seq": 1, "id": "00000000-0000-4000-8000-000000000001", "name": "memo.add@1",
                               "args": ["id": "crash-http", "body": "x", "classId": "c1"]]],
            ])
        }
        #expect(response.status == 503)
        #expect(response.headers["Retry-After"] == "2" || response.headers["retry-after"] == "2")
        #expect(response.code == "SYNC_UNAVAILABLE")
    }

    @Test("seq 3 before 2 stops the batch with the expected seq and applies nothing; then 2 and 3 apply in order")
    func outOfOrder() throws {
        _ = try sync.push(client, [sync.memo(1, "a")])
        let gap = try sync.push(client, [sync.memo(3, "c")])
        #expect(gap.results.isEmpty)
        #expect(gap.stopped?.expectedSeq == 2)
        #expect(gap.stopped?.reason == "outOfOrder")
        #expect(try sync.memoCount("c") == 0)

        let ordered = try sync.push(client, [sync.memo(2, "b"), sync.memo(3, "c")])
        #expect(ordered.results.map(\.status) == [.applied, .applied])
        #expect(ordered.lastMutationSeq == 3)
        #expect(try sync.pullAll(client, as: teacher).changes.map(\.id) == ["a", "b", "c"])
    }

    @Test("a batch with a gap in the middle applies up to the gap and says where it stopped")
    func gapInsideBatch() throws {
        let response = try sync.push(client, [sync.memo(1, "one"), sync.memo(2, "two"), sync.memo(4, "four")])
        #expect(response.results.map(\.seq) == [1, 2])
        #expect(response.stopped?.expectedSeq == 3)
        #expect(try sync.memoCount("four") == 0)
    }

    @Test("parallel pushes of the same batch from one client apply it exactly once")
    func parallelDuplicates() async throws {
        let batch = (1...5).map { sync.memo($0, "p\($0)") }
        let driver = sync
        let client = client
        let responses = try await withThrowingTaskGroup(of: SyncPushResponse.self) { group in
            for _ in 0..<6 { group.addTask { try driver.push(client, batch) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for seq in 1...5 {
            let statuses = responses.compactMap { $0.results.first { $0.seq == seq }?.status }
            #expect(statuses.filter { $0 == .applied }.count == 1, "seq \(seq): \(statuses)")
        }
        for seq in 1...5 { #expect(try sync.memoCount("p\(seq)") == 1) }
        let changes = try sync.pullAll(client, as: teacher).changes
        #expect(changes.map(\.id) == ["p1", "p2", "p3", "p4", "p5"])
    }

    @Test("a new client's first push sent several times at once binds the client once and applies once")
    func parallelFirstPushes() async throws {
        _ = try sync.push(client, [sync.memo(1, "warm")])  // the school's sync is active: nothing else staggers the pushes
        let driver = sync
        for number in 2...9 {
            let newcomer = "6f1c1b1e-1d2a-4c3b-8a4d-00000000000\(number)"
            let responses = try await withThrowingTaskGroup(of: SyncPushResponse.self) { group in
                for _ in 0..<4 { group.addTask { try driver.push(newcomer, [driver.memo(1, "first-\(number)")]) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(responses.flatMap(\.results).filter { $0.status == .applied }.count == 1, "client \(number)")
            #expect(try sync.memoCount("first-\(number)") == 1)
        }
    }

    @Test("a rejected seq 5 is reported with its code and reason and does not block seq 6")
    func rejectionDoesNotBlock() throws {
        let first = (1...4).map { sync.memo($0, "r\($0)") }
        _ = try sync.push(client, first)
        let response = try sync.push(client, [sync.memo(5, "r5", body: "a forbidden word"), sync.memo(6, "r6")])
        #expect(response.results.map(\.status) == [.rejected, .applied])
        #expect(response.results.first?.code == "MEMO_FORBIDDEN_WORD")
        #expect(response.results.first?.error == "That word is not allowed")
        #expect(response.lastMutationSeq == 6)
        #expect(try sync.memoCount("r5") == 0)
        // Its copy answers the stored rejection; the manual retry is a new seq.
        let copy = try sync.push(client, [sync.memo(5, "r5", body: "a forbidden word")])
        #expect(copy.results.first?.status == .duplicate)
        #expect(copy.results.first?.code == "MEMO_FORBIDDEN_WORD")
        let retry = try sync.push(client, [sync.memo(7, "r5", body: "fixed")])
        #expect(retry.results.map(\.status) == [.applied])
    }

    @Test("a conflict is rejected with the server's current value")
    func conflictCarriesCurrent() throws {
        try harness.run(AddMemo.self, .init(id: "shared", body: "the office's text", classId: "c1"), as: .admin)
        let response = try sync.push(client, [sync.memo(1, "shared", body: "my offline text")])
        #expect(response.results.first?.status == .rejected)
        #expect(response.results.first?.code == "MEMO_EXISTS")
        guard case .object(let current)? = response.results.first?.current else {
            Issue.record("no current value")
            return
        }
        #expect(current["body"] == "the office's text")
    }

    @Test("a forbidden mutation is rejected, not retried for ever")
    func forbiddenIsRejected() throws {
        let response = try sync.push("6f1c1b1e-1d2a-4c3b-8a4d-0000000000aa", [sync.memo(1, "g1")], as: .guardian)
        #expect(response.results.map(\.status) == [.rejected])
        #expect(response.results.first?.code == "KERNEL_PERMISSION_DENIED")
        #expect(response.lastMutationSeq == 1)
    }

    @Test("a seq reused with another mutation id is refused; an unknown mutation answers mutationUnknown")
    func protocolErrors() throws {
        _ = try sync.push(client, [sync.memo(1, "x")])
        #expect(throws: SyncError.seqReused(1)) {
            try sync.push(client, [sync.memo(1, "x", uuid: "00000000-0000-4000-8000-999999999999")])
        }
        #expect(throws: SyncError.mutationUnknown("memo.add@9")) {
            try sync.push(client, [SyncPushMutation(seq: 2, id: UUID().uuidString.lowercased(), name: "memo.add@9", args: [:])])
        }
        #expect(throws: SyncError.clientIDInvalid("NOT-A-UUID")) { try sync.push("NOT-A-UUID", [sync.memo(1, "y")]) }
    }

    @Test("a client id is bound to its first user: another user's push with it is refused")
    func clientBinding() throws {
        _ = try sync.push(client, [sync.memo(1, "mine")])
        #expect(throws: SyncError.clientForeign) { try sync.push(client, [sync.memo(2, "theirs")], as: .admin) }
        #expect(throws: SyncError.clientForeign) {
            try harness.kernel.syncPull(clientID: client, cursor: nil, as: harness.user(.admin), in: harness.school.id)
        }
    }

    @Test("unknown mutations answer 426 over HTTP, with nothing applied from them on")
    func unknownOverHTTP() async throws {
        let teacher = teacher
        let client = client
        let response = try await harness.api { api in
            try await api.post("/api/v1/sync/push", as: teacher, json: [
                "clientId": client, "schemaVersion": 1,
                "mutations": [["seq": 1, "id": "00000000-0000-4000-8000-000000000001", "name": "memo.add@1", "args": ["id": "h1", "body": "x", "classId": "c1"]],
                              ["seq": 2, "id": "00000000-0000-4000-8000-000000000002", "name": "memo.add@2", "args": ["id": "h2", "body": "x", "classId": "c1"]]],
            ])
        }
        #expect(response.status == 426)
        #expect(response.code == "SYNC_MUTATION_UNKNOWN")
        #expect(try sync.memoCount("h1") == 1)
        #expect(try sync.memoCount("h2") == 0)
    }
}
