import ArgumentParser
import Core
import Foundation

struct MessagesCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "messages", abstract: L("messages.cli.abstract"),
            subcommands: [List.self, Show.self, Send.self, New.self, Read.self, Mute.self, Search.self, Edit.self, Delete.self],
            defaultSubcommand: List.self)
    }

    static func messageTable(_ messages: [Message]) -> TextTable {
        TextTable(headers: [L("messages.heading.id"), L("messages.heading.time"), L("messages.heading.from"), L("messages.heading.message")],
                  rows: messages.map { [String($0.id.prefix(8)), $0.sentAt.formatted(.iso8601), $0.senderName,
                                        $0.deleted ? L("messages.deleted") : $0.body + ($0.edited ? " " + L("messages.edited") : "")] })
    }

    struct List: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "list", abstract: L("messages.cli.list")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions

        func run() throws {
            let session = try CommandSession(global, self.session)
            try session.output.emit(try session.run(ListConversations.self, .init())) { conversations in
                TextTable(headers: [L("messages.heading.id"), L("messages.heading.kind"), L("messages.heading.title"), L("messages.heading.unread"), L("messages.heading.last")],
                          rows: conversations.map { [String($0.id.prefix(8)), $0.kind.rawValue, $0.title + ($0.muted ? " 🔕" : ""), String($0.unread),
                                                     String(($0.lastMessage ?? "").prefix(40))] })
            }
        }
    }

    struct Show: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "show", abstract: L("messages.cli.show")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("messages.argument.conversation"))) var conversation: String
        // A string, so `--page -3` or a number past Int reaches ArgumentValue's localized refusal.
        @Option(name: .customLong("page"), parsing: .unconditional, help: ArgumentHelp(L("messages.option.page"))) var page: String?

        func run() throws {
            let page = try ArgumentValue.page(page)
            let session = try CommandSession(global, self.session)
            let shown = try session.run(ShowConversation.self, .init(conversation: conversation, page: page))
            if page == 1 { try session.run(UpdateMembership.self, .init(conversation: shown.conversationID, markRead: true)) }
            try session.output.emit(shown) { shown in
                var table = MessagesCommand.messageTable(shown.messages)
                table.footer = L("messages.page", ["title": shown.title, "page": String(shown.page), "pages": String(shown.pageCount)])
                return table
            }
        }
    }

    struct Send: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "send", abstract: L("messages.cli.send")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("messages.argument.conversation"))) var conversation: String
        @Argument(help: ArgumentHelp(L("messages.argument.body"))) var body: String
        @Option(name: .customLong("client-id"), help: ArgumentHelp(L("messages.option.client-id"))) var clientID: String?
        @Option(name: .customLong("reply-to"), help: ArgumentHelp(L("messages.option.reply-to"))) var replyTo: String?

        func run() throws {
            let session = try CommandSession(global, self.session)
            let message = try session.run(SendMessage.self, .init(conversation: conversation, body: body, clientID: clientID, replyTo: replyTo)).message
            try session.output.emit(message) { L("messages.sent", ["id": String($0.id.prefix(8))]) }
        }
    }

    struct New: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "new", abstract: L("messages.cli.new")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Option(name: .customLong("direct"), help: ArgumentHelp(L("messages.option.direct"))) var direct: String?
        @Option(name: .customLong("group"), help: ArgumentHelp(L("messages.option.group"))) var group: String?
        @Option(name: .customLong("with"), help: ArgumentHelp(L("messages.option.with"))) var with: String?
        @Option(name: .customLong("class"), help: ArgumentHelp(L("messages.option.class"))) var classCode: String?
        @Option(name: .customLong("announce"), help: ArgumentHelp(L("messages.option.announce"))) var announce: String?
        @Option(name: .customLong("audience"), help: ArgumentHelp(L("messages.option.audience"))) var audience = "all"

        func validate() throws {
            if [direct, group, classCode, announce].compactMap({ $0 }).count != 1 { throw ValidationError(L("messages.error.one-kind")) }
        }

        func run() throws {
            let others = (with ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            let input: StartConversation.Input = if let direct {
                .init(kind: .direct, participants: [direct])
            } else if let group {
                .init(kind: .group, title: group, participants: others)
            } else if let classCode {
                .init(kind: .class, title: classCode, classCode: classCode)
            } else {
                .init(kind: .announcement, title: announce, audience: audience)
            }
            let session = try CommandSession(global, self.session)
            let id = try session.run(StartConversation.self, input).id
            try session.output.emit(["conversation": id]) { _ in L("messages.started", ["id": String(id.prefix(8))]) }
        }
    }

    struct Read: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "read", abstract: L("messages.cli.read")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("messages.argument.conversation"))) var conversation: String

        func run() throws {
            let session = try CommandSession(global, self.session)
            try session.run(UpdateMembership.self, .init(conversation: conversation, markRead: true))
            try session.output.emit(["read": conversation]) { _ in L("messages.marked-read") }
        }
    }

    struct Mute: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "mute", abstract: L("messages.cli.mute")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("messages.argument.conversation"))) var conversation: String
        @Flag(name: .customLong("off"), help: ArgumentHelp(L("messages.option.unmute"))) var off = false

        func run() throws {
            let session = try CommandSession(global, self.session)
            try session.run(UpdateMembership.self, .init(conversation: conversation, muted: !off))
            try session.output.emit(["muted": !off]) { _ in L(off ? "messages.unmuted" : "messages.muted") }
        }
    }

    struct Search: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "search", abstract: L("messages.cli.search")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("messages.argument.query"))) var query: String

        func run() throws {
            let session = try CommandSession(global, self.session)
            try session.output.emit(try session.run(SearchMessages.self, .init(query: query)).map(\.message), table: MessagesCommand.messageTable)
        }
    }

    struct Edit: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "edit", abstract: L("messages.cli.edit")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("messages.argument.message"))) var message: String
        @Argument(help: ArgumentHelp(L("messages.argument.body"))) var body: String

        func run() throws {
            let session = try CommandSession(global, self.session)
            let edited = try session.run(EditMessage.self, .init(message: message, body: body))
            try session.output.emit(edited) { L("messages.edited-done", ["id": String($0.id.prefix(8))]) }
        }
    }

    struct Delete: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "delete", abstract: L("messages.cli.delete")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("messages.argument.message"))) var message: String

        func run() throws {
            let session = try CommandSession(global, self.session)
            try session.run(DeleteMessage.self, .init(message: message))
            try session.output.emit(["deleted": message]) { _ in L("messages.deleted-done") }
        }
    }
}
