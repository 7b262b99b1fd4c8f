import ArgumentParser
import Foundation

/// `swift run -c release hogwarts-bench [--students 2000] [--quick] [--json]`
///
/// Builds a school at the chosen scale in a temporary database and prints one table: each
/// scenario's time through the platform beside its floor (the same work straight against SQLite),
/// the ratio, rows per second, and the process's peak memory. `--quick` is a small school for CI,
/// which only proves the benchmark still runs: no time ever fails a build.
@main
struct HogwartsBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hogwarts-bench",
        abstract: "Measures the platform's heavy paths beside their SQLite floors, at a chosen scale.")

    @Option(help: "Students in the benchmark school (60 classes at 2,000).")
    var students: Int = 2000
    @Flag(help: "A small school, in a few seconds: proves the benchmark runs (what CI does).")
    var quick = false
    @Flag(help: "Figures as JSON on stdout.")
    var json = false
    @Flag(help: "Only the import scenario: to profile one import, e.g. under callgrind.")
    var importOnly = false

    func validate() throws {
        guard (100...100_000).contains(students) else { throw ValidationError("--students must be between 100 and 100000.") }
    }

    func run() throws {
        let scale = quick ? BenchScale.quick : BenchScale.full(students: students)
        let binary = URL(filePath: CommandLine.arguments[0]).deletingLastPathComponent().appending(path: "hogwarts")

        let school = try BenchSchool(scale: scale)
        var figures: [Figure] = []
        // Each figure notes the peak memory so far, so a scenario that raises it shows; and a
        // line on stderr as it is measured, for long runs at scale.
        func add(_ new: [Figure]) {
            for var figure in new {
                figure.peakMegabytes = Clock.peakMegabytes
                let floor = figure.floorSeconds.map(Report.milliseconds) ?? "-"
                let line = "\(figure.scenario): \(Report.milliseconds(figure.seconds)), floor \(floor), peak \(Int(Clock.peakMegabytes)) MB\n"
                FileHandle.standardError.write(Data(line.utf8))
                figures.append(figure)
            }
        }
        try school.buildRoster()
        add([try school.importScenario()])
        guard !importOnly else { return Report.print(figures, json: json, peakMegabytes: Clock.peakMegabytes) }
        try school.buildTimetable()
        for pass in 1...2 {
            add([try school.attendanceDay(pass: pass)])
            add([try school.attendanceDayOneTransaction(pass: pass)])
        }
        let (from, to) = try school.seedAttendanceHistory()
        add([try school.attendanceStats(from: from, to: to)])
        let results = try school.seedResults()
        add([try school.reportCards(results: results)])
        let reader = try school.seedMessages()
        add([try school.unreadCounts(reader)])
        add([try school.arabicSearch(reader)])
        if FileManager.default.isExecutableFile(atPath: binary.path) {
            add(try school.coldStart(binary: binary))
        }
        Report.print(figures, json: json, peakMegabytes: Clock.peakMegabytes)
    }
}
