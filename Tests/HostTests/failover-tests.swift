import Core
import Foundation
import HogwartsTestSupport
import Testing

/// PostgreSQL's own failover under load: a primary with a synchronous standby (streaming
/// replication, two clusters of the test's own on loopback), two `serve` nodes given both in one
/// libpq URL with `target_session_attrs=read-write`. The primary is killed mid-load and the
/// standby promoted, as Patroni would do it; the nodes find the new primary by themselves and
/// every acknowledged write is there.
@Suite("Failover to a synchronous standby", .waitsOnProcesses, .serialized,
       .enabled(if: TestDatabase.isPostgres && ReplicatedPair.available, "needs PostgreSQL 15's server programs and HOGWARTS_TEST_DATABASE"))
struct FailoverTests {
    @Test("killed primary, promoted standby: the nodes reconnect without a restart and no acknowledged message is lost")
    func primaryKilledStandbyPromoted() async throws {
        let pair = try ReplicatedPair()
        defer { pair.stop() }
        let hogwarts = try HogwartsProcess(database: pair.url)
        defer { hogwarts.cleanUp() }
        let demo = try hogwarts.run(["demo"])
        #expect(demo.status == 0, "\(demo.stderr)")
        // The default bound, whatever the suite's environment sets for slow CI machines.
        let nodes = try (0..<2).map { _ in try Self.node(hogwarts) }
        defer { for node in nodes { _ = node.stop() } }
        let token = try await nodes[0].signIn("teacher@databayt.org")
        let colleague = try #require(try hogwarts.strings("SELECT id FROM auth_users WHERE email = 'teacher30@databayt.org'").first)
        let conversation = try #require(try await nodes[0].request("POST", "/api/mobile/conversations", token: token,
                                                                   json: ["participant_ids": [colleague], "type": "direct"]).object["id"] as? String)

        let log = WriteLog()
        // Writers on threads of their own (see threaded-requests.swift), two per node.
        let path = "/api/mobile/conversations/\(conversation)/messages"
        let writers = LoadThreads(count: 4) { writer, number in
            let content = "writer \(writer) message \(number)"
            let start = Date()
            let answer = try? nodes[(writer + number) % 2].requestWaiting("POST", path, token: token, json: ["content": content])
            let status = answer?.status ?? 0
            log.record(content: content, status: status, at: start)
            if status != 201 && status != 200 { Thread.sleep(forTimeInterval: 0.1) }
        }
        try await Task.sleep(for: .seconds(4))
        let killedAt = Date()
        try pair.killPrimary()
        try await Task.sleep(for: .seconds(2))
        try pair.promoteStandby()
        // Writes go on until the nodes have written through the new primary for a while.
        let recovered = try await eventually(within: 60) { log.acknowledged(after: killedAt.addingTimeInterval(2)) >= 20 }
        await writers.stop()
        #expect(recovered, "writes are acknowledged again after the promotion, without restarting the nodes")

        let stored = Set(try hogwarts.strings("SELECT body FROM messages_messages WHERE conversation_id = '\(conversation)'"))
        let acknowledged = log.acknowledgedContents
        let lost = acknowledged.subtracting(stored)
        #expect(lost.isEmpty, "\(lost.count) of \(acknowledged.count) acknowledged messages lost: \(lost.prefix(5))")
        let outage = log.outageSeconds
        print("failover: \(acknowledged.count) acknowledged writes, \(lost.count) lost, \(log.refused) refused (503 or no answer) over \(String(format: "%.1f", outage)) s")
        #expect(log.refused > 0, "the writes during the failover were refused, not silently dropped")
    }

    /// A node with the default connect bound of 2 s. `serve` refuses to start on a database that
    /// does not answer within it (a loaded 2-core machine starting two clusters can take longer
    /// once), and is started again, as systemd's `Restart=on-failure` does.
    static func node(_ hogwarts: HogwartsProcess) throws -> ServedHogwarts {
        for _ in 1..<3 {
            do {
                return try ServedHogwarts(hogwarts, environment: ["HOGWARTS_DATABASE_CONNECT_TIMEOUT": "2"])
            } catch ServedHogwarts.ServeError.didNotStart {
                Thread.sleep(forTimeInterval: 2)
            }
        }
        return try ServedHogwarts(hogwarts, environment: ["HOGWARTS_DATABASE_CONNECT_TIMEOUT": "2"])
    }

}

