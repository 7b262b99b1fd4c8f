import ArgumentParser
import Core

/// `hogwarts timetable slots list|add|move|delete`: admins place lessons; clashes are refused.
struct SlotsCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "slots", abstract: L("timetable.cli.slots"), subcommands: [List.self, Add.self, Move.self, Delete.self], defaultSubcommand: List.self)
    }

    static func day(_ text: String) throws -> Int {
        guard let day = Weekday.parse(text) else { throw CommandError.invalidArgument(name: "--day", value: text, expected: Weekday.codes.joined(separator: "|")) }
        return day
    }

    static func week(_ text: String) throws -> Int {
        guard let week = WeekSpec.parse(text) else { throw CommandError.invalidArgument(name: "--week", value: text, expected: "ALL|A|B|C|D") }
        return week
    }

    struct List: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "list", abstract: L("timetable.cli.slots.list")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @OptionGroup var target: TargetOptions

        func run() throws {
            let session = try CommandSession(global, self.session)
            let view = try session.run(ViewTimetable.self, .init(target: target.target, span: .fortnight))
            let slots = view.days.flatMap(\.lessons)
            try session.output.emit(slots) { slots in
                TextTable(headers: [L("timetable.heading.slot"), L("timetable.heading.day"), L("timetable.heading.period"), L("timetable.heading.week"),
                                    L("timetable.heading.class"), L("timetable.heading.subject"), L("timetable.heading.teacher"), L("timetable.heading.room")],
                          rows: slots.map { [String($0.id.prefix(8)), Weekday.codes[$0.day], $0.periodCode, WeekSpec.name($0.week), $0.classCode, $0.subjectCode, $0.teacherEmail, $0.room] })
            }
        }
    }

    struct Add: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "add", abstract: L("timetable.cli.slots.add")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Option(name: .customLong("day"), help: ArgumentHelp(L("timetable.option.day"))) var day: String
        @Option(name: .customLong("period"), help: ArgumentHelp(L("timetable.option.period"))) var period: String
        @Option(name: .customLong("week"), help: ArgumentHelp(L("timetable.option.week"))) var week = "ALL"
        @Option(name: .customLong("class"), help: ArgumentHelp(L("timetable.option.class"))) var classCode: String
        @Option(name: .customLong("subject"), help: ArgumentHelp(L("timetable.option.subject"))) var subject: String
        @Option(name: .customLong("teacher"), help: ArgumentHelp(L("timetable.option.teacher"))) var teacher: String
        @Option(name: .customLong("room"), help: ArgumentHelp(L("timetable.option.room"))) var room: String

        func run() throws {
            let placement = SlotPlacement(day: try SlotsCommand.day(day), periodCode: period, week: try SlotsCommand.week(week),
                                          classCode: classCode, subjectCode: subject, teacherEmail: teacher, room: room)
            let session = try CommandSession(global, self.session)
            let id = try session.run(CreateSlot.self, placement)
            try session.output.emit(["slot": id]) { _ in L("timetable.slot.added", ["slot": String(id.prefix(8))]) }
        }
    }

    struct Move: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "move", abstract: L("timetable.cli.slots.move")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("timetable.argument.slot"))) var slot: String
        @Option(name: .customLong("day"), help: ArgumentHelp(L("timetable.option.day"))) var day: String?
        @Option(name: .customLong("period"), help: ArgumentHelp(L("timetable.option.period"))) var period: String?
        @Option(name: .customLong("week"), help: ArgumentHelp(L("timetable.option.week"))) var week: String?
        @Option(name: .customLong("room"), help: ArgumentHelp(L("timetable.option.room"))) var room: String?

        func run() throws {
            let input = MoveSlot.Input(slot: slot, day: try day.map(SlotsCommand.day), periodCode: period, week: try week.map(SlotsCommand.week), room: room)
            let session = try CommandSession(global, self.session)
            let id = try session.run(MoveSlot.self, input)
            try session.output.emit(["slot": id]) { _ in L("timetable.slot.moved", ["slot": String(id.prefix(8))]) }
        }
    }

    struct Delete: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "delete", abstract: L("timetable.cli.slots.delete")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("timetable.argument.slot"))) var slot: String

        func run() throws {
            let session = try CommandSession(global, self.session)
            let id = try session.run(DeleteSlot.self, .init(slot: slot))
            try session.output.emit(["slot": id]) { _ in L("timetable.slot.deleted", ["slot": String(id.prefix(8))]) }
        }
    }
}

