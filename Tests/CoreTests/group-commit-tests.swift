import Dispatch
import Foundation
import HogwartsSQLite
import GRDB
import Synchronization
import Testing
@testable import Core

/// SQLite's writers share commits (`sqlite-group-commit.swift`): proven on the engine itself,
/// with one writer holding the transaction open while others queue behind it.
@Suite("Group commit: waiting writers share one commit, each keeps its own outcome")
struct GroupCommitTests {
    @Test("writers queued behind a transaction commit together, and one that throws undoes only its own row")
    func queuedWritersShareOneCommit() throws {
        let scene = try Scene()
        scene.start("a", holdsTransaction: true)
        scene.start("b")
        scene.start("c", refuses: true)
        scene.start("d")
        scene.finish()

        #expect(scene.commits.count == 2, "a alone, then b, c and d in one transaction")
        #expect(try scene.names() == ["a", "b", "d"])
        #expect(scene.outcome("b") == "written" && scene.outcome("d") == "written")
        #expect(scene.outcome("c") == "refused c", "the refusing writer gets its own error, not the group's")
    }

    @Test("when the shared commit fails, every writer of the group is told and none of their rows exists")
    func failedCommitFailsTheWholeGroup() throws {
        let scene = try Scene()
        scene.start("a", holdsTransaction: true)
        scene.start("orphan", breaksCommit: true)
        scene.start("e")
        scene.finish()

        #expect(try scene.names() == ["a"])
        #expect(scene.outcome("orphan")?.contains("FOREIGN KEY") == true)
        #expect(scene.outcome("e")?.contains("FOREIGN KEY") == true, "e's row went with the failed commit, so e must not hear 'written'")
    }

    @Test("a writer alone commits on its own, and its error rolls its transaction back")
    func lonelyWriter() throws {
        let scene = try Scene()
        scene.start("a")
        scene.finish()
        scene.start("b", refuses: true)
        scene.finish()
        #expect(try scene.names() == ["a"])
        #expect(scene.outcome("b") == "refused b")
        #expect(scene.commits.count == 1)
    }
}

/// One database file, writers on their own threads, and what each was told.
private final class Scene: Sendable {
    let engine: SQLiteEngine
    let commits = CommitCounter()
    private let outcomes = Mutex<[String: String]>([:])
    private let writers = DispatchGroup()
    private let inside = DispatchSemaphore(value: 0)
    private let release = DispatchSemaphore(value: 0)
    /// Writers started while one holds the transaction open: they must all be queued before it ends.
    private let queuedBehind = Mutex<Int?>(nil)

    struct Refusal: Error { let name: String }

    init() throws {
        let path = FileManager.default.temporaryDirectory.appending(path: "group-commit-\(UUID().uuidString).sqlite").path
        engine = try SQLiteEngine(path: path)
        try engine.write { try $0.executeScript("CREATE TABLE marks (name TEXT PRIMARY KEY, parent TEXT REFERENCES marks(name))") }
        engine.pool.add(transactionObserver: commits)
    }

    /// Starts a writer of the row `name` on its own thread. The one that holds the transaction
    /// returns only once it is inside it, so the writers started after it queue behind it.
    func start(_ name: String, holdsTransaction: Bool = false, refuses: Bool = false, breaksCommit: Bool = false) {
        queuedBehind.withLock { count in
            if holdsTransaction { count = 0 } else if let held = count { count = held + 1 }
        }
        DispatchQueue.global().async(group: writers) { [self] in
            let outcome: String
            do {
                try engine.write { db in
                    if breaksCommit {
                        // Checked only at commit: the whole group's commit fails.
                        try db.executeScript("PRAGMA defer_foreign_keys = ON")
                        try db.execute(sql: "INSERT INTO marks (name, parent) VALUES (?, 'nobody')", arguments: [name])
                    } else {
                        try db.execute(sql: "INSERT INTO marks (name) VALUES (?)", arguments: [name])
                    }
                    if holdsTransaction {
                        inside.signal()
                        release.wait()
                    }
                    if refuses { throw Refusal(name: name) }
                }
                outcome = "written"
            } catch let refusal as Refusal {
                outcome = "refused \(refusal.name)"
            } catch {
                outcome = "\(error)"
            }
            outcomes.withLock { $0[name] = outcome }
        }
        if holdsTransaction { inside.wait() }
    }

    /// Once every writer started behind the held transaction waits in the queue, lets it go;
    /// then waits for all writers to hear their outcome.
    func finish() {
        if let behind = queuedBehind.withLock({ count in defer { count = nil }; return count }) {
            while engine.commits.waitingWriters < behind { usleep(1_000) }
            release.signal()
        }
        writers.wait()
    }

    func outcome(_ name: String) -> String? { outcomes.withLock { $0[name] } }

    func names() throws -> [String] {
        try engine.read { try $0.fetchValues(String.self, sql: "SELECT name FROM marks ORDER BY name") }
    }
}

/// Counts the commits of the database it observes.
private final class CommitCounter: TransactionObserver, Sendable {
    private let commitsSeen = Mutex(0)
    var count: Int { commitsSeen.withLock { $0 } }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }
    func databaseDidChange(with event: DatabaseEvent) {}
    func databaseDidCommit(_ db: Database) { commitsSeen.withLock { $0 += 1 } }
    func databaseDidRollback(_ db: Database) {}
}
