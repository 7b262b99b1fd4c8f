import AsyncHTTPClient
import Attendance
import Auth
import Core
import Foundation
import Glibc
import HogwartsTestSupport
import NIOCore
import NIOSSL
import Notifications
import Students
import Synchronization

/// `hogwarts-bench --delivery [--quick] [--json]`: notifications leaving the server, to real
/// servers on loopback: the APNs stand-in (nginx, HTTP/2 over TLS, Tests/Support) and aiosmtpd
/// reached through msmtp (the sendmail interface). Needs nginx, openssl, msmtp and aiosmtpd, as
/// the tests do.
/// - Throughput: absences marked first (each an alert to the guardian's iPhone and her mailbox), then one `DeliverOutbox` pass sends them all, beside the floor: the same pushes
///   posted straight with AsyncHTTPClient and the same mails piped straight to msmtp, one by one.
/// - Latency: one absence at a time, from the mark's commit to the push's arrival at the stand-in,
///   with a delivery loop running as a server's would (but without the 5 s between passes a
///   server waits when nothing was due; docs/operations.md), beside a bare push's round trip.
struct DeliveryBench {
    let quick: Bool

    func run() throws -> [Figure] {
        let absences = quick ? 12 : 200
        let samples = quick ? 10 : 60
        let directory = FileManager.default.temporaryDirectory.appending(path: "hogwarts-bench-delivery-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let apns = try PushStandIn(in: directory)
        defer { apns.stop() }
        let smtp = try MailSink(in: directory)
        defer { smtp.stop() }
        let agent = try MailSink.agent(port: smtp.port)
        setenv("HOGWARTS_SENDMAIL", agent, 1)

        let kernel = try Kernel(databasePath: directory.appending(path: "bench.sqlite").path,
                                modules: [AuthModule(), StudentsModule(), AttendanceModule(), NotificationsModule()])
        try kernel.migrate()
        let school = try kernel.createDemoSchools()[0]
        let admin = Principal(userID: "bench-admin", role: .admin, schoolID: school.id, displayName: "bench")
        let key = directory.appending(path: "AuthKey_ABC123DEFG.p8")
        guard try PushStandIn.run("/usr/bin/openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", key.path]) == 0 else {
            throw BenchSetupError("openssl could not make an EC key")
        }
        for (name, value) in [("email-from", "office@school.example.org"), ("site-url", "https://school.example.org"), ("apns-key-path", key.path),
                              ("apns-key-id", "ABC123DEFG"), ("apns-team-id", "TEAM123456"), ("apns-topic", "org.databayt.hogwarts"),
                              ("apns-url", apns.url), ("push-ca-path", apns.certificate),
                              ("log-path", directory.appending(path: "outbox.log").path)] {
            try kernel.setSetting("notifications.\(name)", to: value, for: school.id, by: .localOperator)
        }
        guard let user = try kernel.run(SignIn.self, .init(email: "parent@databayt.org", password: AuthDemo.password), as: .anonymous, in: school.id).user else {
            throw BenchSetupError("the demo's guardian could not sign in")
        }
        let parent = Principal(userID: user.id, role: user.role, schoolID: school.id, displayName: user.displayName)
        // One phone: registering a platform's token retires the person's other tokens of it.
        _ = try kernel.run(RegisterDevice.self, .init(token: String(repeating: "a", count: 64), platform: .ios), as: parent, in: school.id)
        let child = try kernel.run(ListStudents.self, .init(), as: parent, in: school.id).students[0]
        _ = try DeliverOutbox.run(kernel, as: admin, in: school.id)
        var days = Self.schoolDays.makeIterator()
        func markAbsent() throws {
            guard let (date, period) = days.next() else { throw BenchSetupError("out of school days") }
            _ = try kernel.run(TakeAttendance.self, .init(classCode: child.classCode ?? "", date: date, period: period,
                                                          marks: [AttendanceMark(student: child.grNumber, status: .absent)]), as: admin, in: school.id)
        }

        // Throughput: the outbox filled, then one pass.
        for _ in 0..<absences { try markAbsent() }
        let (pushesBefore, mailsBefore) = (try apns.requests().count, smtp.count)
        let pass = try Clock.time { _ = try DeliverOutbox.run(kernel, as: admin, in: school.id) }
        let pushes = try apns.requests().count - pushesBefore
        let mails = try smtp.waitFor(mailsBefore + absences) - mailsBefore
        guard pushes == absences, mails == absences else { throw BenchSetupError("sent \(pushes) pushes and \(mails) mails of \(absences) each") }
        let floor = try Clock.time { try Self.floor(pushes: pushes, mails: mails, apns: apns, agent: agent) }
        FileHandle.standardError.write(Data("delivery: \(pushes) pushes and \(mails) mails in \(Report.milliseconds(pass)) (\(Int(Double(pushes + mails) / pass)) a second), floor \(Report.milliseconds(floor))\n".utf8))

        // Latency: one absence at a time, a delivery loop running beside.
        let running = RunningFlag()
        let loop = Thread {
            while running.isSet {
                let sent = (try? DeliverOutbox.run(kernel, as: admin, in: school.id).sent) ?? 0
                if sent == 0 { Thread.sleep(forTimeInterval: 0.005) }
            }
        }
        running.set(true)
        loop.start()
        var latencies: [Double] = []
        for _ in 0..<samples {
            let seen = try apns.requests().count
            try markAbsent()
            let committed = Date().timeIntervalSince1970
            let deadline = Date().addingTimeInterval(30)
            var arrived: [PushStandIn.Recorded] = []
            while arrived.isEmpty, Date() < deadline {
                Thread.sleep(forTimeInterval: 0.002)
                arrived = Array(try apns.requests().dropFirst(seen))
            }
            guard let first = arrived.compactMap(\.at).min() else { throw BenchSetupError("a push did not arrive within 30 s") }
            latencies.append(first - committed)
        }
        running.set(false)
        let bare = try (0..<samples).map { _ in try Clock.time { try Self.bareRoundTrip(apns) } }
        return [
            Figure(scenario: "Delivery: \(pushes) pushes and \(mails) emails, one pass (\(Int(Double(pushes + mails) / pass))/s)", rows: pushes + mails,
                   seconds: pass, floorSeconds: floor, floorKind: "the same pushes and mails sent straight, one by one", target: "3x"),
            Figure(scenario: "Delivery: mark committed to push arrived, p50 of \(samples)", rows: 1, seconds: Self.percentile(latencies, 0.5),
                   floorSeconds: Self.percentile(bare, 0.5), floorKind: "a bare push's round trip, p50", target: "-"),
            Figure(scenario: "Delivery: mark committed to push arrived, p99 of \(samples)", rows: 1, seconds: Self.percentile(latencies, 0.99),
                   floorSeconds: Self.percentile(bare, 0.99), floorKind: "a bare push's round trip, p99", target: "-"),
        ]
    }

