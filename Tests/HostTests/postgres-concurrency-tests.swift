import Foundation
import HogwartsTestSupport
import Testing

/// Two real `hogwarts serve` processes at once on one PostgreSQL database (issue 13's proof):
/// counter rows and unique keys, not luck, keep their writes apart. SQLite has one writer per
/// file, so this runs only with `HOGWARTS_TEST_DATABASE=postgres://...`.
@Suite("PostgreSQL: two processes at once", .waitsOnProcesses, .serialized,
       .enabled(if: TestDatabase.isPostgres, "needs HOGWARTS_TEST_DATABASE=postgres://... (SQLite has one writer per file)"))
struct PostgresConcurrencyTests {
    /// The demo on a fresh schema and two servers on it.
    static func twoServers() throws -> (HogwartsProcess, ServedHogwarts, ServedHogwarts) {
        let hogwarts = try HogwartsProcess()
        #expect(try hogwarts.run(["demo"]).status == 0)
        return (hogwarts, try ServedHogwarts(hogwarts), try ServedHogwarts(hogwarts))
    }

    @Test("both processes start the same direct conversation at once: one conversation; then 40 messages sent through both are numbered 1 to 40, none twice")
    func conversationAndMessages() async throws {
        let (hogwarts, first, second) = try Self.twoServers()
        defer { _ = first.stop(); _ = second.stop(); hogwarts.cleanUp() }
        let teacher = "teacher@databayt.org", other = "teacher30@databayt.org"
        let otherID = try #require(try hogwarts.strings("SELECT u.id FROM auth_users u JOIN schools s ON s.id = u.school_id WHERE s.slug = 'demo' AND u.email = '\(other)'").first)
        let pair = """
            SELECT c.id FROM messages_conversations c WHERE c.kind = 'DIRECT' AND 2 = (SELECT COUNT(*) FROM messages_participants p
              JOIN auth_users u ON u.school_id = p.school_id AND u.id = p.user_id
              WHERE p.school_id = c.school_id AND p.conversation_id = c.id AND u.email IN ('\(teacher)', '\(other)'))
            """
        #expect(try hogwarts.strings(pair).isEmpty, "the race starts from no conversation")
        let tokens = [try await first.signIn(teacher), try await second.signIn(teacher)]
        let servers = [first, second]

        let started = try await withThrowingTaskGroup(of: String?.self) { group in
            for index in 0..<8 {
                group.addTask {
                    let answer = try await servers[index % 2].request("POST", "/api/mobile/conversations", token: tokens[index % 2],
                                                                      json: ["participant_ids": [otherID], "type": "direct"])
                    return answer.object["id"] as? String
                }
            }
            return try await group.reduce(into: [String?]()) { $0.append($1) }
        }
        let conversations = try hogwarts.strings(pair)
        #expect(conversations.count == 1, "one direct conversation, not \(conversations.count)")
        #expect(!started.contains(nil) && Set(started.compactMap { $0 }) == Set(conversations), "every request answered with that one: \(started)")
        let conversation = try #require(conversations.first)

        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<40 {
                group.addTask {
                    try await servers[index % 2].request("POST", "/api/mobile/conversations/\(conversation)/messages", token: tokens[index % 2],
                                                         json: ["content": "message \(index)"]).status
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.allSatisfy { (200..<300).contains($0) }, "\(statuses)")
        let numbers = try hogwarts.strings("SELECT CAST(seq AS TEXT) FROM messages_messages WHERE conversation_id = '\(conversation)' ORDER BY seq")
        #expect(numbers.compactMap(Int.init).sorted() == Array(1...40), "no gap, no repeat: \(numbers)")
        let bodies = Set(try hogwarts.strings("SELECT body FROM messages_messages WHERE conversation_id = '\(conversation)'"))
        #expect(bodies == Set((0..<40).map { "message \($0)" }), "none lost")
    }

    @Test("two processes marking students of one class at once: one record each, every mark kept")
    func registers() async throws {
        let (hogwarts, first, second) = try Self.twoServers()
        defer { _ = first.stop(); _ = second.stop(); hogwarts.cleanUp() }
        let students = try hogwarts.strings("""
            SELECT s.id FROM students_students s JOIN students_enrolments e ON e.school_id = s.school_id AND e.student_id = s.id
            JOIN students_classes c ON c.school_id = e.school_id AND c.id = e.class_id JOIN schools k ON k.id = s.school_id
            WHERE k.slug = 'demo' AND c.code = '7A' ORDER BY s.id
            """)
        #expect(students.count >= 10)
        let tokens = [try await first.signIn("admin@databayt.org"), try await second.signIn("admin@databayt.org")]
        let servers = [first, second]
        // Each student is marked twice, once through each process: ABSENT through the first, LATE through the second.
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for (index, student) in students.enumerated() {
                for side in [index % 2, 1 - index % 2] {
                    group.addTask {
                        try await servers[side].request("POST", "/api/mobile/attendance/mark", token: tokens[side],
                                                        json: ["student_id": student, "status": side == 0 ? "ABSENT" : "LATE"]).status
                    }
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.allSatisfy { (200..<300).contains($0) }, "\(statuses)")
        let ids = students.map { "'\($0)'" }.joined(separator: ", ")
        // Only what this test wrote: the demo's history was marked by teachers.
        let admin = "(SELECT u.id FROM auth_users u JOIN schools k ON k.id = u.school_id WHERE k.slug = 'demo' AND u.email = 'admin@databayt.org')"
        let records = try hogwarts.strings("SELECT student_id FROM attendance_records WHERE student_id IN (\(ids)) AND marked_by = \(admin)")
        #expect(records.count == students.count && Set(records) == Set(students), "one record per student, no duplicate")
        // The second write of each student found the first and recorded the change: no update lost from the history.
        let changes = try hogwarts.strings("""
            SELECT r.student_id FROM attendance_changes h JOIN attendance_records r ON r.school_id = h.school_id AND r.id = h.record_id
            WHERE r.student_id IN (\(ids)) AND r.marked_by = \(admin) AND h.changed_by = \(admin) AND h.status = r.status
            """)
        // Both marks of a student read what is recorded only after the other's transaction ends
        // (the register is locked for writing first), so the second always records a change.
        #expect(Set(changes) == Set(students), "each record's last change is its status")
    }

    @Test("one school's open write transaction does not hold up another school's command; it does hold up its own school's")
    func schoolsDoNotWait() throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo"]).status == 0)
        // psql holds demo's rows the way a long write would: its sync clock and its settings.
        let holder = Process()
        holder.executableURL = URL(filePath: "/usr/bin/env")
        holder.arguments = ["psql", hogwarts.databasePath, "-X", "-q", "-v", "ON_ERROR_STOP=1"]
        let input = Pipe(), output = Pipe()
        holder.standardInput = input
        holder.standardOutput = output
        holder.standardError = FileHandle.nullDevice
        try holder.run()
        defer {
            try? input.fileHandleForWriting.write(contentsOf: Data("ROLLBACK;\n\\q\n".utf8))
            ChildExit.wait(for: holder)
        }
        input.fileHandleForWriting.write(Data("""
            BEGIN;
            UPDATE kernel_sync_clock SET seq = seq WHERE school_id = (SELECT id FROM schools WHERE slug = 'demo');
            INSERT INTO kernel_settings (school_id, key, value, updated_at, updated_by)
              SELECT id, 'attendance.edit-window-days', '3', '2026-01-01T00:00:00.000Z', 'test' FROM schools WHERE slug = 'demo'
              ON CONFLICT (school_id, key) DO UPDATE SET value = excluded.value;
            SELECT 'held';

            """.utf8))
        // Wait until psql says it holds them (its answer, not a clock).
        var said = Data()
        while !String(decoding: said, as: UTF8.self).contains("held") {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            said.append(chunk)
        }
        #expect(String(decoding: said, as: UTF8.self).contains("held"))
        // A lock wait fails the command after the lock timeout instead of hanging the test.
        let noWait = ["HOGWARTS_DATABASE_LOCK_TIMEOUT": "3"]
        let nile = try hogwarts.run(["settings", "set", "attendance.edit-window-days", "5", "--school", "nile", "--lang", "en"], environment: noWait)
        #expect(nile.status == 0, "the other school's write finished while demo's transaction is open: \(nile.stderr)")
        let demo = try hogwarts.run(["settings", "set", "attendance.edit-window-days", "5", "--school", "demo", "--lang", "en"], environment: noWait)
        #expect(demo.status == 69 && demo.stderr.contains("not answering"), "demo's own write waits for the open transaction, then gives up: \(demo.stderr)")
    }
}
