import ArgumentParser
import Core

/// `hogwarts clubs add|list`: thin commands that parse, run an action and print.
struct ClubsCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "clubs", abstract: L("clubs.cli.abstract"), subcommands: [Add.self, List.self], defaultSubcommand: List.self)
    }

    struct Add: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "add", abstract: L("clubs.cli.add")) }

        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("clubs.argument.title"))) var title: String

        func run() throws {
            let session = try CommandSession(global, self.session)
            let item = try session.run(AddClubsItem.self, .init(title: title))
            try session.output.emit(item) { L("clubs.item.added", ["title": $0.title]) }
        }
    }

    struct List: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "list", abstract: L("clubs.cli.list")) }

        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions

        func run() throws {
            let session = try CommandSession(global, self.session)
            let items = try session.run(ListClubsItems.self, .init())
            try session.output.emit(items) { items in
                TextTable(headers: [L("clubs.heading.title"), L("clubs.heading.created")],
                          rows: items.map { [$0.title, $0.createdAt.formatted(.iso8601)] })
            }
        }
    }
}
