import Foundation
import HogwartsTestSupport
import Testing

/// Notification email through real servers on loopback: several `hogwarts serve` nodes on one
/// database hand mail to msmtp (a real sendmail-interface agent speaking SMTP), which delivers
/// it to aiosmtpd (a real SMTP server) writing a Maildir. Python's `email` package parses what
/// arrived, as a mail client would. CI installs both (`.ci/run`) and sets
/// `HOGWARTS_REQUIRE_API_TOOLS=1`, so there it must run.
@Suite("Notification email through a real SMTP server", .waitsOnProcesses, .serialized)
struct EmailDeliveryTests {
    static var toolsInstalled: Bool {
        DeployFiles.program("msmtp") != nil
            && (try? HogwartsProcess.run(URL(filePath: "/usr/bin/env"), ["python3", "-c", "import aiosmtpd"], in: URL(filePath: "/tmp")).status) == 0
    }
    static var required: Bool { ProcessInfo.processInfo.environment["HOGWARTS_REQUIRE_API_TOOLS"] == "1" }

    @Test("a teacher marks a child absent: the guardian gets exactly one email from every node together, in Arabic, then in English once they choose it; its headers are what a mail client needs",
          .enabled(if: toolsInstalled || required, "install msmtp (apt) and aiosmtpd (pip) to run this"))
    func absenceAlertByEmail() async throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo"]).status == 0)
        for (key, value) in [("notifications.email-from", "office@school.example.org"), ("notifications.site-url", "https://school.example.org")] {
            #expect(try hogwarts.run(["settings", "set", key, value, "--school", "demo"]).status == 0)
        }
        // What the demo left pending goes first, so only this test's alerts are counted below.
        #expect(try hogwarts.run(["notifications", "deliver"]).status == 0)
        let smtp = try SMTPServer(in: hogwarts.directory)
        defer { smtp.stop() }
        let agent = "\(try #require(DeployFiles.program("msmtp"))) --host=127.0.0.1 --port=\(smtp.port) --auth=off --tls=off --read-envelope-from -t"
        let servers = try (0..<(TestDatabase.isPostgres ? 3 : 2)).map { _ in try ServedHogwarts(hogwarts, environment: ["HOGWARTS_SENDMAIL": agent]) }
        defer { for server in servers { _ = server.stop() } }

