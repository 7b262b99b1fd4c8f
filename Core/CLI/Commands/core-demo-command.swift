import ArgumentParser
import Foundation
import HogwartsBase
import HogwartsPostgreSQL

/// `hogwarts demo`: working demo schools in one command, for a first look or a test drive.
struct DemoCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "demo", abstract: L("kernel.cli.demo"))
    }

    @OptionGroup var global: GlobalOptions
    @Flag(name: .customLong("force"), help: ArgumentHelp(L("kernel.option.force"))) var force = false

    func run() throws {
        let path = global.resolvedDatabasePath
        let onServer = PostgresEngine.accepts(path)
        if onServer || FileManager.default.fileExists(atPath: path) {
            let hasSchools = try {
                let existing = try global.openKernel(.create)
                try existing.migrate()
                return try !existing.schools().isEmpty
            }()
            // A server's database is never erased from here: it may hold real schools too.
            if hasSchools && onServer { throw KernelError.demoNeedsEmptyServerDatabase(database: PostgresEngine.redacted(path)) }
            guard !hasSchools || force else { throw KernelError.databaseInUse(path) }
            for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
                try FileManager.default.removeItem(atPath: path + suffix)
            }
        }
        let kernel = try global.openKernel(.create)
        try kernel.migrate(progress: ProgressLine.reporter())
        let schools = try kernel.createDemoSchools(progress: ProgressLine.reporter())
        let modules = try kernel.moduleStates(for: schools.first?.id)
        try global.output.emit(modules) { modules in
            TextTable(lines: [
                L("kernel.demo.ready", ["schools": schools.map(\.slug).joined(separator: ", "), "database": path]),
                L("kernel.demo.modules", ["modules": modules.filter { $0.enabled == true }.map(\.module).joined(separator: ", ")]),
            ] + kernel.registry.modules.compactMap { module in
                let key = "\(module.id).demo.hint"
                return kernel.registry.catalog.text(key, in: .en) == nil ? nil : L(key)
            } + [L("kernel.demo.next")])
        }
    }
}
