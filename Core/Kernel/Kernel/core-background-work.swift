import Foundation
import HogwartsBase

extension Kernel {
    /// One pass of everything, whatever each job's interval: what a server does in the background,
    /// for tests and for a one-off run.
    public func runBackgroundWork() {
        backgroundPass(jobs: registry.modules.flatMap { module in module.backgroundJobs.map { (module.id, $0) } })
    }

    /// One pass: pending events, then each due job in each school where its module is on. A
    /// failure is logged and the next pass tries again; nothing here stops the server.
    package func backgroundPass(jobs: [(module: ModuleID, job: BackgroundJob)]) {
        deliverPendingEvents()
        guard !jobs.isEmpty else { return }
        do {
            for school in try schools() {
                let enabled = try enabledModules(for: school.id)
                for (module, job) in jobs where enabled.contains(module) {
                    do {
                        try job.pass(self, school.id)
                    } catch {
                        logger.warning("background job failed", metadata: ["job": "\(job.id)", "school": "\(school.slug)", "error": "\(error)"])
                    }
                }
            }
        } catch {
            logger.warning("background jobs skipped a pass", metadata: ["error": "\(error)"])
        }
    }
}

extension Kernel {
    /// Logs work a module does after it has answered (a mail asked for in the background), whose
    /// failure no caller hears: the server's log is where an operator then finds it.
    public func reportBackgroundFailure(_ work: String, _ error: any Error) {
        logger.warning("background work failed", metadata: ["work": "\(work)", "error": "\(error)"])
    }
}