/// What the writers sent and what each answer was.
final class WriteLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [(content: String, status: Int, at: Date)] = []

    func record(content: String, status: Int, at: Date) { lock.withLock { entries.append((content, status, at)) } }

    var acknowledgedContents: Set<String> { lock.withLock { Set(entries.filter { (200..<300).contains($0.status) }.map(\.content)) } }
    var refused: Int { lock.withLock { entries.filter { !(200..<300).contains($0.status) }.count } }
    func acknowledged(after moment: Date) -> Int { lock.withLock { entries.filter { $0.at > moment && (200..<300).contains($0.status) }.count } }

    /// From the first refused write to the last one.
    var outageSeconds: Double {
        lock.withLock {
            let refused = entries.filter { !(200..<300).contains($0.status) }.map(\.at)
            guard let first = refused.min(), let last = refused.max() else { return 0 }
            return last.timeIntervalSince(first)
        }
    }
}

/// A primary and a synchronous standby of the test's own, on free loopback ports, run as the
/// `postgres` user when the test runs as root (PostgreSQL refuses root).
struct ReplicatedPair {
    static let bin = "/usr/lib/postgresql/15/bin"
    static var available: Bool { FileManager.default.isExecutableFile(atPath: bin + "/pg_basebackup") }

    let folder: URL
    let primaryPort: Int
    let standbyPort: Int
    var url: String { "postgres://postgres@127.0.0.1:\(primaryPort),127.0.0.1:\(standbyPort)/hogwarts?target_session_attrs=read-write" }
    private var primary: String { folder.appending(path: "primary").path }
    private var standby: String { folder.appending(path: "standby").path }

    init() throws {
        folder = URL(filePath: "/tmp").appending(path: "hogwarts-failover-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        primaryPort = try LoopbackPort.free()
        standbyPort = try LoopbackPort.free()
        try asPostgres("chown -R postgres \(folder.path)", asRoot: true)
        try asPostgres("\(Self.bin)/initdb -D \(primary) -U postgres -A trust >/dev/null")
        try asPostgres("\(Self.bin)/pg_ctl -D \(primary) -l \(folder.path)/primary.log -w -o '-k \(folder.path) -c listen_addresses=127.0.0.1 -p \(primaryPort)' start >/dev/null")
        try asPostgres("\(Self.bin)/createdb -h 127.0.0.1 -p \(primaryPort) -U postgres hogwarts")
        try asPostgres("\(Self.bin)/pg_basebackup -D \(standby) -R -d 'host=127.0.0.1 port=\(primaryPort) user=postgres application_name=standby' >/dev/null")
        try asPostgres("\(Self.bin)/pg_ctl -D \(standby) -l \(folder.path)/standby.log -w -o '-k \(folder.path) -c listen_addresses=127.0.0.1 -p \(standbyPort)' start >/dev/null")
        // Synchronous once the standby is there: from now on a commit is acknowledged only when
        // the standby has it (before, the createdb above would wait for a standby that is not yet there).
        try asPostgres("\(Self.bin)/psql -h 127.0.0.1 -p \(primaryPort) -U postgres -qAt -c \"ALTER SYSTEM SET synchronous_standby_names = 'standby'\" -c 'SELECT pg_reload_conf()' >/dev/null")
    }

    /// SIGKILL to the primary's postmaster, as a crash: its backends go with it.
    func killPrimary() throws {
        try asPostgres("\(Self.bin)/pg_ctl -D \(primary) -m immediate stop >/dev/null")
    }

    func promoteStandby() throws {
        try asPostgres("\(Self.bin)/pg_ctl -D \(standby) -w promote >/dev/null")
    }

    func stop() {
        for cluster in [primary, standby] { try? asPostgres("\(Self.bin)/pg_ctl -D \(cluster) -m immediate stop >/dev/null 2>&1 || true") }
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs a shell command (as `postgres` when the test is root). A server that `pg_ctl start`
    /// leaves running keeps every descriptor it inherited, and Foundation learns that its child
    /// ended only when all copies of one of them are closed: so bash closes all but 0-2 first,
    /// and errors go to a file rather than a pipe.
    func asPostgres(_ command: String, asRoot: Bool = false) throws {
        let errors = folder.appending(path: "setup-errors.log").path
        let line = "\(command) 2>>\(errors)"
        let run = getuid() == 0 && !asRoot ? "su postgres -s /bin/sh -c \"cd / && \(line.replacingOccurrences(of: "\"", with: "\\\""))\"" : line
        let process = Process()
        process.executableURL = URL(filePath: "/bin/bash")
        process.arguments = ["-c", #"for fd in $(ls /proc/$$/fd); do [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done; "# + run]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        guard ChildExit.wait(for: process) == 0 else {
            throw PairError.failed(command, (try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")
        }
    }

    enum PairError: Error { case failed(String, String) }
}
