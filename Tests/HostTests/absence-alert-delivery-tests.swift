import Foundation
import HogwartsTestSupport
import Testing

/// The absence alert end to end, the way a school runs it: several `hogwarts serve` nodes on one
/// database (three on PostgreSQL), each sending what is due to a real SMTP server (msmtp to
/// aiosmtpd) and to APNs (the loopback stand-in, answering each push after 0.3 s), and one node
/// killed with SIGKILL while pushes are in flight. Every alert arrives; only the entry the killed
/// node was sending can arrive twice, with the same collapse id or Message-ID.
@Suite("Absence alerts by push and email, with a server killed mid-delivery", .waitsOnProcesses, .serialized)
struct AbsenceAlertDeliveryTests {
    static var toolsInstalled: Bool { EmailDeliveryTests.toolsInstalled && PushStandIn.available }

    /// Twenty school days: each absence is a new alert to the guardian's two iPhones and mailbox.
    static let days: [String] = (5...30).compactMap { day in
        let date = String(format: "2026-10-%02d", day)
        let weekday = Calendar(identifier: .gregorian).component(.weekday, from: ISO8601DateFormatter().date(from: date + "T12:00:00Z") ?? Date())
        return (2...6).contains(weekday) ? date : nil
    }

    @Test("twenty absences marked through every node: each alert reaches both phones and the mailbox, none lost, though a node was killed while sending",
          .enabled(if: toolsInstalled || EmailDeliveryTests.required, "install msmtp, aiosmtpd, nginx and openssl to run this"))
    func absencesSurviveAKilledNode() async throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo"]).status == 0)
        #expect(try hogwarts.run(["notifications", "deliver"]).status == 0, "what the demo left goes first")

        let apns = try PushStandIn(in: hogwarts.directory)
        defer { apns.stop() }
        let key = hogwarts.directory.appending(path: "AuthKey_ABC123DEFG.p8")
        #expect(try HogwartsProcess.run(URL(filePath: "/usr/bin/openssl"), ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", key.path],
                                        in: hogwarts.directory).status == 0)
        for (name, value) in [("email-from", "office@school.example.org"), ("site-url", "https://school.example.org"), ("apns-key-path", key.path),
                              ("apns-key-id", "ABC123DEFG"), ("apns-team-id", "TEAM123456"), ("apns-topic", "org.databayt.hogwarts"),
                              ("apns-url", apns.url), ("push-ca-path", apns.certificate)] {
            #expect(try hogwarts.run(["settings", "set", "notifications.\(name)", value, "--school", "demo"]).status == 0)
        }
        let parent = try #require(try hogwarts.strings("""
            SELECT u.id FROM auth_users u JOIN schools k ON k.id = u.school_id WHERE k.slug = 'demo' AND u.email = 'parent@databayt.org'
            """).first)
        for phone in ["slow-iphone-1", "slow-iphone-2"] {
            try hogwarts.execute("""
                INSERT INTO notifications_devices (school_id, token, user_id, platform, active, registered_at, updated_at)
                SELECT id, '\(phone)', '\(parent)', 'ios', 1, '2026-11-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z' FROM schools WHERE slug = 'demo'
                """)
        }

        let smtp = try SMTPServer(in: hogwarts.directory)
        defer { smtp.stop() }
        let agent = "\(try #require(DeployFiles.program("msmtp"))) --host=127.0.0.1 --port=\(smtp.port) --auth=off --tls=off --read-envelope-from -t"
        let nodes = try (0..<(TestDatabase.isPostgres ? 3 : 2)).map { _ in try ServedHogwarts(hogwarts, environment: ["HOGWARTS_SENDMAIL": agent]) }
        defer { for node in nodes { _ = node.stop() } }
        // An administrator: a teacher may mark only the last 7 days, and these are October's.
        let admin = try await nodes[0].signIn("admin@databayt.org")
        let child = try #require(try hogwarts.strings("""
            SELECT s.id FROM students_students s JOIN schools k ON k.id = s.school_id WHERE k.slug = 'demo' AND s.gr_number = 'GR-0024'
            """).first)
        let classID = try #require(try hogwarts.strings("""
            SELECT c.id FROM students_classes c JOIN schools k ON k.id = c.school_id WHERE k.slug = 'demo' AND c.code = '7A'
            """).first)

        for (index, date) in Self.days.enumerated() {
            let saved = try await nodes[index % nodes.count].request("POST", "/api/mobile/attendance/bulk", token: admin,
                                                                     json: ["section_id": classID, "date": date, "records": [["student_id": child, "status": "ABSENT"]]])
            #expect((200..<300).contains(saved.status), "\(saved.status) \(String(decoding: saved.body, as: UTF8.self))")
        }
        let pushes = Self.days.count * 2
        // Killed once the pushes are flowing: whichever it was sending is in flight (0.3 s each).
        #expect(try await eventually(within: 60) { try apns.requests().count >= 4 })
        let killed = nodes[nodes.count - 1]
        _ = killed.stop(signal: SIGKILL)
        let killedAt = Date()

        // An entry the dead node held comes back when its claim lapses (a minute).
        let arrived = try await eventually(within: 150) {
            let (pushed, mailed) = (Set(Self.alerts(try apns.requests())).count, Set(try smtp.received().map(\.messageID)).count)
            let unsent = try hogwarts.strings("""
                SELECT COUNT(*) FROM notifications_outbox o JOIN schools k ON k.id = o.school_id
                WHERE k.slug = 'demo' AND o.channel IN ('push', 'email') AND o.state <> 'SENT'
                """).first
            return pushed == pushes && mailed == Self.days.count && unsent == "0"
        }
        print("delivery: all \(pushes) pushes and \(Self.days.count) emails sent \(Int(Date().timeIntervalSince(killedAt))) s after the kill")
        let (pushesSeen, mailsSeen) = (Set(Self.alerts(try apns.requests())).count, try smtp.received().count)
        #expect(arrived, "pushes \(pushesSeen) of \(pushes), emails \(mailsSeen) of \(Self.days.count), and every entry SENT")

        // None twice but the one in flight at the kill, which carries the same collapse id or Message-ID.
        let pushCounts = Dictionary(Self.alerts(try apns.requests()).map { ($0, 1) }, uniquingKeysWith: +)
        let mails = try smtp.received()
        let mailCounts = Dictionary(mails.map { ($0.messageID, 1) }, uniquingKeysWith: +)
        let repeats = pushCounts.values.map { $0 - 1 }.reduce(0, +) + mailCounts.values.map { $0 - 1 }.reduce(0, +)
        print("delivery: \(repeats) repeated after the kill (the entry in flight)")
        #expect(repeats <= 1, "pushes \(pushCounts.filter { $0.value > 1 }), mails \(mailCounts.filter { $0.value > 1 })")
        #expect(mailCounts.count == Self.days.count && mails.allSatisfy { $0.to == "parent@databayt.org" })
        #expect(mails.allSatisfy { $0.subject.contains("نور") }, "in the guardian's language (Arabic)")
    }

    /// Each push as the phone would show it: its device and collapse id (the absence's day).
    static func alerts(_ requests: [PushStandIn.Recorded]) -> [String] {
        requests.filter { $0.path.hasPrefix("/3/device/") }.map { "\($0.path) \($0.headers["apns-collapse-id"] ?? "")" }
    }
}
