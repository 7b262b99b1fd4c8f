import ArgumentParser
import HogwartsKernel
import Foundation
import HogwartsBase

/// `hogwarts config`: the configuration in force and where each value came from, without
/// opening the database. Ignored variables are named on stderr; values `serve` would refuse
/// to start with end it with exit 78.
struct ConfigCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "config", abstract: L("kernel.cli.config"))
    }

    @OptionGroup var global: GlobalOptions
    @OptionGroup var school: SchoolOption

    func run() throws {
        let values = EffectiveConfiguration(
            global: global, school: school, variables: CommandEnvironment.current.variables, arguments: CommandLine.arguments).values
        try global.output.emit(values) { values in
            TextTable(
                headers: [L("kernel.heading.setting"), L("kernel.heading.value"), L("kernel.heading.source")],
                rows: values.map { [$0.name, $0.value, Self.source(of: $0)] })
        }
        for problem in values.compactMap(\.problem) {
            FileHandle.standardError.write(Data("hogwarts: \(TextInput.printable(problem))\n".utf8))
        }
        let refused = values.filter(\.refused).compactMap(\.variable)
        if !refused.isEmpty { throw KernelError.configurationRefused(refused) }
    }

    static func source(of value: ConfigurationValue) -> String {
        switch value.source {
        case .flag: L("kernel.config.source.flag", ["option": value.option ?? ""])
        case .environment: L("kernel.config.source.environment", ["variable": value.variable ?? ""])
        case .default: L("kernel.config.source.default")
        }
    }
}
