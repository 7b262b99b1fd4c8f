import Foundation
import HogwartsBase

/// Work a module wants done without anyone asking, run by every `hogwarts serve` in every school
/// where the module is on. A job is two actions run as the local operator: a read-only `check`
/// that says whether anything is due (cheap, unaudited), and the `work` that does it. Several
/// servers run the same job at once, so the work must claim what it takes (see
/// `SchoolDatabase.skipLockedRows`) and never do a row twice.
public struct BackgroundJob: Sendable {
    public let id: String
    /// Seconds between two passes of one server.
    public let interval: TimeInterval
    let pass: @Sendable (Kernel, SchoolID) throws -> Void

    public init<Check: Action, Work: Action>(_ id: String, every interval: TimeInterval,
                                             when check: Check.Type, _ checkInput: Check.Input,
                                             run work: Work.Type, _ workInput: Work.Input)
    where Check.Output == Bool, Check.Input: Sendable, Work.Input: Sendable {
        self.id = id
        self.interval = interval
        pass = { kernel, school in
            guard try kernel.run(check, checkInput, as: .localOperator, in: school) else { return }
            try kernel.run(work, workInput, as: .localOperator, in: school)
        }
    }

    /// A job whose work is more than one action: `work` runs them itself, as the local operator,
    /// with slow work between them outside any transaction (an outbox sends between claiming an
    /// entry and recording how its send ended).
    public init<Check: Action>(_ id: String, every interval: TimeInterval, when check: Check.Type, _ checkInput: Check.Input,
                               work: @escaping @Sendable (Kernel, SchoolID) throws -> Void)
    where Check.Output == Bool, Check.Input: Sendable {
        self.id = id
        self.interval = interval
        pass = { kernel, school in
            guard try kernel.run(check, checkInput, as: .localOperator, in: school) else { return }
            try work(kernel, school)
        }
    }
}
