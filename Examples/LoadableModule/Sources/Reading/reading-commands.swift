import ArgumentParser
import Core

/// `hogwarts reading add|list`: thin commands that parse, run an action and print.
struct ReadingCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "reading", abstract: L("reading.cli.abstract"), subcommands: [Add.self, List.self], defaultSubcommand: List.self)
    }

    struct Add: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "add", abstract: L("reading.cli.add")) }

        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("reading.argument.title"))) var title: String

        func run() throws {
            let session = try CommandSession(global, self.session)
            let item = try session.run(AddReadingItem.self, .init(title: title))
            try session.output.emit(item) { L("reading.item.added", ["title": $0.title]) }
        }
    }

    struct List: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "list", abstract: L("reading.cli.list")) }

        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions

        func run() throws {
            let session = try CommandSession(global, self.session)
            let items = try session.run(ListReadingItems.self, .init())
            try session.output.emit(items) { items in
                TextTable(headers: [L("reading.heading.title"), L("reading.heading.created")],
                          rows: items.map { [$0.title, $0.createdAt.formatted(.iso8601)] })
            }
        }
    }
}
