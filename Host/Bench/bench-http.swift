import Core
import Foundation
import NIOPosix

/// `hogwarts-bench --http`: wrk on loopback against a release `hogwarts serve` on the bench
/// school, beside two floors run in this process (Hummingbird hello-world, and the student list
/// without the platform), and sign-in, which bcrypt bounds, apart, alone and beside the student list.
struct HTTPBench {
    struct Options {
        var serverThreads: Int
        var connections: Int
        var signInConnections: Int
        var seconds: Int
        var warmupSeconds: Int
        /// The machine's load average before the bench built its school.
        var loadAverage: Double
    }

    static let hello = "floor: hello-world"
    static let bare = "floor: bare student list (teacher)"

    let school: BenchSchool
    let binary: URL
    let options: Options

    func run() throws -> (figures: [HTTPFigure], settings: HTTPRunSettings) {
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw BenchHTTPError("no \(binary.path): swift build -c release --product hogwarts")
        }
        guard let executable = Wrk.find() else { throw BenchHTTPError("wrk is not on the PATH: apt-get install -y wrk") }
        let wrk = Wrk(executable: executable, directory: school.directory, threads: 2, seconds: options.seconds, warmupSeconds: options.warmupSeconds)
        let fixtures = try school.httpFixtures()
        progress("school ready: class C00 \(fixtures.classID) with \(fixtures.studentIDs.count) students, today \(fixtures.today)")

        let pool = NIOThreadPool(numberOfThreads: options.serverThreads)
        pool.start()
        defer { try? pool.syncShutdownGracefully() }
        var figures = try floors(fixtures, wrk: wrk, pool: pool)
        figures += try platform(fixtures, wrk: wrk)
        figures += try inProcess(fixtures, wrk: wrk, pool: pool)