/// `hogwarts timetable periods list|add`.
struct PeriodsCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "periods", abstract: L("timetable.cli.periods"), subcommands: [List.self, Add.self], defaultSubcommand: List.self)
    }

    struct List: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "list", abstract: L("timetable.cli.periods.list")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions

        func run() throws {
            let session = try CommandSession(global, self.session)
            try session.output.emit(try session.run(ListPeriods.self, .init())) { periods in
                TextTable(headers: [L("timetable.heading.period"), L("timetable.heading.name"), L("timetable.heading.time")],
                          rows: periods.map { [$0.code, $0.name.text(in: session.kernel.localizer.language) + ($0.isBreak ? " (\(L("timetable.break")))" : ""), "\($0.startsAt)-\($0.endsAt)"] })
            }
        }
    }

    struct Add: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "add", abstract: L("timetable.cli.periods.add")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("timetable.argument.period"))) var code: String
        @Option(name: .customLong("name-ar"), help: ArgumentHelp(L("timetable.option.name-ar"))) var nameArabic: String
        @Option(name: .customLong("name-en"), help: ArgumentHelp(L("timetable.option.name-en"))) var nameEnglish: String
        @Option(name: .customLong("from"), help: ArgumentHelp(L("timetable.option.start-time"))) var from: String
        @Option(name: .customLong("to"), help: ArgumentHelp(L("timetable.option.end-time"))) var to: String
        @Flag(name: .customLong("break"), help: ArgumentHelp(L("timetable.option.break"))) var isBreak = false

        func run() throws {
            let session = try CommandSession(global, self.session)
            try session.run(CreatePeriod.self, .init(code: code, name: LocalizedText(ar: nameArabic, en: nameEnglish), startsAt: from, endsAt: to, isBreak: isBreak))
            try session.output.emit(["period": code]) { _ in L("timetable.period.added", ["period": code]) }
        }
    }
}

/// `hogwarts timetable calendar holiday|override`.
struct CalendarCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "calendar", abstract: L("timetable.cli.calendar"), subcommands: [Holiday.self, Override.self])
    }

    struct Holiday: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "holiday", abstract: L("timetable.cli.calendar.holiday")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Option(name: .customLong("from"), help: ArgumentHelp(L("timetable.option.from"))) var from: String
        @Option(name: .customLong("to"), help: ArgumentHelp(L("timetable.option.to"))) var to: String
        @Option(name: .customLong("name"), help: ArgumentHelp(L("timetable.option.holiday-name"))) var name: String

        func run() throws {
            let session = try CommandSession(global, self.session)
            try session.run(AddClosure.self, .init(from: from, to: to, name: name))
            try session.output.emit(["from": from, "to": to]) { _ in L("timetable.holiday.added", ["name": name, "from": from, "to": to]) }
        }
    }

    struct Override: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "override", abstract: L("timetable.cli.calendar.override")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Option(name: .customLong("date"), help: ArgumentHelp(L("timetable.option.override-date"))) var date: String
        @Option(name: .customLong("week"), help: ArgumentHelp(L("timetable.option.override-week"))) var week: String
        @Flag(name: .customLong("restart"), help: ArgumentHelp(L("timetable.option.restart"))) var restart = false
        @Option(name: .customLong("note"), help: ArgumentHelp(L("timetable.option.note"))) var note = ""

        func run() throws {
            let index = try SlotsCommand.week(week)
            guard index >= 0 else { throw CommandError.invalidArgument(name: "--week", value: week, expected: "A|B|C|D") }
            let session = try CommandSession(global, self.session)
            let weekStart = try session.run(SetWeekOverride.self, .init(date: date, week: index, kind: restart ? .restart : .oneWeek, note: note))
            try session.output.emit(["week_start": weekStart]) { _ in
                L(restart ? "timetable.override.restart" : "timetable.override.one-week", ["week": weekStart, "letter": WeekSpec.name(index)])
            }
        }
    }
}
