import ArgumentParser
import HogwartsKernel

struct ModulesCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "modules", abstract: L("kernel.cli.modules"),
            subcommands: [List.self, Enable.self, Disable.self], defaultSubcommand: List.self)
    }

    struct List: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(commandName: "list", abstract: L("kernel.cli.modules.list"))
        }

        @OptionGroup var global: GlobalOptions
        @Option(name: .customLong("school"), help: ArgumentHelp(L("kernel.option.school"))) var school: String?

        func run() throws {
            // What this build contains needs no database; a school's switches do.
            let registry = CommandEnvironment.current.registry
            let states = try school.map { try global.openKernel().moduleStates(for: $0) } ?? ModuleState.listing(registry, enabled: nil)
            let language = CommandEnvironment.current.localizer.language
            try global.output.emit(states) { states in
                var headers = [L("kernel.heading.module"), L("kernel.heading.name"), L("kernel.heading.version"), L("kernel.heading.dependencies")]
                if school != nil { headers.append(L("kernel.heading.enabled")) }
                return TextTable(headers: headers, rows: states.map { state in
                    var row = [
                        state.module,
                        (try? registry.module(state.module).name.text(in: language)) ?? state.module,
                        state.version.description,
                        state.dependencies.isEmpty ? "-" : state.dependencies.joined(separator: ", "),
                    ]
                    if let enabled = state.enabled { row.append(enabled ? L("kernel.state.on") : L("kernel.state.off")) }
                    return row
                })
            }
        }
    }

    struct Enable: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(commandName: "enable", abstract: L("kernel.cli.modules.enable"))
        }

        @OptionGroup var global: GlobalOptions
        @Argument(help: ArgumentHelp(L("kernel.argument.module"))) var module: String
        @Option(name: .customLong("school"), help: ArgumentHelp(L("kernel.option.school"))) var school: String

        func run() throws {
            let kernel = try global.openKernel()
            try kernel.enable(module, for: school, by: .localOperator)
            try global.output.emit(["enabled": [module]]) { _ in L("kernel.modules.enabled", ["module": module, "school": school]) }
        }
    }

    struct Disable: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(commandName: "disable", abstract: L("kernel.cli.modules.disable"))
        }

        @OptionGroup var global: GlobalOptions
        @Argument(help: ArgumentHelp(L("kernel.argument.module"))) var module: String
        @Option(name: .customLong("school"), help: ArgumentHelp(L("kernel.option.school"))) var school: String
        @Flag(name: .customLong("cascade"), help: ArgumentHelp(L("kernel.cli.modules.cascade"))) var cascade = false

        func run() throws {
            let kernel = try global.openKernel()
            let disabled = try kernel.disable(module, for: school, cascade: cascade, by: .localOperator)
            try global.output.emit(["disabled": disabled]) { _ in
                L("kernel.modules.disabled", ["modules": disabled.joined(separator: ", "), "school": school])
            }
        }
    }
}
