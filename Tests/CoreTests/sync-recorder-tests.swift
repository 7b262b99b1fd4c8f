@testable import Core
import Foundation
import HogwartsTestSupport
import Testing

/// The recorder works through a transaction's changes a chunk of ids at a time: a write larger
/// than a chunk must still record each change once, under consecutive seqs, with its payload.
@Suite("Sync recorder")
struct SyncRecorderTests {
    let harness: TestHarness
    let sync: SyncDriver

    init() throws {
        harness = try TestHarness(modules: [MemoModule()])
        sync = SyncDriver(harness: harness)
    }

    private var teacher: Principal { harness.user(.teacher) }

    /// Runs `work` as one write transaction through the kernel's store, so the recorder wraps it as it wraps every write.
    private func write(_ work: (any StorageConnection) throws -> Void) throws {
        try harness.kernel.store.write(work)
    }

    private func memoID(_ index: Int) -> String { String(format: "bulk%05d", index) }

    @Test("a write of more records than a chunk records each change once, under consecutive seqs, with its payload; a record written back to what was recorded records nothing",
          arguments: [ChangeRecorder.chunkSize, 2 * ChangeRecorder.chunkSize + 7])
    func writeLargerThanAChunk(count: Int) throws {
        try harness.run(Teach.self, .init(teacher: teacher.userID, classId: "c1", teaches: true), as: .admin)
        let school = harness.school.id
        let start = try sync.pullAll(nil, as: teacher)

        // One transaction inserts every memo: one upsert each, in one run of seqs.
        try write { db in
            for index in 0..<count {
                try db.execute(sql: "INSERT INTO memo_items (school_id, id, body, author, class_id) VALUES (?, ?, ?, ?, ?)",
                               arguments: [school, memoID(index), "v\(index)", teacher.userID, "c1"])
            }
        }
        let inserted = try sync.pullAll(nil, from: start.cursor, as: teacher)
        #expect(inserted.changes.count == count)
        #expect(Set((0..<count).map(memoID)).subtracting(inserted.changes.map(\.id)).isEmpty, "every memo recorded")
        #expect(inserted.changes.allSatisfy { $0.op == .upsert })
        let seqs = inserted.changes.map(\.seq)
        #expect(seqs == Array((seqs.first ?? 0)..<((seqs.first ?? 0) + count)), "one seq per change, none skipped, in order")
        let wrongPayloads = inserted.changes.filter { change in
            guard case .object(let data)? = change.data, let index = Int(change.id.dropFirst(4)) else { return true }
            return data["body"] != .string("v\(index)") || data["version"] != .int(change.seq)
        }
        #expect(wrongPayloads.isEmpty)

        // One transaction changes every third memo, deletes every fifth, and writes every other
        // memo away and back to what was recorded: only the real changes are recorded.
        try write { db in
            try db.execute(sql: "UPDATE memo_items SET body = 'gone for now', touched = touched + 1 WHERE school_id = ?", arguments: [school])
            for index in 0..<count {
                try db.execute(sql: "UPDATE memo_items SET body = ? WHERE school_id = ? AND id = ?",
                               arguments: [index % 3 == 0 ? "w\(index)" : "v\(index)", school, memoID(index)])
            }
            try db.execute(sql: "DELETE FROM memo_items WHERE school_id = ? AND id IN (SELECT value FROM json_each(?))",
                           arguments: [school, SyncScope.json((0..<count).filter { $0 % 5 == 0 }.map(memoID))])
        }
        let changed = try sync.pullAll(nil, from: inserted.cursor, as: teacher)
        let deleted = Set((0..<count).filter { $0 % 5 == 0 }.map(memoID))
        let rewritten = Set((0..<count).filter { $0 % 3 == 0 && $0 % 5 != 0 }.map(memoID))
        #expect(changed.changes.count == deleted.count + rewritten.count)
        #expect(deleted.subtracting(changed.changes.filter { $0.op == .delete }.map(\.id)).isEmpty, "every delete recorded")
        #expect(rewritten.subtracting(changed.changes.filter { $0.op == .upsert }.map(\.id)).isEmpty, "every real change recorded")
        let changedSeqs = changed.changes.map(\.seq)
        #expect(changedSeqs == Array((changedSeqs.first ?? 0)..<((changedSeqs.first ?? 0) + changedSeqs.count)))
        #expect(changed.changes.allSatisfy { change in
            guard change.op == .upsert else { return change.data == nil }
            guard case .object(let data)? = change.data, let index = Int(change.id.dropFirst(4)) else { return false }
            return data["body"] == .string("w\(index)")
        })

        // A write that leaves every memo as it was recorded records nothing.
        try write { db in
            try db.execute(sql: "UPDATE memo_items SET body = 'x', touched = touched + 1 WHERE school_id = ?", arguments: [school])
            try db.execute(sql: "UPDATE memo_items SET body = CASE WHEN CAST(substr(id, 5) AS INTEGER) % 3 = 0 THEN 'w' ELSE 'v' END || CAST(CAST(substr(id, 5) AS INTEGER) AS TEXT) WHERE school_id = ?",
                           arguments: [school])
        }
        #expect(try sync.pullAll(nil, from: changed.cursor, as: teacher).changes.isEmpty)
    }
}
