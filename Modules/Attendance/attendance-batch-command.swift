import ArgumentParser
import Core
import Foundation

extension AttendanceCommand {
    /// `attendance take-batch --file registers.json`: many registers in one transaction, all or nothing.
    struct TakeBatch: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "take-batch", abstract: L("attendance.cli.take-batch")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Option(name: .customLong("file"), help: ArgumentHelp(L("attendance.option.registers-file"))) var file: String

        func run() throws {
            let registers = try RegistersFile.read(file)
            let session = try CommandSession(global, self.session)
            let result = try session.run(TakeRegisters.self, .init(registers: registers))
            try session.output.emit(result) { result in
                var table = TextTable(
                    headers: [L("attendance.heading.class"), L("attendance.heading.date"), L("attendance.heading.period"), L("attendance.heading.present"),
                              L("attendance.heading.absent"), L("attendance.heading.late"), L("attendance.heading.new"), L("attendance.heading.changed")],
                    rows: result.registers.map { [$0.classCode, $0.date.description, $0.period, String($0.totals.present), String($0.totals.absent),
                                                  String($0.totals.late), String($0.created), String($0.changed)] })
                table.footer = L("attendance.batch.taken", [
                    "count": String(result.registers.count),
                    "created": String(result.registers.reduce(0) { $0 + $1.created }),
                    "changed": String(result.registers.reduce(0) { $0 + $1.changed }),
                ])
                return table
            }
        }
    }
}

/// Registers from a JSON file: an array of `TakeRegisters`' registers, keys in snake_case (as
/// `--json` prints them) or camelCase, e.g. `[{"class_code": "7A", "period": "P1",
/// "marks": [{"student": "3", "status": "ABSENT"}]}]`. Only `class_code` is required.
enum RegistersFile {
    static func read(_ path: String) throws -> [TakeAttendance.Input] {
        guard let data = FileManager.default.contents(atPath: path) else { throw KernelError.fileMissing(path) }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        do { return try decoder.decode([TakeAttendance.Input].self, from: data) } catch { throw AttendanceError.invalidRegistersFile(path) }
    }
}
