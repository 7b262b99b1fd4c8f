import ArgumentParser

/// Options of commands that act inside one school: which school, and an optional request id
/// that makes a retried write harmless.
public struct SessionOptions: ParsableArguments, Sendable {
    @OptionGroup public var school: SchoolOption
    @Option(name: .customLong("request-id"), help: ArgumentHelp(L("kernel.option.request-id")))
    public var requestID: String?

    public init() {}
}

/// Tells the command line who is running it. A module (Auth) provides one; without it the
/// command runs as the local operator, who can write the database file anyway.
public protocol IdentityProvider: Sendable {
    /// The signed-in principal, or nil to fall back to the local operator.
    func currentPrincipal(kernel: Kernel, variables: [String: String]) throws -> Principal?
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
        let provider = environment.registry.modules.lazy.compactMap(\.identityProvider).first
        principal = try provider?.currentPrincipal(kernel: kernel, variables: environment.variables) ?? .localOperator
        // A signed-in user works in their own school unless they name one.
        if options.school.school == nil, let home = principal.schoolID {
            school = try kernel.school(home)
        } else {
            school = try options.school.resolve(in: kernel)
        }
        output = global.output
        requestID = options.requestID
    }

    /// Runs an action in the session's school as the session's principal.
    @discardableResult
    public func run<A: Action>(_ action: A.Type, _ input: A.Input) throws -> A.Output {
        try kernel.run(action, input, as: principal, in: school.id, requestID: A.isReadOnly ? nil : requestID)
    }
}
