import ArgumentParser

/// `hogwarts demo`: a working school in one command, for a first look or a test drive.
struct DemoCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "demo", abstract: L("kernel.cli.demo"))
    }

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let kernel = try global.openKernel()
        try kernel.migrate(progress: ProgressLine.reporter())
        let school = try kernel.createDemoSchool(progress: ProgressLine.reporter())
        let modules = try kernel.moduleStates(for: school.id)
        try global.output.emit(modules) { modules in
            TextTable(lines: [
                L("kernel.demo.ready", ["school": school.slug, "database": global.resolvedDatabasePath]),
                L("kernel.demo.modules", ["modules": modules.filter { $0.enabled == true }.map(\.module).joined(separator: ", ")]),
                L("kernel.demo.next"),
            ])
        }
    }
}
