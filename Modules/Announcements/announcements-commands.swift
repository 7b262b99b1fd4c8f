import ArgumentParser
import Core
import Foundation

/// `hogwarts announcements list|show|post|withdraw`: thin commands that parse, run an action and print.
struct AnnouncementsCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "announcements", abstract: L("announcements.cli.abstract"),
                             subcommands: [List.self, Show.self, Post.self, Withdraw.self], defaultSubcommand: List.self)
    }

    static func table(_ items: [Announcement], _ session: CommandSession) -> TextTable {
        TextTable(headers: [L("announcements.heading.id"), L("announcements.heading.title"), L("announcements.heading.audience"),
                            L("announcements.heading.published"), L("announcements.heading.reads")],
                  rows: items.map { [$0.id, ($0.pinned ? "* " : "") + $0.title, audienceText($0), AnnouncementsTime.text($0.publishAt, session.school),
                                     String($0.readCount)] })
    }

    static func audienceText(_ announcement: Announcement) -> String {
        switch announcement.audience {
        case .school: L("announcements.audience.school")
        case .role(let role): "role:\(role.rawValue)"
        case .class: "class:\(announcement.audienceCode ?? "?")"
        case .yearLevel: "year-level:\(announcement.audienceCode ?? "?")"
        }
    }

    struct List: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "list", abstract: L("announcements.cli.list")) }

        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Flag(name: .customLong("all"), help: ArgumentHelp(L("announcements.option.all"))) var all = false

        func run() throws {
            let session = try CommandSession(global, self.session)
            let page = try session.run(ListAnnouncements.self, .init(includeUnpublished: all, limit: 1_000))
            try session.output.emit(page) { AnnouncementsCommand.table($0.items, session) }
        }
    }

    struct Show: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "show", abstract: L("announcements.cli.show")) }

        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("announcements.argument.id"))) var id: String

        func run() throws {
            let session = try CommandSession(global, self.session)
            try session.output.emit(try session.run(OpenAnnouncement.self, .init(id: id))) { item in
                TextTable(lines: [item.title, AnnouncementsTime.text(item.publishAt, session.school) + " · " + item.authorName + " · "
                                  + AnnouncementsCommand.audienceText(item), "", item.content, "",
                                  L("announcements.read-count", ["count": String(item.readCount)])])
            }
        }
    }

    struct Post: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "post", abstract: L("announcements.cli.post")) }

        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Option(help: ArgumentHelp(L("announcements.option.title"))) var title: String
        @Option(help: ArgumentHelp(L("announcements.option.content"))) var content: String
        @Option(help: ArgumentHelp(L("announcements.option.to"))) var to = "school"
        @Option(help: ArgumentHelp(L("announcements.option.priority"))) var priority: AnnouncementPriority = .normal
        @Option(name: .customLong("publish-at"), help: ArgumentHelp(L("announcements.option.publish-at"))) var publishAt: String?
        @Option(name: .customLong("expires-at"), help: ArgumentHelp(L("announcements.option.expires-at"))) var expiresAt: String?
        @Flag(help: ArgumentHelp(L("announcements.option.pin"))) var pin = false

        func run() throws {
            let session = try CommandSession(global, self.session)
            let input = PostAnnouncement.Input(
                title: title, content: content, priority: priority, audience: to,
                publishAt: try publishAt.map { try AnnouncementsTime.parse($0, option: "--publish-at", session.school) },
                expiresAt: try expiresAt.map { try AnnouncementsTime.parse($0, option: "--expires-at", session.school) }, pinned: pin)
            let posted = try session.run(PostAnnouncement.self, input)
            try session.output.emit(posted) { item in
                item.isPublished ? L("announcements.posted", ["id": item.id, "audience": AnnouncementsCommand.audienceText(item)])
                    : L("announcements.scheduled", ["id": item.id, "when": AnnouncementsTime.text(item.publishAt, session.school)])
            }
        }
    }

    struct Withdraw: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "withdraw", abstract: L("announcements.cli.withdraw")) }

        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("announcements.argument.id"))) var id: String

        func run() throws {
            let session = try CommandSession(global, self.session)
            let done = try session.run(WithdrawAnnouncement.self, .init(id: id))
            try session.output.emit(["withdrawn": done]) { _ in L("announcements.withdrawn", ["id": id]) }
        }
    }
}

extension AnnouncementPriority: ExpressibleByArgument {}

/// Times on the command line: `2026-12-01 08:00` in the school's time zone, or an ISO 8601 instant.
enum AnnouncementsTime {
    static func parse(_ text: String, option: String, _ school: School) throws -> Date {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let instant = ISO8601DateFormatter()
        if let date = instant.date(from: trimmed) { return date }
        instant.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = instant.date(from: trimmed) { return date }
        if let date = local(trimmed, formats: ["yyyy-MM-dd HH:mm", "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd"], school.timeZone) { return date }
        throw InputError("announcements.error.time", ["option": option, "value": TextInput.printable(text)])
    }

    /// `text` read in the first of `formats` that fits, as a time in the school's time zone.
    static func local(_ text: String, formats: [String], _ zone: String) -> Date? {
        let local = DateFormatter()
        local.locale = Locale(identifier: "en_US_POSIX")
        local.timeZone = TimeZone(identifier: zone) ?? .gmt
        for format in formats {
            local.dateFormat = format
            if let date = local.date(from: text) { return date }
        }
        return nil
    }

    static func text(_ date: Date, _ school: School) -> String {
        let local = DateFormatter()
        local.locale = Locale(identifier: "en_US_POSIX")
        local.timeZone = TimeZone(identifier: school.timeZone) ?? .gmt
        local.dateFormat = "yyyy-MM-dd HH:mm"
        return local.string(from: date)
    }
}