    /// Weekdays from September, eight periods each: a new absence, so a new alert, every time.
    static var schoolDays: [(String, String)] {
        let calendar = Calendar(identifier: .gregorian)
        var days: [(String, String)] = []
        for month in [9, 10, 11] {
            for day in 1...30 {
                let date = String(format: "2026-%02d-%02d", month, day)
                guard let parsed = ISO8601DateFormatter().date(from: date + "T12:00:00Z"), (2...6).contains(calendar.component(.weekday, from: parsed)),
                      parsed < Date().addingTimeInterval(-86400) else { continue }
                days += (1...8).map { (date, "P\($0)") }
            }
        }
        return days
    }

    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))]
    }

    /// The floor: what sending costs with no platform around it.
    static func floor(pushes: Int, mails: Int, apns: PushStandIn, agent: String) throws {
        let pushing = try Clock.time { for _ in 0..<pushes { try bareRoundTrip(apns) } }
        FileHandle.standardError.write(Data("delivery floor: \(pushes) pushes in \(Report.milliseconds(pushing))\n".utf8))
        let message = Array("From: office@school.example.org\nTo: parent@databayt.org\nSubject: floor\n\nfloor\n".utf8)
        let words = agent.split(separator: " ").map(String.init)
        for _ in 0..<mails { try spawn(words, input: message) }
    }

    /// The agent started with posix_spawn and the message written to its input: the least a
    /// sendmail-interface hand-off can cost.
    static func spawn(_ words: [String], input: [UInt8]) throws {
        var pipe: [Int32] = [0, 0]
        guard Glibc.pipe(&pipe) == 0 else { throw BenchSetupError("pipe failed") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipe[0], 0)
        posix_spawn_file_actions_addclose(&actions, pipe[1])
        let arguments = words.map { strdup($0) } + [nil]
        defer { for argument in arguments { free(argument) } }
        var child: pid_t = 0
        guard posix_spawn(&child, words[0], &actions, nil, arguments, environ) == 0 else { throw BenchSetupError("cannot start \(words[0])") }
        close(pipe[0])
        _ = input.withUnsafeBytes { write(pipe[1], $0.baseAddress, $0.count) }
        close(pipe[1])
        var status: Int32 = 0
        waitpid(child, &status, 0)
    }

    /// One push as APNs takes it, without a platform: the same path, headers and a body of the same size.
    static func bareRoundTrip(_ apns: PushStandIn) throws {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.additionalTrustRoots = [.file(apns.certificate)]
        let body = #"{"aps":{"alert":{"title":"غياب","body":"نور سليمان غائبة اليوم"},"badge":1,"sound":"default"},"notification":"floor"}"#
        let request = try HTTPClient.Request(url: "\(apns.url)/3/device/\(String(repeating: "f", count: 64))", method: .POST,
                                             headers: ["authorization": "bearer floor", "apns-topic": "org.databayt.hogwarts", "apns-push-type": "alert",
                                                       "content-type": "application/json"],
                                             body: .byteBuffer(ByteBuffer(string: body)), tlsConfiguration: tls)
        _ = try HTTPClient.shared.execute(request: request, deadline: .now() + .seconds(20)).wait()
    }
}

