import ArgumentParser

struct AuditCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "audit", abstract: L("kernel.cli.audit"))
    }

    @OptionGroup var global: GlobalOptions
    @OptionGroup var school: SchoolOption
    @Option(name: .customLong("limit"), help: ArgumentHelp(L("kernel.option.limit"))) var limit = 50

    func run() throws {
        let kernel = try global.openKernel()
        let entries = try kernel.auditLog(for: try school.resolve(in: kernel).id, limit: limit)
        try global.output.emit(entries) { entries in
            TextTable(
                headers: [L("kernel.heading.time"), L("kernel.heading.user"), L("kernel.heading.role"), L("kernel.heading.action"), L("kernel.heading.outcome"), L("kernel.heading.detail")],
                rows: entries.map { [$0.at.formatted(.iso8601), $0.userID, $0.role.rawValue, $0.action, $0.outcome.rawValue, $0.detail ?? ""] })
        }
    }
}
