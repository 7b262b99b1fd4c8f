import Foundation
import Synchronization
import Testing

/// The host tests wait for the programs they run (`hogwarts`, nginx, PostgreSQL's tools, a
/// browser) by blocking their thread. Swift Testing runs every test on the process's cooperative
/// threads, one per core: in CI (2 cores) two host tests waiting on long commands held both, and
/// every in-process test stalled for minutes behind them. A password-reset test waited 6 minutes
/// for a mail its own server had long since queued, and failed. This trait runs a suite's tests on
/// threads of their own instead, as many as there are cores, so host tests still run two at a
/// time while the cooperative threads stay free for the tests that only await.
struct WaitsOnProcesses: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        try await withTaskExecutorPreference(BlockingTestThreads.shared) { try await function() }
    }
}

extension Trait where Self == WaitsOnProcesses {
    /// Runs the suite's tests on threads that may block (see `WaitsOnProcesses`).
    static var waitsOnProcesses: Self { Self() }
}

/// A fixed set of plain threads that run the jobs of the tasks that prefer them, oldest first.
final class BlockingTestThreads: TaskExecutor {
    static let shared = BlockingTestThreads(count: max(2, ProcessInfo.processInfo.activeProcessorCount))

    private let jobs = Mutex<[UnownedJob]>([])
    private let ready = DispatchSemaphore(value: 0)

    private init(count: Int) {
        for _ in 0..<count {
            Thread { [self] in
                while true {
                    ready.wait()
                    guard let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { continue }
                    job.runSynchronously(on: asUnownedTaskExecutor())
                }
            }.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        ready.signal()
    }
}