        let settings = HTTPRunSettings(students: school.scale.students, cores: ProcessInfo.processInfo.activeProcessorCount, serverThreads: options.serverThreads,
                                       wrkThreads: wrk.threads, seconds: options.seconds, warmupSeconds: options.warmupSeconds,
                                       date: ISO8601DateFormatter().string(from: Date()), loadAverage: options.loadAverage)
        return (HTTPReport.compare(figures, bare: Self.bare, hello: Self.hello), settings)
    }

    /// Hello-world, the bare student list and the bare bulk write, in this process, on ports the system picks.
    private func floors(_ fixtures: HTTPFixtures, wrk: Wrk, pool: NIOThreadPool) throws -> [HTTPFigure] {
        let hello = try InProcessServer.start(Floors.helloWorld())
        defer { try? hello.stop() }
        let bare = try InProcessServer.start(Floors.bareStudentList(try BareStudentList.make(databasePath: school.databasePath, kernel: school.kernel, threadPool: pool)))
        defer { try? bare.stop() }
        let write = try InProcessServer.start(Floors.bareBulkWrite(try BareBulkWrite.make(databasePath: school.databasePath, kernel: school.kernel)))
        defer { try? write.stop() }
        let list = "/students?page=1&per_page=20"
        let me = getpid()
        let figures = [
            try measure(get(Self.hello, port: hello.port, "/hello", token: nil, pid: me), kind: .floor, wrk: wrk),
            try measure(get(Self.bare, port: bare.port, list, token: fixtures.teacherToken, pid: me), kind: .floor, wrk: wrk),
            try measure(get("floor: bare student list (admin)", port: bare.port, list, token: fixtures.adminToken, pid: me), kind: .floor, wrk: wrk),
        ]
        return figures + (try measureBulkWrites(fixtures, port: write.port, path: "/attendance/bulk", pid: me, prefix: Self.bareWrite, kind: .floor, wrk: wrk))
    }

    /// The routes through a release `hogwarts serve`; sign-in last, as its per-address limit
    /// (10 a minute) turns nearly every attempt into a 429.
    private func platform(_ fixtures: HTTPFixtures, wrk: Wrk) throws -> [HTTPFigure] {
        let server = try ServedHogwarts(binary: binary, databasePath: school.databasePath, threads: options.serverThreads)
        defer { server.stop() }
        progress("hogwarts serve listening on \(server.port) (\(options.serverThreads) kernel threads)")
        let (port, pid) = (server.port, server.pid)
        let list = "/api/mobile/students?page=1&per_page=20"
        let register = "/api/mobile/attendance/class/\(fixtures.classID)?date=\(fixtures.today)"
        var figures = [
            try measure(get("GET /students (teacher)", port: port, list, token: fixtures.teacherToken, pid: pid), kind: .platform, wrk: wrk,
                        isStudentListGoal: true),
            try measure(get("GET /students (admin)", port: port, list, token: fixtures.adminToken, pid: pid), kind: .platform, wrk: wrk),
            try measure(get("GET /attendance/class/:id (C00)", port: port, register, token: fixtures.teacherToken, pid: pid), kind: .platform, wrk: wrk),
        ]
        figures += try measureBulkWrites(fixtures, port: port, path: "/api/mobile/attendance/bulk", pid: pid, prefix: "POST /attendance/bulk", kind: .platform, wrk: wrk)
        var signIn = try measure(post("POST /auth (hogwarts serve, 10/min per address)", port: port, "/api/mobile/auth", body: fixtures.signInBody,
                                      token: nil, connections: options.signInConnections, pid: pid, countsStatuses: true), kind: .signIn, wrk: wrk)
        signIn.note = [signIn.note, "the per-address limit answers 429; `hogwarts serve` has no option to raise it"].compactMap { $0 }.joined(separator: "; ")
        figures.append(signIn)
        return figures
    }

    /// Sign-in through the platform's own `APIServer` in this process, with the per-address limit
    /// raised (Core's `signInLimit`; `serve` does not expose it): what bcrypt allows. Then the
    /// student list on the same server, alone and with sign-ins going on beside it (the start of a
    /// school day): what the password lane leaves to reads.
    private func inProcess(_ fixtures: HTTPFixtures, wrk: Wrk, pool: NIOThreadPool) throws -> [HTTPFigure] {
        let server = APIServer(kernel: school.kernel, threadPool: pool, signInLimit: .init(attempts: 1_000_000_000, window: 60))
        try Blocking.run { try await server.prepare() }
        let port = try LoopbackHTTP.freePort()
        let running = try InProcessServer.start(server.application(host: "127.0.0.1", port: port, logger: InProcessServer.quietLogger), port: port)
        defer { try? running.stop() }
        let me = getpid()
        let signIn = post("POST /auth (APIServer in-process, limit raised)", port: port, "/api/mobile/auth", body: fixtures.signInBody,
                          token: nil, connections: options.signInConnections, pid: me, countsStatuses: true)
        var alone = try measure(signIn, kind: .signIn, wrk: wrk)
        alone.note = [alone.note, "bench's kernel, no request log"].compactMap { $0 }.joined(separator: "; ")
        let list = get("GET /students (teacher), in-process", port: port, "/api/mobile/students?page=1&per_page=20", token: fixtures.teacherToken, pid: me)
        let listAlone = try measure(list, kind: .besideSignIn, wrk: wrk)

        let during = try wrk.measure(list, beside: signIn)
        let listDuring = HTTPFigure(endpoint: list.name + " beside sign-ins", kind: .besideSignIn, connections: list.connections, result: during.target,
                                    note: String(format: "while %d connections sign in, %.1f a second", signIn.connections, during.beside.requestsPerSecond))
        let signInDuring = HTTPFigure(endpoint: "POST /auth beside the student list", kind: .besideSignIn, connections: signIn.connections,
                                      result: during.beside, note: "over the list's warm-up and run")
        progress(String(format: "%@: %.0f req/s, p99 %.2f ms, beside %.1f sign-ins a second (p99 %.0f ms)", listDuring.endpoint,
                        during.target.requestsPerSecond, during.target.p99Milliseconds, during.beside.requestsPerSecond, during.beside.p99Milliseconds))
        return [alone, listAlone, listDuring, signInDuring]
    }

    /// The bulk write measured two ways, each named `prefix` + its way and compared with the bare
    /// bulk write measured the same way. "Sent again": the same register on every request (an
    /// app's retry, a replayed queue). "Each changed": each wrk thread alternates all-PRESENT and
    /// all-LATE registers, so nearly every request changes every record.
    private func measureBulkWrites(_ fixtures: HTTPFixtures, port: Int, path: String, pid: Int32, prefix: String,
                                   kind: HTTPFigure.Kind, wrk: Wrk) throws -> [HTTPFigure] {
        let records = fixtures.studentIDs.count
        let ways = [(" (C00, \(records) records, sent again)", ["PRESENT"]), (" (C00, \(records) records, each changed)", ["PRESENT", "LATE"])]
        return try ways.map { way, statuses in
            var target = post(prefix + way, port: port, path, body: fixtures.bulkAttendanceBody(statuses[statuses.count - 1]), token: fixtures.teacherToken,
                              connections: options.connections, pid: pid)
            if statuses.count > 1 { target.bodies = statuses.map(fixtures.bulkAttendanceBody) }
            var figure = try measure(target, kind: kind, wrk: wrk)
            figure.floor = Self.bareWrite + way
            return figure
        }
    }

    static let bareWrite = "floor: bare bulk write"

    private func get(_ name: String, port: Int, _ path: String, token: String?, pid: Int32) -> WrkTarget {
        WrkTarget(name: name, port: port, method: "GET", path: path, headers: token.map(bearer) ?? [:], connections: options.connections, serverPID: pid)
    }

    private func post(_ name: String, port: Int, _ path: String, body: String, token: String?, connections: Int, pid: Int32,
                      countsStatuses: Bool = false) -> WrkTarget {
        WrkTarget(name: name, port: port, method: "POST", path: path, headers: (token.map(bearer) ?? [:]).merging(json) { $1 }, body: body,
                  connections: connections, serverPID: pid, countsStatuses: countsStatuses)
    }

    /// One request first, shown on stderr with its status (and body when not 2xx), so a route
    /// that is missing or refuses is explained; then wrk, unless the route is not there (404).
    private func measure(_ target: WrkTarget, kind: HTTPFigure.Kind, wrk: Wrk, isStudentListGoal: Bool = false) throws -> HTTPFigure {
        var figure = HTTPFigure(endpoint: target.name, kind: kind, connections: target.connections)
        figure.isStudentListGoal = isStudentListGoal
        let first = try LoopbackHTTP.request(port: target.port, method: target.method, path: target.path, headers: target.headers, body: target.body)
        let shown = (200..<300).contains(first.status) ? "\(first.body.utf8.count) bytes" : String(first.body.prefix(300))
        progress("\(target.name): first answer \(first.status), \(shown)")
        if first.status == 404 {
            figure.note = "not measured: 404 \(first.body.prefix(120))"
            return figure
        }
        if !(200..<300).contains(first.status) { figure.note = "first answer \(first.status)" }
        let result = try wrk.measure(target)
        figure.result = result
        let statuses = result.statuses.filter { $0.key != "200" && $0.key != "201" }
        if !statuses.isEmpty {
            let succeeded = result.statuses["200", default: 0] + result.statuses["201", default: 0]
            let counted = statuses.sorted { $0.key < $1.key }.map { "\($0.key)×\($0.value)" } + ["2xx×\(succeeded)"]
            let label = target.countsStatuses ? "statuses " : "warm-up statuses "
            figure.note = [figure.note, label + counted.joined(separator: ", ")].compactMap { $0 }.joined(separator: "; ")
        }
        progress(String(format: "%@: %.0f req/s, p50 %.2f ms, p99 %.2f ms, errors %d, server CPU %.0f µs/request", target.name, result.requestsPerSecond,
                        result.p50Milliseconds, result.p99Milliseconds, result.errors, result.serverCPUMicroseconds ?? -1))
        return figure
    }

    private func bearer(_ token: String) -> [String: String] { ["Authorization": "Bearer \(token)"] }
    private var json: [String: String] { ["Content-Type": "application/json"] }

    private func progress(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
