import Core
import HogwartsPostgreSQL
import Foundation
import HogwartsTestSupport
import Testing

/// A database that stops answering, as a frozen host or a network partition looks from a server:
/// every process of a PostgreSQL cluster of its own is stopped with SIGSTOP, then let go. The
/// cluster is this suite's alone (`HOGWARTS_TEST_FAULT_DATABASE`, its data folder in
/// `HOGWARTS_TEST_FAULT_DATA`), so the rest of the suite never sees the outage.
@Suite("A database that stops answering", .waitsOnProcesses, .serialized, .enabled(if: TestDatabase.isPostgres, "needs HOGWARTS_TEST_DATABASE=postgres://..."))
struct DatabaseOutageTests {
    @Test("while it is stopped, /ready answers 503 within its three seconds and requests 503 with Retry-After within three, naming no host; once it runs again, the same server answers without a restart",
          .enabled(if: FaultCluster.configured != nil, "needs HOGWARTS_TEST_FAULT_DATABASE and HOGWARTS_TEST_FAULT_DATA (see .ci/run)"))
    func stoppedAndResumed() async throws {
        let cluster = try #require(FaultCluster.configured)
        let schema = try PostgresScratch.makeSchema(on: cluster.url)
        defer { PostgresScratch.dropSchema(schema, on: cluster.url) }
        let hogwarts = try HogwartsProcess(database: schema)
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo"]).status == 0)
        // The bound under test, whatever the suite's environment sets for slow CI machines.
        let server = try ServedHogwarts(hogwarts, environment: ["HOGWARTS_DATABASE_CONNECT_TIMEOUT": "2"])
        defer { _ = server.stop() }
        let token = try await server.signIn("teacher@databayt.org")
        #expect(try await server.request("GET", "/api/mobile/students?per_page=5", token: token).status == 200)

        let frozen = try Self.processes(ofCluster: cluster.data)
        #expect(frozen.count > 1, "the postmaster and its backends")
        for process in frozen { kill(process, SIGSTOP) }
        let answers: [(path: String, response: ServedHogwarts.Response, seconds: Double)]
        do {
            defer { for process in frozen { kill(process, SIGCONT) } }
            // Timed on threads of their own (see threaded-requests.swift), all at once.
            answers = try await withThrowingTaskGroup(of: (String, ServedHogwarts.Response, Double).self) { group in
                for path in ["/ready", "/api/mobile/students?per_page=5", "/api/mobile/teacher/classes", "/ready"] {
                    group.addTask {
                        let (response, seconds) = await onThreadOfItsOwn { () -> (ServedHogwarts.Response?, Double) in
                            let start = Date()
                            let response = try? server.requestWaiting("GET", path, token: path == "/ready" ? nil : token, headers: ["Accept-Language": "en"])
                            return (response, Date().timeIntervalSince(start))
                        }
                        return (path, try #require(response, "\(path): no answer after \(seconds) s"), seconds)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        for answer in answers {
            let body = String(decoding: answer.response.body, as: UTF8.self)
            #expect(answer.response.status == 503, "\(answer.path): \(answer.response.status) \(body)")
            // The server bounds these at 1 s and about 2 s; the margins are for a machine busy with
            // the whole suite, and still far below a hang (URLSession's own limit is 60 s).
            #expect(answer.seconds < (answer.path == "/ready" ? 6 : 12), "\(answer.path) answered after \(answer.seconds) s")
            #expect(answer.response.headers["retry-after"] == "2", "\(answer.path)")
            #expect(answer.response.object["code"] as? String == "DATABASE_UNAVAILABLE", "\(answer.path): \(body)")
            #expect(!body.contains("127.0.0.1") && !body.contains("5433") && !body.lowercased().contains("postgres"), "\(answer.path): \(body)")
        }

        let recovered = try await eventually(within: 15) {
            try await server.request("GET", "/api/mobile/students?per_page=5", token: token).status == 200
        }
        #expect(recovered, "the same server answers again once the database does")
        #expect(try await server.request("GET", "/ready").status == 200)
        #expect(ChildExit.isRunning(server.process))
    }

    @Test("a transaction that holds a lock and goes quiet (a frozen server's) holds another server's writers for at most the lock timeout: 503 with Retry-After, then the write goes through")
    func heldLockIsBounded() async throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo"]).status == 0)
        let server = try ServedHogwarts(hogwarts, environment: ["HOGWARTS_DATABASE_LOCK_TIMEOUT": "1"])
        defer { _ = server.stop() }
        let token = try await server.signIn("teacher@databayt.org")
        let colleague = try #require(try hogwarts.strings("SELECT id FROM auth_users WHERE email = 'teacher30@databayt.org'").first)
        let conversation = try #require(try await server.request("POST", "/api/mobile/conversations", token: token,
                                                                 json: ["participant_ids": [colleague], "type": "direct"]).object["id"] as? String)

        // Another connection takes the conversation's row and sits on it until this test ends its
        // session (at most two minutes): however slowly this busy process looks, the row is held.
        let holder = Process()
        holder.executableURL = URL(filePath: "/usr/bin/psql")
        holder.arguments = [hogwarts.databasePath, "-qAt", "-c", """
            BEGIN; SELECT id FROM messages_conversations WHERE id = '\(conversation)' FOR UPDATE; SELECT pg_sleep(120); COMMIT;
            """]
        holder.standardOutput = FileHandle.nullDevice
        holder.standardError = FileHandle.nullDevice
        try holder.run()
        defer { holder.terminate() }
        let holding = "state = 'active' AND query LIKE '%\(conversation)%pg_sleep(120)%' AND pid <> pg_backend_pid()"
        // Watched from a thread of its own: this process's task threads can be busy for seconds.
        let held = await onThreadOfItsOwn { () -> Bool in
            for _ in 0..<120 {
                if (try? hogwarts.strings("SELECT count(*) FROM pg_stat_activity WHERE \(holding)")) != ["0"] { return true }
                Thread.sleep(forTimeInterval: 0.25)
            }
            return false
        }
        #expect(held, "the other connection holds the row")

        let path = "/api/mobile/conversations/\(conversation)/messages"
        let (answer, waited) = await onThreadOfItsOwn { () -> (ServedHogwarts.Response?, Double) in
            let start = Date()
            let answer = try? server.requestWaiting("POST", path, token: token, json: ["content": "while the row is held"], headers: ["Accept-Language": "en"])
            return (answer, Date().timeIntervalSince(start))
        }
        let blocked = try #require(answer, "no answer after \(waited) s")
        #expect(blocked.status == 503 && blocked.headers["retry-after"] == "2", "\(blocked.status) \(String(decoding: blocked.body, as: UTF8.self))")
        #expect(waited < 7, "answered after \(waited) s, with a 1 s lock timeout and the row held")
        // The holder's session ends, and with it its transaction and the row's lock.
        _ = try hogwarts.strings("SELECT pg_terminate_backend(pid)::text FROM pg_stat_activity WHERE \(holding)")
        ChildExit.wait(for: holder)
        let after = try await server.request("POST", "/api/mobile/conversations/\(conversation)/messages", token: token,
                                             json: ["content": "once the row is free"])
        #expect((200..<300).contains(after.status))
        #expect(try hogwarts.strings("SELECT body FROM messages_messages WHERE conversation_id = '\(conversation)'") == ["once the row is free"],
                "the refused message was not half-written")
    }

    /// The postmaster (first line of `postmaster.pid`) and every process it started.
    static func processes(ofCluster data: String) throws -> [pid_t] {
        let text = try String(contentsOfFile: data + "/postmaster.pid", encoding: .utf8)
        guard let postmaster = text.split(separator: "\n").first.flatMap({ pid_t($0) }) else { return [] }
        let children = (try FileManager.default.contentsOfDirectory(atPath: "/proc")).compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            // "pid (name) state ppid ...": the parent is the second field after the name.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && pid_t(fields[1]) == postmaster ? pid : nil
        }
        return [postmaster] + children
    }

}

/// The PostgreSQL cluster the outage tests may stop: `.ci/run` starts one beside the suite's.
enum FaultCluster {
    static var configured: (url: String, data: String)? {
        let environment = ProcessInfo.processInfo.environment
        guard let url = environment["HOGWARTS_TEST_FAULT_DATABASE"], let data = environment["HOGWARTS_TEST_FAULT_DATA"], !url.isEmpty, !data.isEmpty else { return nil }
        return (url, data)
    }
}
