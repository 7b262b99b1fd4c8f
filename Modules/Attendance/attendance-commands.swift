import ArgumentParser
import Core
import Foundation

struct AttendanceCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "attendance", abstract: L("attendance.cli.abstract"),
            subcommands: [Take.self, TakeBatch.self, Register.self, OpenCheckInCommand.self, CheckInCommand.self, ScanCardCommand.self, ExcuseCommand.self, NoticeCommand.self,
                          History.self, Stats.self, Export.self])
    }

    /// A rate with as many decimals (1 to 4) as it takes to stay in its band: 94.99 reads
    /// "94.99%" beside AT_RISK, not "95.0%", which is where SATISFACTORY starts.
    static func percent(_ rate: Double?) -> String {
        rate.map { PercentText.text($0) { RiskBand(rate: $0) } } ?? "-"
    }

    static func registerTable(_ lines: [ClassRegister.Line]) -> TextTable {
        TextTable(headers: ["#", L("attendance.heading.gr"), L("attendance.heading.name"), L("attendance.heading.status")],
                  rows: lines.map { [String($0.position), $0.grNumber, $0.name, $0.status?.rawValue ?? "-"] })
    }

    struct Take: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "take", abstract: L("attendance.cli.take")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Option(name: .customLong("class"), help: ArgumentHelp(L("attendance.option.class"))) var classCode: String
        @Option(name: .customLong("date"), help: ArgumentHelp(L("attendance.option.date"))) var date: String?
        @Option(name: .customLong("period"), help: ArgumentHelp(L("attendance.option.period"))) var period: String?
        @Option(name: .customLong("absent"), help: ArgumentHelp(L("attendance.option.students"))) var absent: String?
        @Option(name: .customLong("late"), help: ArgumentHelp(L("attendance.option.students"))) var late: String?
        @Option(name: .customLong("sick"), help: ArgumentHelp(L("attendance.option.students"))) var sick: String?
        @Option(name: .customLong("excused"), help: ArgumentHelp(L("attendance.option.students"))) var excused: String?
        @Option(name: .customLong("file"), help: ArgumentHelp(L("attendance.option.file"))) var file: String?

        func run() throws {
            var marks: [AttendanceMark] = []
            for (list, status) in [(absent, AttendanceStatus.absent), (late, .late), (sick, .sick), (excused, .excused)] {
                marks += (list ?? "").split(separator: ",").map { AttendanceMark(student: $0.trimmingCharacters(in: .whitespaces), status: status) }
            }
            if let file { marks += try MarkFile.read(file) }
            let session = try CommandSession(global, self.session)
            let result = try session.run(TakeAttendance.self, .init(classCode: classCode, date: date, period: period, marks: marks))
            let register = try session.run(ClassRegister.self, .init(classCode: classCode, date: result.date.description, period: result.period)).lines
            try session.output.emit(result) { result in
                var table = AttendanceCommand.registerTable(register)
                table.footer = L("attendance.taken", [
                    "class": result.classCode, "date": result.date.description, "period": result.period,
                    "present": String(result.totals.present), "absent": String(result.totals.absent), "late": String(result.totals.late),
                    "created": String(result.created), "changed": String(result.changed),
                ])
                return table
            }
        }
    }

    struct Register: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "register", abstract: L("attendance.cli.register")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Option(name: .customLong("class"), help: ArgumentHelp(L("attendance.option.class"))) var classCode: String
        @Option(name: .customLong("date"), help: ArgumentHelp(L("attendance.option.date"))) var date: String?
        @Option(name: .customLong("period"), help: ArgumentHelp(L("attendance.option.period"))) var period: String?

        func run() throws {
            let session = try CommandSession(global, self.session)
            // The lines alone, as before the register learned its date: `--json` prints the same array.
            try session.output.emit(try session.run(ClassRegister.self, .init(classCode: classCode, date: date, period: period)).lines, table: AttendanceCommand.registerTable)
        }
    }

    struct History: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "history", abstract: L("attendance.cli.history")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Option(name: .customLong("student"), help: ArgumentHelp(L("attendance.option.student-default"))) var student: String?
        @Option(name: .customLong("from"), help: ArgumentHelp(L("attendance.option.from"))) var from: String?
        @Option(name: .customLong("to"), help: ArgumentHelp(L("attendance.option.to"))) var to: String?

        func run() throws {
            let session = try CommandSession(global, self.session)
            let history = try session.run(AttendanceHistory.self, .init(grNumber: student, from: from, to: to))
            try session.output.emit(history) { history in
                var table = TextTable(headers: [L("attendance.heading.date"), L("attendance.heading.period"), L("attendance.heading.class"), L("attendance.heading.status"), L("attendance.heading.method")],
                                      rows: history.records.map { [$0.date.description, $0.period, $0.classCode, $0.status.rawValue, $0.method] })
                let totals = history.totals
                table.footer = L("attendance.history.totals", [
                    "name": history.studentName, "present": String(totals.present), "late": String(totals.late), "absent": String(totals.absent),
                    "excused": String(totals.excused), "sick": String(totals.sick), "holiday": String(totals.holiday),
                    "rate": AttendanceCommand.percent(history.rate), "band": history.band?.rawValue ?? "-",
                ])
                return table
            }
        }
    }

    struct Stats: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "stats", abstract: L("attendance.cli.stats")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        // Without --class: the whole school, as far as the principal sees. (A `--school` flag
        // here clashed with the `--school S` every module command takes.)
        @Option(name: .customLong("class"), help: ArgumentHelp(L("attendance.option.class-or-school"))) var classCode: String?
        @Option(name: .customLong("from"), help: ArgumentHelp(L("attendance.option.from"))) var from: String?
        @Option(name: .customLong("to"), help: ArgumentHelp(L("attendance.option.to"))) var to: String?

        func run() throws {
            let session = try CommandSession(global, self.session)
            let stats = try session.run(AttendanceStats.self, .init(classCode: classCode, from: from, to: to))
            try session.output.emit(stats) { stats in
                let rows: [[String]] = classCode == nil
                    ? stats.classes.map { [$0.key, String($0.totals.counted), String($0.totals.present + $0.totals.late), String($0.totals.absences), AttendanceCommand.percent($0.rate), ""] }
                    : stats.students.map { [$0.grNumber + " " + $0.name, String($0.totals.counted), String($0.totals.present + $0.totals.late), String($0.totals.absences),
                                            AttendanceCommand.percent($0.rate), ($0.band?.rawValue ?? "") + ($0.thresholdReached.map { " ≥\($0)" } ?? "")] }
                var table = TextTable(headers: [classCode == nil ? L("attendance.heading.class") : L("attendance.heading.student"), L("attendance.heading.sessions"),
                                                L("attendance.heading.attended"), L("attendance.heading.absences"), L("attendance.heading.rate"), L("attendance.heading.band")],
                                      rows: rows)
                table.footer = L("attendance.stats.footer", ["rate": AttendanceCommand.percent(stats.school.rate), "days": String(stats.days.count)])
                return table
            }
        }
    }

    struct Export: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "export", abstract: L("attendance.cli.export")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Option(name: .customLong("class"), help: ArgumentHelp(L("attendance.option.class"))) var classCode: String?
        @Option(name: .customLong("from"), help: ArgumentHelp(L("attendance.option.from"))) var from: String?
        @Option(name: .customLong("to"), help: ArgumentHelp(L("attendance.option.to"))) var to: String?
        @Flag(name: .customLong("ed-fi-json"), help: ArgumentHelp(L("attendance.option.ed-fi-json"))) var edFiJSON = false

        func run() throws {
            let session = try CommandSession(global, self.session)
            if edFiJSON {
                let events = try session.run(ExportEdFiEvents.self, .init(classCode: classCode, from: from, to: to))
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                let document = EdFiDocument(studentSchoolAttendanceEvents: events.studentSchoolAttendanceEvents,
                                            studentSectionAttendanceEvents: events.studentSectionAttendanceEvents)
                print(String(decoding: try encoder.encode(document), as: UTF8.self))
                if events.leftOut > 0 { FileHandle.standardError.write(Data((L("attendance.ed-fi.left-out", ["count": String(events.leftOut)]) + "\n").utf8)) }
                return
            }
            let rows = try session.run(ExportEdFi.self, .init(classCode: classCode, from: from, to: to))
            if session.output.json {
                try session.output.emit(rows) { _ in TextTable(lines: []) }
            } else {
                print(ExportEdFi.csv(rows), terminator: "")
            }
        }
    }
}

