import Foundation
import HogwartsTestSupport
import Testing

/// Password reset end to end through real servers on loopback: two `hogwarts serve` nodes on one
/// database, msmtp handing the code's mail to aiosmtpd (a real SMTP server writing a Maildir),
/// the code read from that mailbox, then used on the other node. The helpers are
/// `email-delivery-tests.swift`'s.
@Suite("Password reset through a real SMTP server", .serialized)
struct PasswordResetEmailTests {
    @Test("a teacher asks for a code on one node, reads it from their mailbox in Arabic, sets a new password on the other, signs in with it; the address's limit is shared by both nodes",
          .enabled(if: EmailDeliveryTests.toolsInstalled || EmailDeliveryTests.required, "install msmtp (apt) and aiosmtpd (pip) to run this"))
    func resetByMail() async throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo"]).status == 0)
        #expect(try hogwarts.run(["settings", "set", "notifications.email-from", "office@school.example.org", "--school", "demo"]).status == 0)
        #expect(try hogwarts.run(["notifications", "deliver"]).status == 0)
        let smtp = try SMTPServer(in: hogwarts.directory)
        defer { smtp.stop() }
        let agent = "\(try #require(DeployFiles.program("msmtp"))) --host=127.0.0.1 --port=\(smtp.port) --auth=off --tls=off --read-envelope-from -t"
        let servers = try (0..<2).map { _ in try ServedHogwarts(hogwarts, environment: ["HOGWARTS_SENDMAIL": agent]) }
        defer { for server in servers { _ = server.stop() } }

        let asked = try await servers[0].request("POST", "/api/mobile/auth/reset", json: ["email": "teacher@databayt.org"])
        let unknown = try await servers[0].request("POST", "/api/mobile/auth/reset", json: ["email": "nobody@databayt.org"])
        #expect(asked.status == 200 && asked.body == unknown.body, "the same answer for an unknown email")
        let mail = try #require(try await smtp.messages(count: 1).first, "no mail arrived")
        #expect(mail.to == "teacher@databayt.org" && mail.from == "office@school.example.org" && mail.language == "ar")
        #expect(mail.listUnsubscribe == "<mailto:office@school.example.org?subject=unsubscribe>", "no notification choices for a code")
        let code = try #require(mail.text.firstMatch(of: /\b[0-9]{6}\b/).map { String($0.output) }, "\(mail.text)")
        #expect(mail.subject.contains(code))

        #expect(try await servers[1].request("POST", "/api/mobile/auth/verify-otp", json: ["email": "teacher@databayt.org", "otp": code]).status == 200)
        let changed = try await servers[1].request("POST", "/api/mobile/auth/new-password",
                                                   json: ["email": "teacher@databayt.org", "otp": code, "new_password": "Blue-Nile-River-7"])
        #expect(changed.status == 200, "\(String(decoding: changed.body, as: UTF8.self))")
        let signedIn = try await servers[0].request("POST", "/api/mobile/auth", json: ["identifier": "teacher@databayt.org", "password": "Blue-Nile-River-7"])
        #expect(signedIn.status == 200 && signedIn.object["access_token"] is String)
        #expect(try await servers[0].request("POST", "/api/mobile/auth", json: ["identifier": "teacher@databayt.org", "password": "1234"]).status == 401)

        // Four requests so far from this address; the fifth is on node 0, the sixth on node 1 is refused.
        #expect(try await servers[0].request("POST", "/api/mobile/auth/verify-otp", json: ["email": "teacher@databayt.org", "otp": code]).status == 401)
        let limited = try await servers[1].request("POST", "/api/mobile/auth/reset", json: ["email": "teacher@databayt.org"])
        #expect(limited.status == 429 && limited.headers["retry-after"] != nil)
        #expect(try smtp.received().count == 1, "one mail: the unknown email got none")
    }
}
