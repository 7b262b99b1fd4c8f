import ArgumentParser

struct BackupCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "backup", abstract: L("kernel.cli.backup"))
    }

    @OptionGroup var global: GlobalOptions
    @Option(name: .customLong("to"), help: ArgumentHelp(L("kernel.option.backup-to"))) var destination: String

    func run() throws {
        let kernel = try global.openKernel()
        try kernel.backup(to: destination)
        try global.output.emit(["backup": destination]) { _ in L("kernel.backup.done", ["path": destination]) }
    }
}

struct RestoreCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "restore", abstract: L("kernel.cli.restore"))
    }

    @OptionGroup var global: GlobalOptions
    @Option(name: .customLong("from"), help: ArgumentHelp(L("kernel.option.restore-from"))) var source: String

    func run() throws {
        let kernel = try global.openKernel()
        let previous = try kernel.restore(from: source)
        try global.output.emit(["restored": source, "previous": previous]) { _ in
            L("kernel.restore.done", ["path": source, "previous": previous])
        }
    }
}
