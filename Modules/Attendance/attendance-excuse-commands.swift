import ArgumentParser
import Core

struct OpenCheckInCommand: ParsableCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "open-check-in", abstract: L("attendance.cli.open-check-in")) }
    @OptionGroup var global: GlobalOptions
    @OptionGroup var session: SessionOptions
    @Option(name: .customLong("class"), help: ArgumentHelp(L("attendance.option.class"))) var classCode: String
    @Option(name: .customLong("period"), help: ArgumentHelp(L("attendance.option.period"))) var period: String?

    func run() throws {
        let session = try CommandSession(global, self.session)
        let window = try session.run(OpenCheckIn.self, .init(classCode: classCode, period: period))
        try session.output.emit(window) { L("attendance.check-in.opened", ["code": $0.code, "class": $0.classCode, "until": $0.expiresAt.formatted(.iso8601)]) }
    }
}

struct CheckInCommand: ParsableCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "checkin", abstract: L("attendance.cli.checkin")) }
    @OptionGroup var global: GlobalOptions
    @OptionGroup var session: SessionOptions
    @Option(name: .customLong("code"), help: ArgumentHelp(L("attendance.option.code"))) var code: String

    func run() throws {
        let session = try CommandSession(global, self.session)
        let result = try session.run(CheckIn.self, .init(code: code))
        try session.output.emit(result) { result in
            L(result.alreadyCheckedIn ? "attendance.check-in.again" : "attendance.check-in.done", ["status": result.status.rawValue, "class": result.classCode])
        }
    }
}

/// Parses `--reason`.
private func reason(_ text: String) throws -> ExcuseReason {
    guard let reason = ExcuseReason(rawValue: text.uppercased()) else {
        throw CommandError.invalidArgument(name: "--reason", value: text, expected: ExcuseReason.allCases.map(\.rawValue).joined(separator: "|"))
    }
    return reason
}

struct ExcuseCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "excuse", abstract: L("attendance.cli.excuse"), subcommands: [Submit.self, List.self, Approve.self, Reject.self], defaultSubcommand: List.self)
    }

    struct Submit: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "submit", abstract: L("attendance.cli.excuse.submit")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Option(name: .customLong("student"), help: ArgumentHelp(L("attendance.option.student"))) var student: String
        @Option(name: .customLong("date"), help: ArgumentHelp(L("attendance.option.date"))) var date: String
        @Option(name: .customLong("period"), help: ArgumentHelp(L("attendance.option.period"))) var period: String?
        @Option(name: .customLong("reason"), help: ArgumentHelp(L("attendance.option.reason"))) var reasonText: String
        @Option(name: .customLong("description"), help: ArgumentHelp(L("attendance.option.description"))) var description = ""

        func run() throws {
            let reason = try reason(reasonText)
            let session = try CommandSession(global, self.session)
            let id = try session.run(SubmitExcuse.self, .init(grNumber: student, date: date, period: period, reason: reason, description: description))
            try session.output.emit(["excuse": id]) { _ in L("attendance.excuse.submitted", ["excuse": String(id.prefix(8))]) }
        }
    }

    struct List: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "list", abstract: L("attendance.cli.excuse.list")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Flag(name: .customLong("pending"), help: ArgumentHelp(L("attendance.option.pending"))) var pending = false

        func run() throws {
            let session = try CommandSession(global, self.session)
            try session.output.emit(try session.run(ListExcuses.self, .init(status: pending ? .pending : nil)).excuses) { excuses in
                TextTable(headers: [L("attendance.heading.excuse"), L("attendance.heading.student"), L("attendance.heading.date"), L("attendance.heading.reason"), L("attendance.heading.status")],
                          rows: excuses.map { [String($0.id.prefix(8)), "\($0.grNumber) \($0.studentName)", $0.date, $0.reason.rawValue, $0.status.rawValue] })
            }
        }
    }

    struct Approve: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "approve", abstract: L("attendance.cli.excuse.approve")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("attendance.argument.excuse"))) var excuse: String
        @Option(name: .customLong("note"), help: ArgumentHelp(L("attendance.option.note"))) var note: String?

        func run() throws { try ExcuseCommand.decide(excuse, approve: true, note: note, global, session) }
    }

    struct Reject: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "reject", abstract: L("attendance.cli.excuse.reject")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("attendance.argument.excuse"))) var excuse: String
        @Option(name: .customLong("note"), help: ArgumentHelp(L("attendance.option.note"))) var note: String?

        func run() throws { try ExcuseCommand.decide(excuse, approve: false, note: note, global, session) }
    }

    static func decide(_ excuse: String, approve: Bool, note: String?, _ global: GlobalOptions, _ options: SessionOptions) throws {
        let session = try CommandSession(global, options)
        let decided = try session.run(ReviewExcuse.self, .init(excuse: excuse, approve: approve, note: note))
        try session.output.emit(decided) { L("attendance.excuse.decided", ["student": $0.grNumber, "date": $0.date, "status": $0.status.rawValue]) }
    }
}

struct NoticeCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "notice", abstract: L("attendance.cli.notice"), subcommands: [Submit.self, Decide.self])
    }

    struct Submit: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "submit", abstract: L("attendance.cli.notice.submit")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Option(name: .customLong("student"), help: ArgumentHelp(L("attendance.option.student"))) var student: String
        @Option(name: .customLong("from"), help: ArgumentHelp(L("attendance.option.from"))) var from: String
        @Option(name: .customLong("to"), help: ArgumentHelp(L("attendance.option.to"))) var to: String
        @Option(name: .customLong("reason"), help: ArgumentHelp(L("attendance.option.reason"))) var reasonText: String
        @Option(name: .customLong("description"), help: ArgumentHelp(L("attendance.option.description"))) var description = ""

        func run() throws {
            let reason = try reason(reasonText)
            let session = try CommandSession(global, self.session)
            let id = try session.run(SubmitNotice.self, .init(grNumber: student, from: from, to: to, reason: reason, description: description))
            try session.output.emit(["notice": id]) { _ in L("attendance.notice.submitted", ["notice": String(id.prefix(8))]) }
        }
    }

    struct Decide: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "decide", abstract: L("attendance.cli.notice.decide")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("attendance.argument.notice"))) var notice: String
        @Flag(name: .customLong("approve"), help: ArgumentHelp(L("attendance.option.approve"))) var approve = false

        func run() throws {
            let session = try CommandSession(global, self.session)
            let excused = try session.run(ReviewNotice.self, .init(notice: notice, approve: approve))
            try session.output.emit(["excused_records": excused]) { _ in L(approve ? "attendance.notice.approved" : "attendance.notice.rejected", ["count": String(excused)]) }
        }
    }
}
