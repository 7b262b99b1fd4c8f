import ArgumentParser

struct MigrateCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "migrate", abstract: L("kernel.cli.migrate"))
    }

    @OptionGroup var global: GlobalOptions
    @Flag(name: .customLong("status"), help: ArgumentHelp(L("kernel.cli.migrate.status"))) var status = false

    func run() throws {
        // Only migrating may start a new database; asking for the status of one that is not there may not.
        let kernel = try global.openKernel(status ? .anyVersion : .create)
        if status {
            try global.output.emit(try kernel.migrationStatus()) { rows in
                TextTable(
                    headers: [L("kernel.heading.module"), L("kernel.heading.migration"), L("kernel.heading.state")],
                    rows: rows.map { [$0.module, $0.migration, $0.appliedAt.map { L("kernel.state.applied", ["at": $0.formatted(.iso8601)]) } ?? L("kernel.state.pending")] })
            }
            return
        }
        let applied = try kernel.migrate(progress: ProgressLine.reporter())
        kernel.deliverPendingEvents()
        try global.output.emit(applied) { L("kernel.migrate.done", ["count": String($0.count)]) }
    }
}
