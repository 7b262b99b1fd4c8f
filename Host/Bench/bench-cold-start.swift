import Core
import Foundation
import Students
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole `hogwarts` processes, beside the `sqlite3` command running the equivalent query (`psql`,
/// libpq's own command, on PostgreSQL).
///
/// Each run is started with `posix_spawn` and reaped with a blocking `wait4`, which also gives the
/// child's CPU time: Foundation's `Process.waitUntilExit` polls the run loop, and rounded every
/// wait to about 50 ms, so a 5 ms `sqlite3` and a 40 ms `hogwarts` both read "52 ms". A command that
/// fails stops the bench with what it printed on stderr: a failure measures nothing.
extension BenchSchool {
    func coldStart(binary: URL) throws -> [Figure] {
        let student = directory.appending(path: "student-config")
        let admin = directory.appending(path: "admin-config")
        try session(email: "pupil@bench.org", role: .student, configDirectory: student)
        try session(email: "head@bench.org", role: .admin, configDirectory: admin)
        let gr = try run(ListStudents.self, .init(classCode: classCodes[0], sort: .name)).students[0].grNumber
        let shell = postgres == nil ? ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3"] : ["/usr/bin/psql", "/usr/local/bin/psql"]
        let floorCommand = shell.first { FileManager.default.isExecutableFile(atPath: $0) }
        // The command's arguments for one query: `sqlite3 FILE SQL`, or `psql -X -d URL -c SQL`.
        func query(_ sql: String) -> [String] { postgres == nil ? [databasePath, sql] : ["-X", "-q", "-d", databasePath, "-c", sql] }
        func environment(_ config: URL?) -> [String: String] {
            var variables = ProcessInfo.processInfo.environment
            variables["HOGWARTS_DATABASE"] = databasePath
            variables["HOGWARTS_CONFIG_DIR"] = config?.path
            return variables
        }
        // The bench's kernel has fewer modules than `hogwarts`, which refuses a database that lacks
        // its other modules' migrations: apply them once, not measured.
        _ = try ChildProcess.run(binary.path, ["migrate", "--database", databasePath], environment: environment(nil))

        // Full runs: many pairs, ours and the floor in turn, so a change in the machine's load
        // falls on both; the medians are quoted.
        let runs = scale.processRuns >= 11 ? 41 : scale.processRuns
        func pair(_ arguments: [String], config: URL, floorSQL: String) throws -> (ours: ChildTimes, floor: ChildTimes?) {
            let ours = (binary.path, arguments, environment(config))
            let floor = floorCommand.map { ($0, query(floorSQL), environment(nil)) }
            // One run of each first, not counted: the files are then in the page cache for both.
            _ = try ChildProcess.run(ours.0, ours.1, environment: ours.2)
            if let floor { _ = try ChildProcess.run(floor.0, floor.1, environment: floor.2) }
            var oursRuns: [ChildTimes] = []
            var floorRuns: [ChildTimes] = []
            for _ in 0..<runs {
                oursRuns.append(try ChildProcess.run(ours.0, ours.1, environment: ours.2))
                if let floor { floorRuns.append(try ChildProcess.run(floor.0, floor.1, environment: floor.2)) }
            }
            return (ChildTimes.median(oursRuns), floorRuns.isEmpty ? nil : ChildTimes.median(floorRuns))
        }
        let now = try pair(["timetable", "now"], config: student, floorSQL: """
            SELECT t.day, p.starts_at FROM timetable_slots t JOIN timetable_periods p ON p.school_id = t.school_id AND p.id = t.period_id \
            WHERE t.school_id = '\(school.id)' ORDER BY t.day, p.starts_at
            """)
        let history = try pair(["attendance", "history", "--student", gr], config: admin, floorSQL: """
            SELECT r.date, r.status FROM attendance_records r JOIN students_students s ON s.school_id = r.school_id AND s.id = r.student_id \
            WHERE s.school_id = '\(school.id)' AND s.gr_number = '\(gr)' AND s.archived_at IS NULL ORDER BY r.date
            """)
        return [
            Figure(scenario: "cold start: hogwarts timetable now (wall)", rows: 1, seconds: now.ours.wall, floorSeconds: now.floor?.wall, target: "1.2x"),
            Figure(scenario: "cold start: hogwarts timetable now (CPU)", rows: 1, seconds: now.ours.cpu, floorSeconds: now.floor?.cpu, target: "1.2x"),
            Figure(scenario: "cold start: hogwarts attendance history (wall)", rows: scale.statsDays, seconds: history.ours.wall,
                   floorSeconds: history.floor?.wall, target: "1.2x"),
            Figure(scenario: "cold start: hogwarts attendance history (CPU)", rows: scale.statsDays, seconds: history.ours.cpu,
                   floorSeconds: history.floor?.cpu, target: "1.2x"),
        ]
    }
}

/// One finished child: wall time from start to reaped, and its user plus system CPU time.
struct ChildTimes {
    let wall: Double
    let cpu: Double

    /// Each figure's own median.
    static func median(_ runs: [ChildTimes]) -> ChildTimes {
        func middle(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        return ChildTimes(wall: middle(runs.map(\.wall)), cpu: middle(runs.map(\.cpu)))
    }
}

enum ChildProcess {
    /// Runs `path` with `arguments`, stdout to /dev/null and stderr to a file read only if it fails,
    /// and waits for it without polling. Throws when it cannot start or does not exit with 0.
    static func run(_ path: String, _ arguments: [String], environment: [String: String]) throws -> ChildTimes {
        let errors = FileManager.default.temporaryDirectory.appending(path: "hogwarts-bench-\(getpid())-stderr.txt").path
        defer { unlink(errors) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }

        var start = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, envp)
        guard spawned == 0 else { throw BenchError.commandFailed(path, arguments, String(cString: strerror(spawned))) }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) == -1 && errno == EINTR {}
        var end = timespec()
        clock_gettime(CLOCK_MONOTONIC, &end)

        // Exited normally (no signal) with status 0; the macros are not visible from Swift.
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            let said = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
            let how = status & 0x7f == 0 ? "exit status \((status >> 8) & 0xff)" : "signal \(status & 0x7f)"
            throw BenchError.commandFailed(URL(filePath: path).lastPathComponent, arguments, "\(how): \(said)")
        }
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        let wall = Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
        return ChildTimes(wall: wall, cpu: seconds(usage.ru_utime) + seconds(usage.ru_stime))
    }
}
