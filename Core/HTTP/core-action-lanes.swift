import Foundation
import NIOPosix

/// Where the API and the console run an action: reads on the kernel threads the server was
/// given, writes and the slow password work each on a lane of threads of their own.
enum ActionLanes {
    /// Writers. SQLite has one writer: writers that arrive while a transaction is open wait
    /// together and share the next commit (`GroupCommit`), and a writer waiting there uses no
    /// CPU. On the kernel threads (one more than the cores) at most two writers could wait beside
    /// the one writing, so groups stayed small and reads queued behind writers that were only
    /// waiting for the disk. Measured on 2 cores (`hogwarts-bench --http`, 64 connections):
    /// writes on 12 kernel threads instead of 3 took the bulk register from 2,750 to 3,350 req/s
    /// but the student list fell from 13,700 to 8,100; on a lane of their own, writes get the
    /// larger groups and reads keep their threads. On PostgreSQL the lane's writers wait for one
    /// of the pool's connections instead.
    static let writes = started(threads: 16)

    /// `PreparedAction`s: sign-in and new passwords, whose bcrypt costs a quarter of a second of
    /// CPU before they write. One thread per core, so a burst of sign-ins at the start of the
    /// day waits its turn here instead of taking the threads registers are written on.
    static let preparing = started(threads: max(1, ProcessInfo.processInfo.activeProcessorCount))

    /// The lane for `action`: `reads` (the kernel threads) for a read-only one.
    static func pool<A: Action>(for action: A.Type, reads: NIOThreadPool) -> NIOThreadPool {
        if action.isReadOnly { return reads }
        return action is any PreparedAction.Type ? preparing : writes
    }

    /// Started on first use, for the life of the process (as NIO's own shared pool).
    private static func started(threads: Int) -> NIOThreadPool {
        let pool = NIOThreadPool(numberOfThreads: threads)
        pool.start()
        return pool
    }
}
