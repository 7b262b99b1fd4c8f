import NIOPosix

/// The threads write actions run on, apart from the kernel threads that serve reads.
///
/// SQLite has one writer: writers that arrive while a transaction is open wait together and
/// share the next commit (`GroupCommit`), and a writer waiting there uses no CPU. On the kernel
/// threads (one more than the cores) at most two writers could wait beside the one writing, so
/// groups stayed small and reads queued behind writers that were only waiting for the disk.
/// Measured on 2 cores (`hogwarts-bench --http`, 64 connections): writes on 12 kernel threads
/// instead of 3 took the bulk register from 2,750 to 3,350 req/s, but the student list fell from
/// 13,700 to 8,100; with their own lane, writes get the larger groups and reads keep their threads.
/// On PostgreSQL the lane's writers wait for one of the pool's connections instead.
enum WriteLane {
    static let threads = 16

    /// Started once, on first use, for the life of the process (as NIO's own shared pool).
    static let shared: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: threads)
        pool.start()
        return pool
    }()

    /// Where an action runs: reads on the caller's kernel threads, writes on the lane.
    static func pool<A: Action>(for action: A.Type, reads: NIOThreadPool) -> NIOThreadPool {
        action.isReadOnly ? reads : shared
    }
}
