import Foundation
import NIOPosix
import HogwartsKernel

/// What `hogwarts serve` does beside answering requests: delivers events whose handlers have not
/// run (left by another server, a command or a crash) and runs the modules' background jobs.
/// Every server runs it; the claims make it safe to. (Expired rate-limit rows are removed by
/// `Kernel.admit`, on the next admitted attempt.)
public struct BackgroundWork: Sendable {
    let kernel: Kernel
    let threadPool: NIOThreadPool
    /// Seconds between two passes.
    let tick: TimeInterval

    public init(kernel: Kernel, threadPool: NIOThreadPool, tick: TimeInterval = 1) {
        self.kernel = kernel
        self.threadPool = threadPool
        self.tick = tick
    }

    /// Runs passes until the task is cancelled.
    public func run() async {
        var lastRun: [String: Date] = [:]
        while !Task.isCancelled {
            let due = kernel.registry.modules.flatMap { module in
                module.backgroundJobs.filter { job in
                    lastRun[job.id].map { Date().timeIntervalSince($0) >= job.interval } ?? true
                }.map { (module.id, $0) }
            }
            for (_, job) in due { lastRun[job.id] = Date() }
            let kernel = kernel
            _ = try? await threadPool.runIfActive { kernel.backgroundPass(jobs: due) }
            try? await Task.sleep(for: .seconds(tick))
        }
    }
}
