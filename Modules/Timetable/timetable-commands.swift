import ArgumentParser
import Core

/// `--class`, `--teacher` or `--student`: whose timetable (default: your own).
struct TargetOptions: ParsableArguments {
    @Option(name: .customLong("class"), help: ArgumentHelp(L("timetable.option.class"))) var classCode: String?
    @Option(name: .customLong("teacher"), help: ArgumentHelp(L("timetable.option.teacher"))) var teacher: String?
    @Option(name: .customLong("student"), help: ArgumentHelp(L("timetable.option.student"))) var student: String?

    func validate() throws {
        if [classCode, teacher, student].compactMap({ $0 }).count > 1 { throw ValidationError(L("timetable.error.one-target")) }
    }

    var target: TimetableTarget {
        if let classCode { return .classCode(classCode) }
        if let teacher { return .teacher(teacher) }
        if let student { return .student(student) }
        return .mine
    }
}

struct TimetableCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "timetable", abstract: L("timetable.cli.abstract"),
            subcommands: [Week.self, Day.self, Fortnight.self, Now.self, Cycle.self, SlotsCommand.self, PeriodsCommand.self, CalendarCommand.self],
            defaultSubcommand: Week.self)
    }

    /// Runs a view and prints it with `render`.
    static func show(_ span: TimetableView.Span, _ global: GlobalOptions, _ options: SessionOptions, _ target: TargetOptions, date: String?,
                     render: (TimetableView) -> TextTable) throws {
        let session = try CommandSession(global, options)
        let view = try session.run(ViewTimetable.self, .init(target: target.target, date: date, span: span))
        try session.output.emit(view, table: render)
    }

    struct Week: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "week", abstract: L("timetable.cli.week")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @OptionGroup var target: TargetOptions
        @Option(name: .customLong("date"), help: ArgumentHelp(L("timetable.option.date"))) var date: String?

        func run() throws { try TimetableCommand.show(.week, global, session, target, date: date, render: TimetableRender.grid) }
    }

    struct Day: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "day", abstract: L("timetable.cli.day")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @OptionGroup var target: TargetOptions
        @Option(name: .customLong("date"), help: ArgumentHelp(L("timetable.option.date"))) var date: String?

        func run() throws { try TimetableCommand.show(.day, global, session, target, date: date, render: TimetableRender.day) }
    }

    struct Fortnight: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "fortnight", abstract: L("timetable.cli.fortnight")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @OptionGroup var target: TargetOptions

        func run() throws { try TimetableCommand.show(.fortnight, global, session, target, date: nil, render: TimetableRender.grid) }
    }

    struct Now: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "now", abstract: L("timetable.cli.now")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @OptionGroup var target: TargetOptions

        func run() throws {
            let session = try CommandSession(global, self.session)
            let answer = try session.run(NowAndNext.self, .init(target: target.target))
            try session.output.emit(answer) { answer in
                func describe(_ lesson: NowAndNext.Lesson?) -> String {
                    guard let lesson else { return L("timetable.nothing") }
                    let slot = lesson.slot
                    return "\(TimetableRender.dayName(lesson.date.weekday)) \(lesson.date) \(slot.startsAt)-\(slot.endsAt) "
                        + "\(slot.subjectName.text(in: session.kernel.localizer.language)) \(slot.classCode) \(slot.teacherName) \(slot.room) (\(TimetableRender.weekName(lesson.week)))"
                }
                return TextTable(lines: [
                    L("timetable.now.heading", ["who": answer.title, "time": answer.now]),
                    L("timetable.now.current", ["lesson": describe(answer.current)]),
                    L("timetable.now.next", ["lesson": describe(answer.next)]),
                ])
            }
        }
    }

    struct Cycle: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "cycle", abstract: L("timetable.cli.cycle")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Option(name: .customLong("from"), help: ArgumentHelp(L("timetable.option.from"))) var from: String
        @Option(name: .customLong("to"), help: ArgumentHelp(L("timetable.option.to"))) var to: String

        func run() throws {
            let session = try CommandSession(global, self.session)
            let weeks = try session.run(CycleWeeks.self, .init(from: from, to: to))
            try session.output.emit(weeks) { weeks in
                TextTable(headers: [L("timetable.heading.week-of"), L("timetable.heading.week"), L("timetable.heading.school-days")],
                          rows: weeks.map { [$0.weekStart.description, TimetableRender.weekName($0.week), String($0.schoolDays)] })
            }
        }
    }
}
