import ArgumentParser
import Core
import Foundation
import Students

/// `swift run -c release hogwarts-bench [--students 2000] [--quick] [--json]`
/// `hogwarts-bench --http [--threads 4] [--connections 64] [--seconds 10]`
/// `hogwarts-bench --sync [--quick]`, `hogwarts-bench --sync-fuzz [--clients 20 --mutations 10000 --seed S]`
/// `hogwarts-bench --database postgres://postgres@127.0.0.1:5433/bench`: the same scenarios on
/// PostgreSQL, each beside its PostgreSQL floor (libpq, the engine's driver, without the platform).
///
/// Builds a school at the chosen scale in a temporary database and prints one table: each
/// scenario's time through the platform beside its floor (the same work straight against SQLite),
/// the ratio, rows per second, and the process's peak memory. `--http` measures the HTTP API
/// instead (wrk against a release `hogwarts serve`, beside two floors). `--quick` is a small
/// school for CI, which only proves the benchmark still runs: no time ever fails a build.
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
    @Option(help: "A postgres:// URL: build the school in a new schema on that server (dropped at the end) and measure against PostgreSQL floors. Without it, a temporary SQLite file.")
    var database: String?
    @Flag(help: "Only the import scenario: to profile one import, e.g. under callgrind.")
    var importOnly = false
    @Option(help: "Only one group of scenarios, after the setup it needs: attendance (the four days), stats, report-cards (at 100,000 students the others take most of an hour).")
    var only: OnlyScenarios?
    @Option(help: "One scenario's work alone, for callgrind (take, take-again, batch, batch-floor, take-floor, import, import-floor); see bench-profile.swift.")
    var profile: String?
    @Flag(help: "The school has offline devices, so every write also records its changes for sync (a school without any records none).")
    var devices = false
    @Flag(help: "Only the OneRoster import (10,000 users, 40,000 enrollments) beside its floor; see bench-oneroster.swift.")
    var oneroster = false
    @Flag(help: "Only the Fees module: a year's invoices and one payment per student, beside their floors; see bench-fees.swift.")
    var fees = false
    @Flag(help: "Only notification delivery: pushes to the APNs stand-in and mail through msmtp to aiosmtpd, a pass's rate and the time from a mark to its push, beside their floors; see bench-delivery.swift.")
    var delivery = false
    @Flag(name: .customLong("cold-start"), help: "Only the cold starts: `hogwarts timetable now` and `attendance history` as whole processes beside `sqlite3` (needs `hogwarts` built beside this binary); see bench-cold-start.swift.")
    var coldStartOnly = false
    @Flag(help: "Only the offline sync scenarios (a teacher's push and pull beside their floors); the full run ends with them too. See bench-sync.swift.")
    var sync = false
    @Flag(help: "The sync fuzz at full size (devices of six users, a nemesis, partitions, kills, server restarts); see bench-sync-fuzz.swift.")
    var syncFuzz = false
    @Option(help: "--sync-fuzz: devices.")
    var clients: Int = 20
    @Option(help: "--sync-fuzz: mutations queued in all.")
    var mutations: Int = 10_000
    @Option(help: "--sync-fuzz: the seed of a run to repeat (printed by every run).")
    var seed: UInt64?
    @Flag(help: "The HTTP API under wrk: `hogwarts serve` (next to this binary) beside a hello-world and a bare student list.")
    var http = false
    @Option(help: "--http: the server's kernel threads (`hogwarts serve --threads`; default as serve's).")
    var threads: Int?
    @Option(help: "--http: wrk connections for the routes.")
    var connections: Int = 64
    @Option(help: "--http: wrk connections for sign-in (bcrypt-bound).")
    var signInConnections: Int = 4
    @Option(help: "--http: seconds each wrk run measures (after a short warm-up).")
    var seconds: Int?

    func validate() throws {
        guard (100...100_000).contains(students) else { throw ValidationError("--students must be between 100 and 100000.") }
        guard (1...256).contains(threads ?? 1), (1...10_000).contains(connections), (1...1_000).contains(signInConnections),
              (1...3_600).contains(seconds ?? 1), (1...1_000).contains(clients), (1...1_000_000).contains(mutations) else {
            throw ValidationError("--threads 1-256, --connections 1-10000, --sign-in-connections 1-1000, --seconds 1-3600, --clients 1-1000, --mutations 1-1000000.")
        }
        if let database {
            guard database.hasPrefix("postgres://") || database.hasPrefix("postgresql://") else {
                throw ValidationError("--database takes a postgres:// URL (the SQLite bench makes its own temporary file).")
            }
            // Their floors are written for SQLite only (GRDB, the served file, callgrind's single process).
            guard !http, !syncFuzz, !oneroster, !fees, !delivery, profile == nil else {
                throw ValidationError("--database postgres://... runs the main scenarios and --sync, not --http, --sync-fuzz, --oneroster, --fees, --delivery or --profile.")
            }
        }
    }

    func run() throws {
        if syncFuzz { return try SyncFuzzBench.run(clients: clients, mutations: mutations, seed: seed) }
        if oneroster { return Report.print(try OneRosterBench(quick: quick).run(), json: json, peakMegabytes: Clock.peakMegabytes) }
        if delivery { return Report.print(try DeliveryBench(quick: quick).run(), json: json, peakMegabytes: Clock.peakMegabytes) }
        if fees { return Report.print(try FeesBench(students: quick ? 120 : students).run(), json: json, peakMegabytes: Clock.peakMegabytes) }
        let scale = quick ? BenchScale.quick : BenchScale.full(students: students)
        let binary = URL(filePath: CommandLine.arguments[0]).deletingLastPathComponent().appending(path: "hogwarts")

        let school = try BenchSchool(scale: scale, devices: devices, database: database)
        if let profile {
            guard let scenario = ProfileScenario(rawValue: profile) else {
                throw ValidationError("--profile: one of " + ProfileScenario.allCases.map(\.rawValue).joined(separator: ", "))
            }
            let (units, unit) = try school.profile(scenario)
            return print("\(scenario.rawValue): \(units) units, a unit is one \(unit)")
        }
        guard !http else { return try runHTTP(school, binary: binary) }
        guard !sync else { return try runSync(school) }
        guard !coldStartOnly else { return try runColdStart(school, binary: binary) }
        var figures: [Figure] = []
        // Each figure notes the peak memory so far, so a scenario that raises it shows; and a
        // line on stderr as it is measured, for long runs at scale.
        func add(_ new: [Figure]) {
            for var figure in new {
                figure.peakMegabytes = Clock.peakMegabytes
                let floor = figure.floorSeconds.map(Report.milliseconds) ?? "-"
                let memory = "ours \(Report.megabytes(figure.oursPeakMegabytes)) MB, floor \(Report.megabytes(figure.floorPeakMegabytes)) MB"
                let line = "\(figure.scenario): \(Report.milliseconds(figure.seconds)), floor \(floor), \(memory), peak \(Int(Clock.peakMegabytes)) MB\n"
                FileHandle.standardError.write(Data(line.utf8))
                figures.append(figure)
            }
        }
        try school.buildRoster()
        add([try school.importScenario()])
        guard !importOnly else { return Report.print(figures, json: json, peakMegabytes: Clock.peakMegabytes) }
        if only == nil || only == .attendance {
            try school.buildTimetable()
            for pass in 1...2 {
                add([try school.attendanceDay(pass: pass)])
                add([try school.attendanceDayOneTransaction(pass: pass)])
            }
        }
        if only == nil || only == .stats {
            let (from, to) = try school.seedAttendanceHistory()
            add([try school.attendanceStats(from: from, to: to)])
        }
        if only == nil || only == .reportCards {
            let results = try school.seedResults()
            add([try school.reportCards(results: results)])
        }
        guard only == nil else { return Report.print(figures, json: json, peakMegabytes: Clock.peakMegabytes) }
        let reader = try school.seedMessages()
        add([try school.unreadCounts(reader)])
        add([try school.arabicSearch(reader)])
        // Last: the first device makes the school record changes, which the scenarios above must not pay.
        let sync = try school.syncScenarios()
        // After sync, listed before it: `hogwarts migrate` (its other modules' tables) makes the
        // school answer a device with a reset, and the cold starts only read.
        if FileManager.default.isExecutableFile(atPath: binary.path) {
            add(try school.coldStart(binary: binary))
        }
        add(sync)
        Report.print(figures, json: json, peakMegabytes: Clock.peakMegabytes)
    }

    /// The school as the other scenarios build it (roster, the import, periods, attendance history), then the cold starts alone.
    private func runColdStart(_ school: BenchSchool, binary: URL) throws {
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw ValidationError("--cold-start times \(binary.path): build it first (swift build -c release --product hogwarts).")
        }
        try school.buildRoster()
        try school.run(ImportStudents.self, .init(csv: school.studentsCSV(), dryRun: false))
        try school.buildTimetable()
        _ = try school.seedAttendanceHistory()
        Report.print(try school.coldStart(binary: binary), json: json, peakMegabytes: Clock.peakMegabytes)
    }

    /// The school as the other scenarios build it (roster, the import, periods), then the sync scenarios alone.
    private func runSync(_ school: BenchSchool) throws {
        try school.buildRoster()
        try school.run(ImportStudents.self, .init(csv: school.studentsCSV(), dryRun: false))
        try school.buildTimetable()
        let figures = try school.syncScenarios().map { figure in
            var figure = figure
            figure.peakMegabytes = Clock.peakMegabytes
            return figure
        }
        Report.print(figures, json: json, peakMegabytes: Clock.peakMegabytes)
    }

    /// The school as the other scenarios build it (roster, the import, one class's timetable), then the HTTP runs.
    private func runHTTP(_ school: BenchSchool, binary: URL) throws {
        let loadAverage = HTTPRunSettings.currentLoadAverage
        try school.buildRoster()
        try school.run(ImportStudents.self, .init(csv: school.studentsCSV(), dryRun: false))
        try school.buildTimetable()
        let options = HTTPBench.Options(
            serverThreads: threads ?? APIServer.defaultThreads, connections: connections,
            signInConnections: signInConnections, seconds: seconds ?? (quick ? 2 : 10), warmupSeconds: quick ? 1 : 2, loadAverage: loadAverage)
        let (figures, settings) = try HTTPBench(school: school, binary: binary, options: options).run()
        HTTPReport.print(figures, settings: settings, json: json)
    }
}

/// `--only`: one group of the main scenarios, each after the setup it needs (the roster and the import first).
enum OnlyScenarios: String, ExpressibleByArgument, CaseIterable {
    case attendance
    case stats
    case reportCards = "report-cards"
}
