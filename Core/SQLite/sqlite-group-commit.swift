import Dispatch
import GRDB
import Synchronization
import HogwartsBase

/// Group commit for SQLite's one writer.
///
/// With `synchronous = FULL` every commit waits for the disk, and writers take turns, so under
/// load a write spent most of its time waiting for other writers' fsyncs. Here writers that
/// arrive while a transaction is open wait together, and the first of them to lead runs every
/// waiting writer's work in one transaction, each in its own savepoint, then commits once.
///
/// Each writer still sees the database as if it ran alone after the ones before it, and returns
/// only after the shared commit, with its own result: a writer that throws undoes only its own
/// savepoint; if the commit itself fails, every writer of the group gets the error, so nothing
/// is ever reported written that was not. A writer with nobody waiting beside it (the CLI) runs
/// alone on its own thread, as before.
package final class GroupCommit: Sendable {
    private let pool: DatabasePool
    private let state = Mutex(Queue())

    private struct Queue {
        var waiting: [Writer] = []
        var leading = false
    }

    init(pool: DatabasePool) {
        self.pool = pool
    }

    /// Writers queued behind the open transaction (what a test waits for before releasing it).
    package var waitingWriters: Int { state.withLock { $0.waiting.count } }

    /// Runs `work` in the next group's transaction and returns once that transaction committed.
    func write<T>(_ work: (Database) throws -> T) throws -> T {
        try withoutActuallyEscaping(work) { work in
            var output: T?
            let writer = Writer { db in output = try work(db) }
            let leads = state.withLock { queue in
                queue.waiting.append(writer)
                defer { queue.leading = true }
                return !queue.leading
            }
            if leads { writer.turn = .lead } else { writer.wake.wait() }
            if writer.turn == .lead { lead(as: writer) }
            if let failure = writer.failure { throw failure }
            guard let output else { throw KernelError.storage("a grouped write ended without a result") }
            return output
        }
    }

    /// Takes every waiting writer (this one first), commits them as one group, wakes them, and
    /// hands the lead to the first writer that arrived meanwhile, so no thread leads twice in a row.
    private func lead(as leader: Writer) {
        let group = state.withLock { queue in
            defer { queue.waiting = [] }
            return queue.waiting
        }
        commit(group)
        let next = state.withLock { queue -> Writer? in
            guard let next = queue.waiting.first else {
                queue.leading = false
                return nil
            }
            return next
        }
        for writer in group where writer !== leader {
            writer.turn = .done
            writer.wake.signal()
        }
        if let next {
            next.turn = .lead
            next.wake.signal()
        }
    }

    private func commit(_ group: [Writer]) {
        do {
            try pool.write { db in
                if group.count == 1, let work = group[0].work {
                    // Alone: the transaction is the writer's own, no savepoint needed.
                    do { try work(db) } catch {
                        group[0].failure = error
                        throw error
                    }
                    return
                }
                for writer in group {
                    guard let work = writer.work else { continue }
                    do {
                        try db.inSavepoint {
                            try work(db)
                            return .commit
                        }
                    } catch {
                        writer.failure = error
                        // An error SQLite answers by rolling back the whole transaction (a full
                        // disk, an I/O error) ends the group: the others' work is gone too.
                        if !db.isInsideTransaction { throw error }
                    }
                }
            }
        } catch {
            for writer in group where writer.failure == nil { writer.failure = error }
        }
        // The owners' closures end with their `withoutActuallyEscaping`: none may outlive it.
        for writer in group { writer.work = nil }
    }
}

/// One waiting writer. Its fields are written by the leading thread and read by the owner only
/// after `wake`, which orders the two.
private final class Writer: @unchecked Sendable {
    enum Turn { case waiting, lead, done }

    var work: ((Database) throws -> Void)?
    var failure: (any Error)?
    var turn = Turn.waiting
    let wake = DispatchSemaphore(value: 0)

    init(_ work: @escaping (Database) throws -> Void) {
        self.work = work
    }
}
