import ArgumentParser
import Foundation
import Logging
import HogwartsBase
import HogwartsKernel

/// What the host hands to every command before parsing: the modules, the resolved registry,
/// the language and the process environment. Commands are plain argument-parser structs, so
/// this travels as a task-local value instead of through initializers.
public struct CommandEnvironment: Sendable {
    public let registry: ModuleRegistry
    public let localizer: Localizer
    public let variables: [String: String]

    public init(registry: ModuleRegistry, language: Language, variables: [String: String]) {
        self.registry = registry
        self.localizer = Localizer(language: language, catalog: registry.catalog)
        self.variables = variables
    }

    /// Set by `HogwartsCommandLine.main` for the duration of a command; nil outside one.
    @TaskLocal public static var installed: CommandEnvironment?

    /// The installed environment, or one with the kernel's commands only.
    public static var current: CommandEnvironment {
        installed ?? CommandEnvironment(registry: .kernelOnly, language: .default, variables: ProcessInfo.processInfo.environment)
    }
}

/// Shorthand for a localized text in command help and output: `L("kernel.cli.abstract")`.
public func L(_ key: String, _ arguments: [String: String] = [:]) -> String {
    CommandEnvironment.current.localizer(key, arguments)
}

/// Options every command takes.
public struct GlobalOptions: ParsableArguments, Sendable {
    @Option(name: .customLong("database"), help: ArgumentHelp(L("kernel.option.database")))
    public var databasePath: String?

    @Option(name: .customLong("lang"), help: ArgumentHelp(L("kernel.option.lang")))
    public var language: String?

    @Flag(name: .customLong("json"), help: ArgumentHelp(L("kernel.option.json")))
    public var json = false

    @Option(name: .customLong("log-level"), help: ArgumentHelp(L("kernel.option.log-level")))
    public var logLevel: String = "warning"

    public init() {}

    public mutating func validate() throws {
        if let language, Language(rawValue: language.lowercased()) == nil {
            throw ValidationError(L("kernel.error.invalid-language", ["lang": language]))
        }
        if Logger.Level(rawValue: logLevel.lowercased()) == nil {
            throw ValidationError(L("kernel.error.invalid-log-level", ["level": logLevel]))
        }
    }

    /// `--database`, else `HOGWARTS_DATABASE`, else `./hogwarts.sqlite`.
    public var resolvedDatabasePath: String {
        databasePath ?? CommandEnvironment.current.variables["HOGWARTS_DATABASE"] ?? "./hogwarts.sqlite"
    }

    /// Opens the kernel for this command: database, modules, language and a stderr logger.
    /// By default the database must exist and be exactly as migrated as this build expects, so
    /// a command fails with one sentence before it starts rather than on a missing table.
    public func openKernel(_ use: DatabaseUse = .current) throws -> Kernel {
        let environment = CommandEnvironment.current
        var logger = Logger(label: "hogwarts") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = Logger.Level(rawValue: logLevel.lowercased()) ?? .warning
        let kernel = try Kernel(
            databasePath: resolvedDatabasePath, registry: environment.registry,
            language: environment.localizer.language, logger: logger, createIfMissing: use == .create)
        if use == .current { try kernel.requireCurrentSchema() }
        return kernel
    }

    public var output: Output { Output(json: json) }
}

/// `--school`, for commands that work inside one school.
public struct SchoolOption: ParsableArguments, Sendable {
    @Option(name: .customLong("school"), help: ArgumentHelp(L("kernel.option.school")))
    public var school: String?

    public init() {}

    /// `--school`, else `HOGWARTS_SCHOOL`; nil when neither names one.
    public var requested: String? {
        school ?? CommandEnvironment.current.variables["HOGWARTS_SCHOOL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The school asked for, else `HOGWARTS_SCHOOL`, else the only school in the database.
    public func resolve(in kernel: Kernel) throws -> School {
        if let reference = requested {
            return try kernel.school(reference)
        }
        let schools = try kernel.schools()
        guard schools.count == 1, let only = schools.first else { throw CommandError.schoolRequired(count: schools.count) }
        return only
    }
}

/// Errors of the command line itself.
public enum CommandError: HogwartsError {
    case schoolRequired(count: Int)
    case invalidArgument(name: String, value: String, expected: String)
    /// `--school` or `HOGWARTS_SCHOOL` names another school than the one the user signed in to.
    case otherSchool(signedIn: String, requested: String)

    public var messageKey: String {
        switch self {
        case .schoolRequired: "kernel.error.school-required"
        case .invalidArgument: "kernel.error.invalid-argument"
        case .otherSchool: "kernel.error.other-school"
        }
    }

    public var messageArguments: [String: String] {
        switch self {
        case .schoolRequired(let count): ["count": String(count)]
        case .invalidArgument(let name, let value, let expected): ["name": name, "value": value, "expected": expected]
        case .otherSchool(let signedIn, let requested): ["school": signedIn, "requested": requested]
        }
    }

    public var exitStatus: ExitStatus {
        if case .otherSchool = self { return .permissionDenied }
        return .usage
    }
}
