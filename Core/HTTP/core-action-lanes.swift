import Foundation
import NIOPosix
import HogwartsKernel

/// The threads a piece of the API's or the console's kernel work runs on (`ActionLanes`).
public enum ActionLane: Sendable {
    /// The kernel threads the server was given: reads.
    case reads
    /// Anything that writes: it may wait for SQLite's one writer, and must not do so on a read thread.
    case writes
    /// Password work (bcrypt, a quarter of a second of CPU) before a write: sign-in, new passwords.
    case passwords
}

/// Where the API and the console run kernel work: reads on the kernel threads the server was
/// given, writes and the slow password work each on a lane of threads of their own.
package enum ActionLanes {
    /// Writers. SQLite has one writer: writers that arrive while a transaction is open wait
    /// together and share the next commit (`GroupCommit`), and a writer waiting there uses no
    /// CPU. On the kernel threads (one more than the cores) at most two writers could wait beside
    /// the one writing, so groups stayed small and reads queued behind writers that were only
    /// waiting for the disk. Measured on 2 cores (`hogwarts-bench --http`, 64 connections):
    /// writes on 12 kernel threads instead of 3 took the bulk register from 2,750 to 3,350 req/s
    /// but the student list fell from 13,700 to 8,100; on a lane of their own, writes get the
    /// larger groups and reads keep their threads. On PostgreSQL the lane's writers wait for one
    /// of the pool's connections instead.
    package static let writes = started(threads: 16)

    /// `PreparedAction`s: sign-in and new passwords, whose bcrypt costs a quarter of a second of
    /// CPU before they write. One thread per core, so a burst of sign-ins at the start of the
    /// day waits its turn here instead of taking the threads reads and registers run on; at a
    /// lower CPU priority (`passwordsYield`), so while reads keep both cores busy bcrypt yields
    /// them, and has every idle cycle otherwise.
    package static let passwords = started(threads: passwordThreads, yielding: passwordsYield)

    /// The password lane's threads: one per core.
    package static let passwordThreads = max(1, ProcessInfo.processInfo.activeProcessorCount)

    /// How much nicer than the process the password lane runs. Measured on 2 cores (`hogwarts-bench
    /// --http`, the student list at 64 connections while 4 connections sign in; 13,500-15,600
    /// req/s, p99 9-11 ms alone): at the same priority the list served 7,600 req/s, p99 22 ms,
    /// and sign-ins 3.7 a second; at +5, 10,100-11,900 req/s, p99 14-17 ms, sign-ins 2 a second;
    /// at +10 sign-ins fell to 1 a second for no clear gain to reads. Alone, sign-ins run at 8 a
    /// second either way.
    package static let passwordsYield: Int32 = 5

    /// The lane an action runs on: a read-only one on the kernel threads, a `PreparedAction` on
    /// the password lane, any other on the writers'.
    package static func lane<A: Action>(for action: A.Type) -> ActionLane {
        if action.isReadOnly { return .reads }
        return action is any PreparedAction.Type ? .passwords : .writes
    }

    /// The threads of `lane`, `reads` being the server's kernel threads.
    package static func pool(_ lane: ActionLane, reads: NIOThreadPool) -> NIOThreadPool {
        switch lane {
        case .reads: reads
        case .writes: writes
        case .passwords: passwords
        }
    }

    /// Started on first use, for the life of the process (as NIO's own shared pool).
    private static func started(threads: Int, yielding step: Int32 = 0) -> NIOThreadPool {
        let pool = NIOThreadPool(numberOfThreads: threads)
        pool.start()
        if step > 0 { ThreadPriority.lower(every: pool, threads: threads, by: step) }
        return pool
    }
}
