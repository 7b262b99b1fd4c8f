import ArgumentParser
import Core
import Foundation

/// `hogwarts events list|show|add|cancel|register|leave|feed`: thin commands that parse, run an action and print.
struct EventsCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "events", abstract: L("events.cli.abstract"),
                             subcommands: [List.self, Show.self, Add.self, Cancel.self, Register.self, Leave.self, Feed.self], defaultSubcommand: List.self)
    }

    static func when(_ entry: CalendarEntry) -> String {
        var text = entry.startsOn
        if entry.endsOn != entry.startsOn { text += " → " + entry.endsOn }
        if let start = entry.startTime { text += " " + start + (entry.endTime.map { "-" + $0 } ?? "") }
        return text
    }

    struct List: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "list", abstract: L("events.cli.list")) }

        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Option(help: ArgumentHelp(L("events.option.from"))) var from: String?
        @Option(help: ArgumentHelp(L("events.option.to"))) var to: String?

        func run() throws {
            let session = try CommandSession(global, self.session)
            let today = CivilDate(Date(), in: TimeZone(identifier: session.school.timeZone) ?? .gmt)
            let entries = try session.run(ListCalendar.self, .init(from: from ?? today.description, to: to ?? today.adding(days: 60).description))
            try session.output.emit(entries) { entries in
                TextTable(headers: [L("events.heading.id"), L("events.heading.when"), L("events.heading.title"), L("events.heading.type"),
                                    L("events.heading.for"), L("events.heading.registered")],
                          rows: entries.map { [$0.id, EventsCommand.when($0), $0.title + ($0.cancelled ? " (" + L("events.cancelled-mark") + ")" : ""),
                                               $0.type.rawValue, $0.classCode ?? L("events.audience.school"),
                                               $0.isEvent ? String($0.registrations) + ($0.maxAttendees.map { "/\($0)" } ?? "") : ""] })
            }
        }
    }

    struct Show: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "show", abstract: L("events.cli.show")) }

        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("events.argument.id"))) var id: String

        func run() throws {
            let session = try CommandSession(global, self.session)
            try session.output.emit(try session.run(ShowCalendarEntry.self, .init(id: id))) { entry in
                TextTable(lines: [entry.title, EventsCommand.when(entry) + (entry.location.isEmpty ? "" : " · " + entry.location), entry.description,
                                  L("events.registrations", ["count": String(entry.registrations), "mine": entry.myRegistration?.rawValue ?? "-"])])
            }
        }
    }

    struct Add: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "add", abstract: L("events.cli.add")) }

        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Option(help: ArgumentHelp(L("events.option.title"))) var title: String
        @Option(help: ArgumentHelp(L("events.option.date"))) var date: String
        @Option(name: .customLong("end-date"), help: ArgumentHelp(L("events.option.end-date"))) var endDate: String?
        @Option(help: ArgumentHelp(L("events.option.time"))) var time: String?
        @Option(name: .customLong("end-time"), help: ArgumentHelp(L("events.option.end-time"))) var endTime: String?
        @Option(help: ArgumentHelp(L("events.option.type"))) var type: EventType = .other
        @Option(help: ArgumentHelp(L("events.option.location"))) var location = ""
        @Option(help: ArgumentHelp(L("events.option.description"))) var description = ""
        @Option(name: .customLong("class"), help: ArgumentHelp(L("events.option.class"))) var classCode: String?
        @Flag(help: ArgumentHelp(L("events.option.registration"))) var registration = false
        @Option(help: ArgumentHelp(L("events.option.max"))) var max: Int?

        func run() throws {
            let session = try CommandSession(global, self.session)
            let made = try session.run(CreateEvent.self, .init(
                title: title, description: description, type: type, startsOn: date, endsOn: endDate, startTime: time, endTime: endTime,
                location: location, classCode: classCode, registrationRequired: registration || max != nil, maxAttendees: max))
            try session.output.emit(made) { L("events.added", ["id": $0.id, "title": $0.title, "when": EventsCommand.when($0)]) }
        }
    }

    struct Cancel: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "cancel", abstract: L("events.cli.cancel")) }

        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("events.argument.id"))) var id: String

        func run() throws {
            let session = try CommandSession(global, self.session)
            let done = try session.run(CancelEvent.self, .init(id: id))
            try session.output.emit(["cancelled": done]) { _ in L("events.cancelled", ["id": id]) }
        }
    }

    struct Register: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "register", abstract: L("events.cli.register")) }

        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("events.argument.id"))) var id: String

        func run() throws {
            let session = try CommandSession(global, self.session)
            let status = try session.run(RegisterForEvent.self, .init(id: id))
            try session.output.emit(["status": status.rawValue]) { _ in L(status == .registered ? "events.registered" : "events.waitlisted") }
        }
    }

    struct Leave: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "leave", abstract: L("events.cli.leave")) }

        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("events.argument.id"))) var id: String

        func run() throws {
            let session = try CommandSession(global, self.session)
            let done = try session.run(LeaveEvent.self, .init(id: id))
            try session.output.emit(["left": done]) { _ in L("events.left", ["id": id]) }
        }
    }

    struct Feed: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "feed", abstract: L("events.cli.feed")) }

        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions

        func run() throws {
            let session = try CommandSession(global, self.session)
            try session.output.emit(try session.run(MakeCalendarFeed.self, .init())) { L("events.feed", ["path": $0.path]) }
        }
    }
}

extension EventType: ExpressibleByArgument {}
