import Foundation
import HogwartsBase
import HogwartsKernel

/// The keys a module adds to a caller's scope (a teacher's classes, a guardian's children).
/// The kernel adds `school`, `staff` for staff roles and `user:<self>`.
public typealias SyncScopeRule = @Sendable (_ principal: Principal, _ context: SyncContext) throws -> [SyncScopeKey]

/// An offline mutation: a versioned name (`attendance.take@1`) replayed through an action, so
/// its permission, validation, audit and events apply as on any other path.
///
/// `check` runs in the action's transaction before it (permission already checked): the place
/// for a server-wins rule that only applies to replayed intent (a teacher's offline ABSENT must
/// not overwrite the office's EXCUSED). `current` gives the server's value when the mutation is
/// rejected as a conflict, read in the rejection's own transaction.
public struct SyncMutation: Sendable {
    public typealias Check<Input> = @Sendable (_ input: Input, _ context: ActionContext) throws -> Void
    public typealias Current<Input> = @Sendable (_ input: Input, _ error: any Error, _ context: SyncContext) throws -> APIValue?

    public let name: String
    let actionID: String
    let replay: @Sendable (SyncReplay) throws -> Void
    let current: @Sendable (APIValue, any Error, SyncContext) throws -> APIValue?

    /// `args` are decoded as the action's `Input` from camelCase JSON.
    public init<A: Action>(_ name: String, _ action: A.Type, check: Check<A.Input>? = nil, current: Current<A.Input>? = nil) {
        self.name = name
        actionID = A.id
        replay = { replay in
            let input: A.Input = try SyncJSON.decode(A.Input.self, from: replay.args)
            _ = try replay.kernel.run(A.self, input, as: replay.principal, in: replay.schoolID, language: replay.language,
                                  before: { context in
                                      try replay.before(context)
                                      try check?(input, context)
                                  },
                                  within: { output, db in try replay.within(SyncJSON.value(of: output), db) })
        }
        self.current = { args, error, context in
            guard let current else { return nil }
            guard let input = try? SyncJSON.decode(A.Input.self, from: args) else { return nil }
            return try current(input, error, context)
        }
    }
}
