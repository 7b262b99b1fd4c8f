import Core
import Foundation
import HogwartsTestSupport
import Testing

/// The pull half: changes in the caller's scope only, in seq order, gap-free, every write path
/// recorded, resets when the cursor or the scope no longer holds.
@Suite("Sync pull")
struct SyncPullTests {
    let harness: TestHarness
    let sync: SyncDriver
    let client = "6f1c1b1e-1d2a-4c3b-8a4d-000000000002"

    init() throws {
        harness = try TestHarness(modules: [MemoModule()])
        sync = SyncDriver(harness: harness)
    }

    private var teacher: Principal { harness.user(.teacher) }

    private func teach(_ classId: String, _ teaches: Bool = true, teacher: Principal? = nil) throws {
        try harness.run(Teach.self, .init(teacher: (teacher ?? self.teacher).userID, classId: classId, teaches: teaches), as: .admin)
    }

    @Test("a write through the CLI path (Kernel.run, no sync push) shows up in pull, with its version")
    func cliWriteAppears() throws {
        try teach("c1")
        try harness.kernel.run(AddMemo.self, .init(id: "cli", body: "from the terminal", classId: "c1"), as: .localOperator, in: harness.school.id)
        let changes = try sync.pullAll(client, as: teacher).changes
        #expect(changes.count == 1)
        #expect(changes.first?.op == .upsert)
        guard case .object(let data)? = changes.first?.data else {
            Issue.record("no data")
            return
        }
        #expect(data["body"] == "from the terminal")
        #expect(data["version"] == .int(changes[0].seq))
    }

    @Test("a school records changes from its first device's snapshot on: what came before is in the snapshot, what comes after in the pull")
    func recordingStartsWithTheFirstDevice() throws {
        let quiet = try harness.kernel.createSchool(NewSchool(slug: "no-devices", name: LocalizedText(ar: "بلا أجهزة", en: "No devices")))
        let admin = harness.user(.admin, in: quiet)
        let quietTeacher = harness.user(.teacher, in: quiet)
        try harness.kernel.run(Teach.self, .init(teacher: quietTeacher.userID, classId: "c1", teaches: true), as: admin, in: quiet.id)
        try harness.kernel.run(AddMemo.self, .init(id: "before", body: "x", classId: "c1"), as: admin, in: quiet.id)
        // The first pull activates the school; with no cursor it would read a log that misses
        // "before", so it answers a reset (never a silently partial replica).
        guard case .reset(let reason) = try harness.kernel.syncPull(clientID: nil, cursor: nil, as: quietTeacher, in: quiet.id) else {
            Issue.record("a pull without a cursor from a log that starts late must reset")
            return
        }
        #expect(reason == .cursorExpired)

        let snapshot = try harness.kernel.syncSnapshot(after: nil, as: quietTeacher, in: quiet.id)
        #expect(snapshot.items.map(\.id) == ["before"])
        try harness.kernel.run(AddMemo.self, .init(id: "after", body: "y", classId: "c1"), as: admin, in: quiet.id)
        #expect(try sync.pullAll(nil, from: snapshot.cursor, as: quietTeacher, in: quiet).changes.map(\.id) == ["after"])
    }

    @Test("a write that changes nothing a client sees records nothing")
    func invisibleWriteRecordsNothing() throws {
        try teach("c1")
        try harness.run(AddMemo.self, .init(id: "t", body: "same", classId: "c1"), as: .admin)
        let before = try sync.pullAll(client, as: teacher)
        try harness.run(TouchMemo.self, .init(id: "t"), as: .admin)
        try harness.run(AddMemo.self, .init(id: "t", body: "same", classId: "c1"), as: .admin)
        #expect(try sync.pullAll(client, from: before.cursor, as: teacher).changes.isEmpty)
    }

    @Test("a delete reaches the keys that saw the entity; moving it to another class deletes it from the old one")
    func deletesAndMoves() throws {
        try teach("c1")
        try harness.run(AddMemo.self, .init(id: "mv", body: "x", classId: "c1"), as: .admin)
        let start = try sync.pullAll(client, as: teacher)
        #expect(start.changes.map(\.op) == [.upsert])
        try harness.run(AddMemo.self, .init(id: "mv", body: "x", classId: "c2"), as: .admin)
        let moved = try sync.pullAll(client, from: start.cursor, as: teacher)
        #expect(moved.changes.map(\.op) == [.delete])
        #expect(moved.changes.first?.data == nil)

        try harness.run(AddMemo.self, .init(id: "gone", body: "x", classId: "c1"), as: .admin)
        try harness.run(RemoveMemo.self, .init(id: "gone"), as: .admin)
        let removed = try sync.pullAll(client, from: moved.cursor, as: teacher)
        #expect(removed.changes.map(\.op) == [.upsert, .delete])
        #expect(removed.changes.map(\.id) == ["gone", "gone"])
    }