/// Marks from a file: CSV with `student,status[,notes]` (a header row first) or a JSON array of
/// `{"student": "...", "status": "ABSENT", "notes": "..."}`.
enum MarkFile {
    static func read(_ path: String) throws -> [AttendanceMark] {
        guard let data = FileManager.default.contents(atPath: path) else { throw KernelError.fileMissing(path) }
        if path.lowercased().hasSuffix(".json") {
            do { return try JSONDecoder().decode([AttendanceMark].self, from: data) } catch { throw AttendanceError.invalidFile(path) }
        }
        let lines = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).dropFirst()
        return try lines.enumerated().compactMap { index, line in
            let cells = line.split(separator: ",", omittingEmptySubsequences: false).map { CSVCell.restored($0.trimmingCharacters(in: .whitespaces)) }
            guard cells.count >= 2, !cells[0].isEmpty else { return nil }
            guard let status = AttendanceStatus(rawValue: cells[1].uppercased()) else { throw AttendanceError.invalidFile("\(path):\(index + 2)") }
            return AttendanceMark(student: cells[0], status: status, notes: cells.count > 2 ? cells[2] : nil)
        }
    }
}

/// The two Ed-Fi resources' bodies, keyed by resource name: what a loader posts, one by one.
struct EdFiDocument: Encodable {
    let studentSchoolAttendanceEvents: [ExportEdFiEvents.SchoolEvent]
    let studentSectionAttendanceEvents: [ExportEdFiEvents.SectionEvent]
}