        let teacher = try await servers[0].signIn("teacher@databayt.org")
        let parent = try await servers[1].signIn("parent@databayt.org")
        let child = try #require(try hogwarts.strings("""
            SELECT s.id FROM students_students s JOIN schools k ON k.id = s.school_id
            WHERE k.slug = 'demo' AND s.gr_number = 'GR-0024'
            """).first)
        let classID = try #require(try hogwarts.strings("""
            SELECT c.id FROM students_classes c JOIN schools k ON k.id = c.school_id WHERE k.slug = 'demo' AND c.code = '7A'
            """).first)

        func markAbsent(on server: ServedHogwarts, date: String) async throws {
            let saved = try await server.request("POST", "/api/mobile/attendance/bulk", token: teacher,
                                                 json: ["section_id": classID, "date": date, "records": [["student_id": child, "status": "ABSENT"]]])
            #expect((200..<300).contains(saved.status), "\(saved.status) \(String(decoding: saved.body, as: UTF8.self))")
        }

        try await markAbsent(on: servers[0], date: DemoDays.daysAgo(1))
        let arabic = try #require(try await smtp.messages(count: 1).first, "no mail arrived")
        #expect(arabic.to == "parent@databayt.org" && arabic.from == "office@school.example.org")
        #expect(!arabic.fromName.isEmpty, "the school's name as the sender")
        #expect(arabic.subject.contains("نور") && arabic.language == "ar")
        #expect(arabic.html.contains("dir=\"rtl\"") && arabic.html.contains("lang=\"ar\""))
        #expect(arabic.text.contains("نور سليمان"))
        #expect(arabic.listUnsubscribe == "<https://school.example.org/m/notifications/preferences>")
        #expect(arabic.messageID.hasSuffix("@school.example.org>") && arabic.date != nil)
        #expect(arabic.types == ["text/plain", "text/html"] && arabic.charsets == ["utf-8", "utf-8"])
        #expect(arabic.rawSubjectEncoded, "the Arabic subject travels as RFC 2047 encoded words")

        let english = try await servers[1].request("PUT", "/api/mobile/profile", token: parent, json: ["language": "en"])
        #expect(english.status == 200, "\(String(decoding: english.body, as: UTF8.self))")
        try await markAbsent(on: servers.last ?? servers[0], date: DemoDays.today)
        let both = try await smtp.messages(count: 2)
        let second = try #require(both.first { $0.messageID != arabic.messageID })
        #expect(second.language == "en" && second.subject.contains("absent") && second.html.contains("dir=\"ltr\""), "\(second.subject)")

        // Every node looks every 5 seconds: after three more rounds, still one mail per absence.
        try await Task.sleep(for: .seconds(16))
        #expect(try smtp.received().count == 2, "a node sent an absence again")
        #expect(try hogwarts.strings("SELECT COUNT(*) FROM notifications_outbox WHERE channel = 'email' AND state <> 'SENT'").first == "0")
    }
}

/// aiosmtpd on a free loopback port, writing what it receives to a Maildir.
final class SMTPServer: @unchecked Sendable {
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
        while Date() < deadline {
            if Self.listening(port) { return }
            Thread.sleep(forTimeInterval: 0.1)
        }
        process.terminate()
        throw SMTPServerError.didNotStart
    }

    enum SMTPServerError: Error { case didNotStart }

    static func listening(_ port: Int) -> Bool {
        (try? HogwartsProcess.run(URL(filePath: "/usr/bin/env"), ["python3", "-c", "import socket; socket.create_connection(('127.0.0.1', \(port)), 1).close()"],
                                  in: URL(filePath: "/tmp")).status) == 0
    }

    /// aiosmtpd's loop outlives SIGTERM; a test's server holds nothing worth a clean stop.
    func stop() {
        kill(process.processIdentifier, SIGKILL)
        ChildExit.wait(for: process)
    }

    /// Every message received so far, parsed.
    func received() throws -> [ReceivedMail] {
        let script = """
            import email, email.policy, json, mailbox, sys
            out = []
            for message in mailbox.Maildir(sys.argv[1], create=False):
                raw = message.as_bytes()
                parsed = email.message_from_bytes(raw, policy=email.policy.default)
                parts = [p for p in parsed.walk() if not p.is_multipart()]
                body = {p.get_content_type(): p.get_content() for p in parts}
                out.append({
                    "from": parsed["From"].addresses[0].addr_spec, "fromName": parsed["From"].addresses[0].display_name,
                    "to": parsed["To"].addresses[0].addr_spec, "subject": str(parsed["Subject"]),
                    "rawSubjectEncoded": b"Subject: =?UTF-8?B?" in raw or not any(ord(c) > 127 for c in str(parsed["Subject"])),
                    "date": str(parsed["Date"].datetime) if parsed["Date"] else None, "messageID": parsed["Message-ID"],
                    "listUnsubscribe": parsed["List-Unsubscribe"], "language": parsed["Content-Language"],
                    "types": [p.get_content_type() for p in parts], "charsets": [p.get_content_charset() for p in parts],
                    "text": body.get("text/plain", ""), "html": body.get("text/html", ""),
                })
            print(json.dumps(out))
            """
        let run = try HogwartsProcess.run(URL(filePath: "/usr/bin/env"), ["python3", "-c", script, maildir.path], in: URL(filePath: "/tmp"))
        guard run.status == 0 else { return [] }
        return try JSONDecoder().decode([ReceivedMail].self, from: Data(run.stdout.utf8))
    }

    /// Waits up to 30 s (a node's next pass, on a busy machine) for at least `count` messages.
    func messages(count: Int) async throws -> [ReceivedMail] {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let mails = try received()
            if mails.count >= count { return mails }
            try await Task.sleep(for: .milliseconds(300))
        }
        return try received()
    }
}

struct ReceivedMail: Decodable {
    let from: String
    let fromName: String
    let to: String
    let subject: String
    let rawSubjectEncoded: Bool
    let date: String?
    let messageID: String
    let listUnsubscribe: String?
    let language: String?
    let types: [String]
    let charsets: [String?]
    let text: String
    let html: String
}