    @Test("paging at exactly the limit with fan-out to several keys: no duplicate, no gap, cursor monotonic", arguments: [5, 6, 7])
    func pagingAtLimit(limit: Int) throws {
        try teach("c1")
        try teach("c2")
        // Each memo goes to its class and to its author (the teacher): two keys the teacher holds.
        let mutations = (1...12).map { sync.memo($0, String(format: "pg%02d", $0), classId: $0 % 2 == 0 ? "c1" : "c2") }
        _ = try sync.push(client, mutations)
        var cursor: String?
        var seen: [Int] = []
        var pages = 0
        while true {
            guard case .changes(let page, let next, let hasMore, let last) = try harness.kernel.syncPull(
                clientID: client, cursor: cursor, limit: limit, as: teacher, in: harness.school.id) else {
                Issue.record("unexpected reset")
                return
            }
            #expect(page.count <= limit)
            #expect(last == 12)
            seen += page.map(\.seq)
            pages += 1
            cursor = next
            if !hasMore { break }
        }
        #expect(seen == seen.sorted())
        #expect(Set(seen).count == 12)
        #expect(seen.count == 12)
        #expect(pages == (12 + limit - 1) / limit + (12 % limit == 0 ? 1 : 0) || pages == (12 + limit - 1) / limit)
        // Nothing new: the cursor stays valid and the page is empty.
        guard case .changes(let empty, _, let more, _) = try harness.kernel.syncPull(clientID: client, cursor: cursor, limit: limit, as: teacher,
                                                                                     in: harness.school.id) else {
            Issue.record("unexpected reset")
            return
        }
        #expect(empty.isEmpty)
        #expect(!more)
    }

    @Test("a cursor older than the retained history answers reset: cursorExpired")
    func expiredCursor() throws {
        try teach("c1")
        let start = try sync.pullAll(client, as: teacher)
        _ = try sync.push(client, (1...3).map { sync.memo($0, "e\($0)") })
        try harness.kernel.pruneSyncChanges(in: harness.school.id, through: 3)
        guard case .reset(let reason) = try harness.kernel.syncPull(clientID: client, cursor: start.cursor, as: teacher, in: harness.school.id) else {
            Issue.record("expected a reset")
            return
        }
        #expect(reason == .cursorExpired)
        guard case .reset = try harness.kernel.syncPull(clientID: client, cursor: nil, as: teacher, in: harness.school.id) else {
            Issue.record("without a cursor, a pruned log's beginning is gone too: reset")
            return
        }
    }

    @Test("a teacher who loses a class gets reset: scopeChanged, then no more of that class")
    func teacherLosesClass() throws {
        try teach("c1")
        try teach("c2")
        try harness.run(AddMemo.self, .init(id: "kept", body: "x", classId: "c1"), as: .admin)
        try harness.run(AddMemo.self, .init(id: "lost", body: "x", classId: "c2"), as: .admin)
        let before = try sync.pullAll(client, as: teacher)
        #expect(Set(before.changes.map(\.id)) == ["kept", "lost"])

        try teach("c2", false)
        guard case .reset(let reason) = try harness.kernel.syncPull(clientID: client, cursor: before.cursor, as: teacher, in: harness.school.id) else {
            Issue.record("expected a reset")
            return
        }
        #expect(reason == .scopeChanged)

        let snapshot = try harness.kernel.syncSnapshot(after: nil, as: teacher, in: harness.school.id)
        #expect(snapshot.items.map(\.id) == ["kept"])
        try harness.run(AddMemo.self, .init(id: "lost-2", body: "x", classId: "c2"), as: .admin)
        try harness.run(AddMemo.self, .init(id: "kept-2", body: "x", classId: "c1"), as: .admin)
        let after = try sync.pullAll(client, from: snapshot.cursor, as: teacher)
        #expect(after.changes.map(\.id) == ["kept-2"])
    }

    @Test("a module switched off for the school: the next pull resets, its records stop flowing; switched on again, they return")
    func moduleSwitchedOff() throws {
        try teach("c1")
        try harness.run(AddMemo.self, .init(id: "m1", body: "x", classId: "c1"), as: .admin)
        let before = try sync.pullAll(client, as: teacher)
        #expect(before.changes.map(\.id) == ["m1"])

        try harness.kernel.disable("memo", for: harness.school.id, cascade: true, by: .localOperator)
        guard case .reset(let reason) = try harness.kernel.syncPull(clientID: client, cursor: before.cursor, as: teacher, in: harness.school.id) else {
            Issue.record("expected a reset")
            return
        }
        #expect(reason == .scopeChanged)
        let off = try harness.kernel.syncSnapshot(after: nil, as: teacher, in: harness.school.id)
        #expect(off.items.isEmpty)
        #expect(try sync.pullAll(client, as: teacher).changes.isEmpty, "a pull from the start delivers nothing of a module that is off")

        try harness.kernel.enable("memo", for: harness.school.id, by: .localOperator)
        guard case .reset = try harness.kernel.syncPull(clientID: client, cursor: off.cursor, as: teacher, in: harness.school.id) else {
            Issue.record("expected a reset when the module comes back")
            return
        }
        #expect(try harness.kernel.syncSnapshot(after: nil, as: teacher, in: harness.school.id).items.map(\.id) == ["m1"])
    }

