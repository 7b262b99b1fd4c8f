import ArgumentParser
import Core
import Foundation

struct NotificationsCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "notifications", abstract: L("notifications.cli.abstract"),
            subcommands: [List.self, Read.self, ReadAll.self, Preferences.self, Outbox.self, Deliver.self], defaultSubcommand: List.self)
    }

    struct List: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "list", abstract: L("notifications.cli.list")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Flag(name: .customLong("unread"), help: ArgumentHelp(L("notifications.option.unread"))) var unread = false

        func run() throws {
            let session = try CommandSession(global, self.session)
            let language = session.kernel.localizer.language
            try session.output.emit(try session.run(ListNotifications.self, .init(unreadOnly: unread))) { output in
                var table = TextTable(headers: [L("notifications.heading.id"), L("notifications.heading.time"), L("notifications.heading.type"), L("notifications.heading.title"), L("notifications.heading.body")],
                                      rows: output.notifications.map { [String($0.id.prefix(8)) + ($0.read ? "" : " •"), $0.createdAt.formatted(.iso8601), $0.type.rawValue,
                                                                        $0.title.text(in: language), $0.body.text(in: language)] })
                table.footer = L("notifications.unread-count", ["count": String(output.unread)])
                return table
            }
        }
    }

    struct Read: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "read", abstract: L("notifications.cli.read")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("notifications.argument.id"))) var id: String

        func run() throws {
            let session = try CommandSession(global, self.session)
            let count = try session.run(MarkNotificationsRead.self, .init(notification: id))
            try session.output.emit(["read": count]) { _ in L("notifications.marked", ["count": String(count)]) }
        }
    }

    struct ReadAll: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "read-all", abstract: L("notifications.cli.read-all")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions

        func run() throws {
            let session = try CommandSession(global, self.session)
            let count = try session.run(MarkNotificationsRead.self, .init())
            try session.output.emit(["read": count]) { _ in L("notifications.marked", ["count": String(count)]) }
        }
    }

    struct Preferences: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "preferences", abstract: L("notifications.cli.preferences")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Option(name: .customLong("type"), help: ArgumentHelp(L("notifications.option.type"))) var type: String?
        @Option(name: .customLong("enabled"), help: ArgumentHelp(L("notifications.option.enabled"))) var enabled: String?
        @Option(name: .customLong("quiet"), help: ArgumentHelp(L("notifications.option.quiet"))) var quiet: String?

        func run() throws {
            let flag = try enabled.map { text -> Bool in
                guard let value = Bool(settingText: text) else { throw CommandError.invalidArgument(name: "--enabled", value: text, expected: "on|off") }
                return value
            }
            let session = try CommandSession(global, self.session)
            try session.output.emit(try session.run(NotificationPreferences.self, .init(type: type, enabled: flag, quietHours: quiet))) { preferences in
                TextTable(headers: [L("notifications.heading.type"), L("notifications.heading.enabled"), L("notifications.heading.quiet")],
                          rows: preferences.map { [$0.type.rawValue, $0.enabled ? L("notifications.on") : L("notifications.off"), $0.quietHours ?? "-"] })
            }
        }
    }

    struct Outbox: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "outbox", abstract: L("notifications.cli.outbox")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Flag(name: .customLong("all"), help: ArgumentHelp(L("notifications.option.all"))) var all = false
        @Flag(name: .customLong("failed"), help: ArgumentHelp(L("notifications.option.failed"))) var failed = false

        func run() throws {
            let session = try CommandSession(global, self.session)
            try session.output.emit(try session.run(ListOutbox.self, .init(all: all, failedOnly: failed))) { entries in
                TextTable(headers: [L("notifications.heading.id"), L("notifications.heading.channel"), L("notifications.heading.recipient"), L("notifications.heading.state"),
                                    L("notifications.heading.attempts"), L("notifications.heading.next"), L("notifications.heading.error")],
                          rows: entries.map { [String($0.id.prefix(8)), $0.channel, $0.recipient, $0.state, String($0.attempts),
                                               $0.nextAttemptAt?.formatted(.iso8601) ?? "-", $0.lastError ?? ""] })
            }
        }
    }

    /// Meant for cron: it runs as the local operator, like `migrate`, so no one has to sign in.
    struct Deliver: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "deliver", abstract: L("notifications.cli.deliver")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var school: SchoolOption

        func run() throws {
            let kernel = try global.openKernel()
            let schools = school.school == nil ? try kernel.schools() : [try school.resolve(in: kernel)]
            var outputs: [String: DeliverOutbox.Output] = [:]
            for target in schools where try kernel.enabledModules(for: target.id).contains("notifications") {
                outputs[target.slug] = try DeliverOutbox.run(kernel, as: .localOperator, in: target.id)
            }
            try global.output.emit(outputs) { outputs in
                TextTable(lines: outputs.sorted { $0.key < $1.key }.map {
                    L("notifications.delivered", ["school": $0.key, "sent": String($0.value.sent), "retrying": String($0.value.retrying), "failed": String($0.value.failed)])
                })
            }
        }
    }
}
