import ArgumentParser
import HogwartsBase
import HogwartsKernel

/// Options of commands that act inside one school: which school, and an optional request id
/// that makes a retried write harmless.
public struct SessionOptions: ParsableArguments, Sendable {
    @OptionGroup public var school: SchoolOption
    @Option(name: .customLong("request-id"), help: ArgumentHelp(L("kernel.option.request-id")))
    public var requestID: String?

    public init() {}
}

/// Everything a module command needs to run actions: the kernel, the school, who is acting and
/// where results go. Commands stay thin: parse, `run` an action, print.
public struct CommandSession {
    public let kernel: Kernel
    public let school: School
    public let principal: Principal
    public let output: Output
    let requestID: String?

    public init(_ global: GlobalOptions, _ options: SessionOptions) throws {
        let environment = CommandEnvironment.current
        kernel = try global.openKernel()
        let provider = environment.registry.identityProvider
        principal = try provider?.currentPrincipal(kernel: kernel, variables: environment.variables) ?? .localOperator
        school = try Self.school(for: principal, requested: options.school, kernel: kernel)
        output = global.output
        requestID = options.requestID
    }

    /// A signed-in user works in the school of their session, always: naming another one (with
    /// `--school` or `HOGWARTS_SCHOOL`) is refused rather than silently ignored. The operator and
    /// the platform-wide developer work where they ask.
    public static func school(for principal: Principal, requested: SchoolOption, kernel: Kernel) throws -> School {
        guard let home = principal.schoolID else { return try requested.resolve(in: kernel) }
        let school = try kernel.school(home)
        if let asked = requested.requested, asked != school.slug, asked != school.id {
            throw CommandError.otherSchool(signedIn: school.slug, requested: TextInput.printable(asked))
        }
        return school
    }

    /// Runs an action in the session's school as the session's principal; `progress` receives
    /// how far long work got (`ProgressLine.reporter()` for a terminal).
    @discardableResult
    public func run<A: Action>(_ action: A.Type, _ input: A.Input, progress: ProgressReporter? = nil) throws -> A.Output {
        try kernel.run(action, input, as: principal, in: school.id, requestID: A.isReadOnly ? nil : requestID, progress: progress)
    }
}
