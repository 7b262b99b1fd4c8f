import ArgumentParser

struct SettingsCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "settings", abstract: L("kernel.cli.settings"), subcommands: [List.self, Set.self], defaultSubcommand: List.self)
    }

    struct List: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(commandName: "list", abstract: L("kernel.cli.settings.list"))
        }

        @OptionGroup var global: GlobalOptions
        @OptionGroup var school: SchoolOption

        func run() throws {
            let kernel = try global.openKernel()
            let states = try kernel.settings(for: try school.resolve(in: kernel).id)
            try global.output.emit(states) { states in
                TextTable(
                    headers: [L("kernel.heading.setting"), L("kernel.heading.value"), L("kernel.heading.expected"), L("kernel.heading.description")],
                    rows: states.map { state in
                        let summaryKey = kernel.registry.settingsByKey[state.key].map(\.definition.summaryKey) ?? state.key
                        return [state.key, state.isDefault ? L("kernel.setting.default-value", ["value": state.value]) : state.value, state.expected, kernel.localizer(summaryKey)]
                    })
            }
        }
    }

    struct Set: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(commandName: "set", abstract: L("kernel.cli.settings.set"))
        }

        @OptionGroup var global: GlobalOptions
        @OptionGroup var school: SchoolOption
        @Argument(help: ArgumentHelp(L("kernel.argument.setting-key"))) var key: String
        @Argument(help: ArgumentHelp(L("kernel.argument.setting-value"))) var value: String
        @Flag(name: .customLong("force"), help: ArgumentHelp(L("kernel.option.setting-force"))) var force = false

        func run() throws {
            let kernel = try global.openKernel()
            let target = try school.resolve(in: kernel)
            let stored = try kernel.setSetting(key, to: value, for: target.id, by: .localOperator, force: force)
            try global.output.emit(["key": key, "value": stored]) { _ in L("kernel.setting.saved", ["key": key, "value": stored, "school": target.slug]) }
        }
    }
}
