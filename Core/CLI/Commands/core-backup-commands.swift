import ArgumentParser
import Foundation
import HogwartsBase
import HogwartsKernel

/// `hogwarts backup --to FILE`, or `--to FOLDER --keep N` for unattended runs: a dated file
/// (`BackupRotation`) in the folder, then the oldest dated ones removed so that N remain.
struct BackupCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "backup", abstract: L("kernel.cli.backup"), discussion: L("kernel.cli.backup.discussion"))
    }

    @OptionGroup var global: GlobalOptions
    @Option(name: .customLong("to"), help: ArgumentHelp(L("kernel.option.backup-to"))) var destination: String
    @Option(name: .customLong("keep"), help: ArgumentHelp(L("kernel.option.backup-keep"))) var keep: String?

    func run() throws {
        // Everything about the arguments is checked before the database is touched.
        let keep = try keep.map { try ArgumentValue.integer($0, option: "--keep", in: 1...10_000) }
        if keep != nil {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: destination, isDirectory: &isFolder), isFolder.boolValue else {
                throw KernelError.backupFolderMissing(destination)
            }
        }
        let kernel = try global.openKernel(.anyVersion)
        guard let keep else {
            try kernel.backup(to: destination, progress: ProgressLine.reporter())
            try global.output.emit(["backup": destination]) { _ in L("kernel.backup.done", ["path": destination]) }
            return
        }
        let path = URL(filePath: destination).appending(path: BackupRotation.fileName(at: Date())).path
        try kernel.backup(to: path, progress: ProgressLine.reporter())
        // Pruned only once the new copy is safely in place.
        let removed = try BackupRotation.prune(destination, keep: keep)
        try global.output.emit(Rotated(backup: path, removed: removed)) { rotated in
            L("kernel.backup.rotated", ["path": rotated.backup, "keep": String(keep), "removed": String(rotated.removed.count)])
        }
    }

    struct Rotated: Encodable {
        let backup: String
        let removed: [String]
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