struct BenchSetupError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A flag the latency loop's thread reads.
final class RunningFlag: Sendable {
    private let value = Mutex(false)
    var isSet: Bool { value.withLock { $0 } }
    func set(_ new: Bool) { value.withLock { $0 = new } }
}

/// aiosmtpd on a free loopback port, writing a Maildir: the bench counts what arrived.
final class MailSink: @unchecked Sendable {
    let process = Process()
    let port: Int
    let maildir: URL

    init(in directory: URL) throws {
        port = try LoopbackPort.free()
        maildir = directory.appending(path: "maildir")
        process.executableURL = URL(filePath: "/usr/bin/env")
        process.arguments = ["python3", "-m", "aiosmtpd", "-n", "-l", "127.0.0.1:\(port)", "-c", "aiosmtpd.handlers.Mailbox", maildir.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(20)
        while !LoopbackPort.accepts(port) {
            guard Date() < deadline else { throw BenchSetupError("aiosmtpd did not start: pip install aiosmtpd") }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// msmtp, the sendmail interface the server is given (`HOGWARTS_SENDMAIL`).
    static func agent(port: Int) throws -> String {
        guard let msmtp = ["/usr/bin/msmtp", "/usr/local/bin/msmtp"].first(where: FileManager.default.isExecutableFile) else {
            throw BenchSetupError("msmtp is missing: apt-get install msmtp")
        }
        return "\(msmtp) --host=127.0.0.1 --port=\(port) --auth=off --tls=off --read-envelope-from -t"
    }

    var count: Int { ((try? FileManager.default.contentsOfDirectory(atPath: maildir.appending(path: "new").path)) ?? []).count }

    /// Waits up to 30 s for `total` messages; returns how many there are.
    func waitFor(_ total: Int) throws -> Int {
        let deadline = Date().addingTimeInterval(30)
        while count < total, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        return count
    }

    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
