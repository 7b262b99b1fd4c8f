import Attendance
import Auth
import Core
import Foundation
import Students
import Timetable

/// `swift run -c release hogwarts-bench [--lookups N] [--json]`
///
/// Builds the demo school in a temporary database and measures the platform's hot paths,
/// printing one line per scenario. Timetable: "which week is it" and "what is my lesson now"
/// answered from memory, and the whole `now` action through the kernel (database reads included).
/// Attendance: a whole school day marked class by class and period by period through the action
/// path (then again, the update path), and whole-school statistics over the term.
@main
enum HogwartsBench {
    struct Figure: Codable {
        let scenario: String
        let operations: Int
        let seconds: Double
        /// Records written or read, where that says more than the operation count.
        var rows: Int?
        var perOperationMicroseconds: Double { seconds / Double(operations) * 1_000_000 }
        var operationsPerSecond: Double { Double(operations) / seconds }
    }

    static func main() throws {
        let arguments = CommandLine.arguments
        let lookups = arguments.firstIndex(of: "--lookups").flatMap { Int(arguments[$0 + 1]) } ?? 10_000
        let json = arguments.contains("--json")

        let directory = FileManager.default.temporaryDirectory.appending(path: "hogwarts-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let moment = Date(timeIntervalSince1970: 1_795_334_400) // 2026-11-22 06:00 UTC
        let kernel = try Kernel(databasePath: directory.appending(path: "bench.sqlite").path,
                                modules: [AuthModule(), StudentsModule(), TimetableModule(), AttendanceModule()], clock: { moment })
        try kernel.migrate()
        let school = try kernel.createDemoSchools()[0]
        let admin = Principal(userID: "bench", role: .admin, schoolID: school.id, displayName: "bench")

        var figures: [Figure] = []
        // From memory: the demo calendar and one class's fortnight, asked about many moments.
        func day(_ text: String) -> CivilDate { CivilDate(text) ?? CivilDate(dayNumber: 0) }
        let yearStart = day("2026-09-01")
        let calendar = CycleCalendar(
            cycleLength: 2, workingDays: [0, 1, 2, 3, 4], mode: .schoolWeeks, termReset: false, anchor: nil,
            terms: [DateSpan(yearStart, day("2027-01-31")), DateSpan(day("2027-02-01"), day("2027-06-30"))],
            closures: [DateSpan(day("2026-11-01"), day("2026-11-05"))], overrides: [])
        let slots = try kernel.run(ViewTimetable.self, .init(target: .classCode("7A"), span: .fortnight), as: admin, in: school.id).days.flatMap(\.lessons)
        var checksum = 0
        figures.append(measure("cycle: which week (memory)", lookups) { index in
            if case .week(let letter) = calendar.week(of: yearStart.adding(days: index % 300)) { checksum &+= letter }
        })
        figures.append(measure("timetable now (memory)", lookups) { index in
            let time = String(format: "%02d:%02d", 7 + index % 8, index % 60)
            let answer = NowAndNext.answer(title: "7A", today: yearStart.adding(days: index % 300), time: time, calendar: calendar, slots: slots)
            checksum &+= answer.next == nil ? 0 : 1
        })
        figures.append(measure("timetable now (kernel action)", max(1, lookups / 10)) { _ in
            let answer = try? kernel.run(NowAndNext.self, .init(target: .classCode("7A")), as: admin, in: school.id)
            checksum &+= answer?.current == nil ? 0 : 1
        })
        let classes = try kernel.run(ListClasses.self, .init(), as: admin, in: school.id).map(\.code)
        let periods = ["P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8"]
        for pass in ["attendance: school day, first marking", "attendance: school day, marked again"] {
            var records = 0
            var figure = measure(pass, classes.count * periods.count) { index in
                let result = try? kernel.run(TakeAttendance.self, .init(classCode: classes[index / periods.count], period: periods[index % periods.count],
                                                                       marks: [AttendanceMark(student: String(1 + index % 20), status: pass.hasSuffix("again") ? .late : .absent)]),
                                             as: admin, in: school.id)
                records += (result?.created ?? 0) + (result?.changed ?? 0) + (result.map { $0.totals.counted - $0.created - $0.changed } ?? 0)
            }
            figure.rows = records
            figures.append(figure)
        }
        var statsRows = 0
        var stats = measure("attendance: whole-school stats, term", 1) { _ in
            let output = try? kernel.run(AttendanceStats.self, .init(from: "2026-08-23", to: "2026-11-22"), as: admin, in: school.id)
            statsRows = output?.school.totals.counted ?? 0
        }
        stats.rows = statsRows
        figures.append(stats)
        report(figures, json: json, checksum: checksum)
    }

    static func figureRowsPerSecond(_ figure: Figure) -> String {
        guard let rows = figure.rows else { return "-" }
        return String(format: "%.0f (%d rows)", Double(rows) / figure.seconds, rows)
    }

    static func measure(_ scenario: String, _ operations: Int, _ body: (Int) -> Void) -> Figure {
        let start = DispatchTime.now().uptimeNanoseconds
        for index in 0..<operations { body(index) }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return Figure(scenario: scenario, operations: operations, seconds: seconds)
    }

    static func report(_ figures: [Figure], json: Bool, checksum: Int) {
        var usage = rusage()
        getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
        let peakMegabytes = Double(usage.ru_maxrss) / 1024
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            if let data = try? encoder.encode(figures) { print(String(decoding: data, as: UTF8.self)) }
            return
        }
        let table = TextTable(
            headers: ["scenario", "operations", "total ms", "µs/op", "ops/s", "rows/s"],
            rows: figures.map { [$0.scenario, String($0.operations), String(format: "%.1f", $0.seconds * 1000),
                                 String(format: "%.2f", $0.perOperationMicroseconds), String(format: "%.0f", $0.operationsPerSecond),
                                 figureRowsPerSecond($0)] })
        print(table.rendered, terminator: "")
        print(String(format: "peak resident memory: %.1f MB (checksum %d)", peakMegabytes, checksum))
    }
}
