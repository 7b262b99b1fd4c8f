import ArgumentParser
import HogwartsKernel

/// What a module adds to the command line: its top-level commands, each a
/// swift-argument-parser command (usually a group named after the module).
public protocol CommandLineModule: AppModule {
    var commands: [any ParsableCommand.Type] { get }
}

extension AppModule {
    /// This module's commands, none when it adds nothing to the command line.
    public var contributedCommands: [any ParsableCommand.Type] { (self as? any CommandLineModule)?.commands ?? [] }
}
