import ArgumentParser

struct BackupCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "backup", abstract: L("kernel.cli.backup"))
    }

    @OptionGroup var global: GlobalOptions
    @Option(name: .customLong("to"), help: ArgumentHelp(L("kernel.option.backup-to"))) var destination: String

    func run() throws {
        let kernel = try global.openKernel(.anyVersion)
        try kernel.backup(to: destination, progress: ProgressLine.reporter())
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
        let kernel = try global.openKernel(.anyVersion)
        let previous = try kernel.restore(from: source, progress: ProgressLine.reporter())
        try global.output.emit(["restored": source, "previous": previous]) { _ in
            L("kernel.restore.done", ["path": source, "previous": previous])
        }
    }
}

/// `hogwarts check`: SQLite's integrity check on demand; exit 65 when damage is found.
struct CheckCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "check", abstract: L("kernel.cli.check"))
    }

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let report = try global.openKernel(.anyVersion).checkIntegrity()
        try global.output.emit(report) { report in
            report.ok ? TextTable(lines: [L("kernel.check.ok", ["path": report.path, "mode": report.mode])])
                : TextTable(lines: [L("kernel.check.failed", ["path": report.path, "mode": report.mode])] + report.problems)
        }
        if !report.ok { throw ExitCode(ExitStatus.invalidData.rawValue) }
    }
}