    @Test("no change crosses schools, and a cursor from one school is refused in another")
    func schoolsAreSeparate() throws {
        let other = try harness.makeSchool("other-school")
        let otherTeacher = harness.user(.teacher, in: other)
        try teach("c1")
        try harness.kernel.run(Teach.self, .init(teacher: otherTeacher.userID, classId: "c1", teaches: true), as: harness.user(.admin, in: other), in: other.id)
        try harness.run(AddMemo.self, .init(id: "here", body: "x", classId: "c1"), as: .admin)
        try harness.kernel.run(AddMemo.self, .init(id: "there", body: "y", classId: "c1"), as: harness.user(.admin, in: other), in: other.id)

        #expect(try sync.pullAll(nil, as: teacher).changes.map(\.id) == ["here"])
        let theirs = try sync.pullAll(nil, as: otherTeacher, in: other)
        #expect(theirs.changes.map(\.id) == ["there"])
        #expect(try harness.kernel.syncSnapshot(after: nil, as: otherTeacher, in: other.id).items.map(\.id) == ["there"])
        #expect(throws: SyncError.cursorInvalid) {
            try harness.kernel.syncPull(clientID: nil, cursor: theirs.cursor, as: teacher, in: harness.school.id)
        }
        // A token of one school never reads another's changes.
        #expect(throws: KernelError.self) { try harness.kernel.syncPull(clientID: nil, cursor: nil, as: teacher, in: other.id) }
    }

    @Test("a snapshot pages through everything in scope and hands over a cursor that misses nothing written meanwhile")
    func snapshotThenPull() throws {
        try teach("c1")
        for index in 1...7 { try harness.run(AddMemo.self, .init(id: "s\(index)", body: "x", classId: "c1"), as: .admin) }
        try harness.run(AddMemo.self, .init(id: "elsewhere", body: "x", classId: "c9"), as: .admin)
        var after: String?
        var ids: [String] = []
        var cursor: String?
        repeat {
            let page = try harness.kernel.syncSnapshot(after: after, limit: 3, as: teacher, in: harness.school.id)
            #expect(page.items.count <= 3)
            if let cursor { #expect(page.cursor == cursor) }
            cursor = page.cursor
            ids += page.items.map(\.id)
            after = page.after
            if ids.count == 3 { try harness.run(AddMemo.self, .init(id: "s8", body: "late", classId: "c1"), as: .admin) }
        } while after != nil
        #expect(Set(ids).isSuperset(of: (1...7).map { "s\($0)" }))
        #expect(!ids.contains("elsewhere"))
        let pulled = try sync.pullAll(nil, from: cursor, as: teacher)
        #expect(pulled.changes.map(\.id).contains("s8"))
    }

    @Test("the routes answer camelCase JSON with an opaque cursor, and 400 for a cursor that is not one")
    func routes() async throws {
        try teach("c1")
        try harness.run(AddMemo.self, .init(id: "api", body: "x", classId: "c1"), as: .admin)
        let teacher = teacher
        let client = client
        let (pull, snapshot, bad) = try await harness.api { api in
            (try await api.get("/api/v1/sync/pull?clientId=\(client)&limit=10", as: teacher),
             try await api.get("/api/v1/sync/snapshot?limit=10", as: teacher),
             try await api.get("/api/v1/sync/pull?clientId=\(client)&cursor=nonsense", as: teacher))
        }
        #expect(pull.status == 200)
        let changes = pull.object["changes"] as? [[String: Any]] ?? []
        #expect(changes.first?["type"] as? String == "memo.item")
        #expect((changes.first?["data"] as? [String: Any])?["classId"] as? String == "c1")
        #expect(pull.object["hasMore"] as? Bool == false)
        #expect(pull.object["lastMutationSeq"] as? Int == 0)
        #expect(snapshot.status == 200)
        #expect((snapshot.object["items"] as? [[String: Any]])?.count == 1)
        #expect(snapshot.object["after"] is NSNull)
        #expect(bad.status == 400)
        #expect(bad.code == "SYNC_CURSOR_INVALID")
    }
}
