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
        try school.buildRoster()
        var figures = [try school.importScenario()]
        guard !importOnly else { return Report.print(figures, json: json, peakMegabytes: Clock.peakMegabytes) }
        try school.buildTimetable()
        for pass in 1...2 {
            figures += [try school.attendanceDay(pass: pass), try school.attendanceDayOneTransaction(pass: pass)]
        }
        let (from, to) = try school.seedAttendanceHistory()
        figures.append(try school.attendanceStats(from: from, to: to))
        let results = try school.seedResults()
        figures.append(try school.reportCards(results: results))
        let reader = try school.seedMessages()
        figures.append(try school.unreadCounts(reader))
        figures.append(try school.arabicSearch(reader))
        if FileManager.default.isExecutableFile(atPath: binary.path) {
            figures += try school.coldStart(binary: binary)
        }
        Report.print(figures, json: json, peakMegabytes: Clock.peakMegabytes)
    }
}
