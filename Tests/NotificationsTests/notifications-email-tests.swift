import Attendance
import Auth
import Core
import Foundation
import HogwartsTestSupport
@testable import Notifications
import Students
import Testing

/// The email channel inside the module: which absences become mail, to whom, in which language,
/// and what the message looks like. `HostTests/email-delivery-tests.swift` sends it through a
/// real mail agent to a real SMTP server.
@Suite("Notifications by email")
struct NotificationsEmailTests {
    func absent(_ fixture: NotificationsFixture, _ child: Student, period: String) throws {
        try fixture.run(TakeAttendance.self, .init(classCode: child.classCode ?? "", period: period, marks: [AttendanceMark(student: child.grNumber, status: .absent)]))
    }

    func emails(_ fixture: NotificationsFixture, to address: String) throws -> [OutboxEntry] {
        try fixture.run(ListOutbox.self, .init()).filter { $0.channel == "email" && $0.recipient == address }
    }

    @Test("no mail until the school has a sender address; then one per absence to the guardian, none once they switch email off for absences")
    func queuedPerChoice() throws {
        let fixture = try NotificationsFixture()
        let (parent, child) = try fixture.parentAndChild()
        try absent(fixture, child, period: "P1")
        #expect(try emails(fixture, to: "parent@databayt.org").isEmpty, "the school sends no mail yet")
        #expect(try fixture.inbox(parent).contains { $0.type == .attendanceAlert }, "the app still has it")

        try fixture.harness.kernel.setSetting("notifications.email-from", to: "office@school.example.org", for: fixture.school.id, by: .localOperator)
        try absent(fixture, child, period: "P2")
        #expect(try emails(fixture, to: "parent@databayt.org").count == 1)

        try fixture.run(SetChannelPreferences.self, .init(changes: [.init(type: "ATTENDANCE_ALERT", channel: .email, enabled: false)]), as: parent)
        try absent(fixture, child, period: "P3")
        #expect(try emails(fixture, to: "parent@databayt.org").count == 1, "email switched off for absences")
        #expect(try fixture.inbox(parent).filter { $0.type == .attendanceAlert }.count == 3, "the app keeps every alert")
    }

    @Test("during the guardian's quiet hours the mail waits until they end; it is not dropped")
    func quietHours() throws {
        let fixture = try NotificationsFixture()
        let (parent, child) = try fixture.parentAndChild()
        try fixture.harness.kernel.setSetting("notifications.email-from", to: "office@school.example.org", for: fixture.school.id, by: .localOperator)
        // 06:00 UTC is 08:00 in Khartoum: inside quiet hours of 07:30-09:00.
        try fixture.run(NotificationPreferences.self, .init(type: "ATTENDANCE_ALERT", enabled: true, quietHours: "07:30-09:00"), as: parent)
        try absent(fixture, child, period: "P1")
        let mail = try #require(try emails(fixture, to: "parent@databayt.org").first)
        #expect(mail.nextAttemptAt == fixture.clock.now.addingTimeInterval(60 * 60))
        #expect(try fixture.deliver().sent >= 0)
        #expect(try emails(fixture, to: "parent@databayt.org").count == 1, "still waiting, not sent and not dropped")
    }

    @Test("an Arabic mail: subject in RFC 2047 words of at most 75 characters that decode to the title, HTML right to left, the choices page in List-Unsubscribe")
    func arabicMessage() throws {
        let sender = EmailSender(from: "office@school.example.org", school: LocalizedText(ar: "مدرسة النيل", en: "Nile School"),
                                 siteURL: "https://nile.example.org", transport: Sendmail(arguments: []))
        let subject = "تغيّب عبدالرحمن أحمد محمد عثمان عن الحصة الأولى يوم الأحد في الصف السابع"
        let payload = EmailPayload(to: "parent@example.org", name: "أم أحمد", language: .ar, subject: subject,
                                   text: "سُجّل غياب عبدالرحمن <اليوم> & غدًا", type: "ATTENDANCE_ALERT")
        let message = sender.message(for: payload, id: "entry-1", at: Date(timeIntervalSince1970: 1_795_000_000))
        let text = message.rendered(boundary: "b")
        let lines = text.components(separatedBy: "\r\n")
        #expect(lines.allSatisfy { $0.utf8.count <= 78 }, "no header or body line over 78 characters")
        let subjectLines = lines.drop { !$0.hasPrefix("Subject: ") }.prefix { $0.hasPrefix("Subject: ") || $0.hasPrefix(" ") }
        let words = subjectLines.map { $0.replacingOccurrences(of: "Subject: ", with: "").trimmingCharacters(in: .whitespaces) }
        #expect(words.count > 1 && words.allSatisfy { $0.hasPrefix("=?UTF-8?B?") && $0.hasSuffix("?=") && $0.count <= 75 })
        let decoded = words.map { word in
            String(decoding: Data(base64Encoded: String(word.dropFirst(10).dropLast(2))) ?? Data(), as: UTF8.self)
        }.joined()
        #expect(decoded == subject)
        #expect(text.contains("\r\nMessage-ID: <entry-1@school.example.org>\r\n"))
        #expect(text.contains("\r\nList-Unsubscribe: <https://nile.example.org/m/notifications/preferences>\r\n"))
        #expect(text.contains("\r\nDate: \(EmailMessage.rfc5322Date(Date(timeIntervalSince1970: 1_795_000_000)))\r\n"))
        #expect(EmailMessage.rfc5322Date(Date(timeIntervalSince1970: 0)) == "Thu, 01 Jan 1970 00:00:00 +0000")
        #expect(text.contains("\r\nContent-Type: multipart/alternative; boundary=\"b\"\r\n"))
        #expect(text.hasSuffix("\r\n--b--\r\n"))
        #expect(message.html.contains("<html lang=\"ar\" dir=\"rtl\">"))
        #expect(message.html.contains("&lt;اليوم&gt; &amp; غدًا"), "values are escaped in HTML")
        #expect(message.text.contains("<اليوم> & غدًا"), "and not in the text part")
        #expect(EmailMessage.mailbox(message.to).hasPrefix("=?UTF-8?B?") && EmailMessage.mailbox(message.to).hasSuffix(" <parent@example.org>"))
    }

    @Test("the sender address is checked when it is set: a header injection or a bare name is refused and nothing changes")
    func senderAddressChecked() throws {
        let fixture = try NotificationsFixture()
        for bad in ["office", "office@school.example.org\r\nBcc: all@example.org", "Office <office@school.example.org>", "a b@c.org"] {
            #expect(throws: (any Error).self) {
                try fixture.harness.kernel.setSetting("notifications.email-from", to: bad, for: fixture.school.id, by: .localOperator)
            }
        }
        #expect(try fixture.harness.kernel.settings(for: fixture.school.id).first { $0.key == "notifications.email-from" }?.value == "")
    }

    @Test("the phone app's own registration body, {deviceToken}, registers the device like device_token does")
    func appRegistrationBody() async throws {
        let fixture = try NotificationsFixture()
        let parent = try fixture.account("parent@databayt.org")
        try await fixture.harness.api { api in
            let response = try await api.post("/api/mobile/notifications/register", as: parent, json: ["deviceToken": "app-token-1"])
            #expect(response.status == 200)
        }
        #expect(try fixture.run(ListDevices.self, .init(), as: parent).contains { $0.token == "app-token-1" && $0.active })
    }

    @Test("retries double from a minute with up to a quarter more at random, so failures together do not return together")
    func backoffWithJitter() {
        #expect(AdvanceOutbox.backoff(afterAttempt: 1, jitter: 0) == 60)
        #expect(AdvanceOutbox.backoff(afterAttempt: 3, jitter: 0.25) == 300)
        let spread = Set((0..<50).map { _ in AdvanceOutbox.backoff(afterAttempt: 2) })
        #expect(spread.count > 1 && spread.allSatisfy { (120...150).contains($0) })
    }

    @Test("a mail agent that fails or exits without reading is an error on the entry, with its words; the server goes on")
    func agentFailures() throws {
        let big = String(repeating: "x", count: 1 << 20)
        #expect(throws: Sendmail.Failure.self) { try Sendmail(arguments: ["/bin/false"]).send(big) }
        #expect(throws: Sendmail.Failure.self) { try Sendmail(arguments: ["/nonexistent/sendmail", "-t"]).send("To: a@b.org\r\n\r\nhi") }
        do {
            try Sendmail(arguments: ["/bin/sh", "-c", "cat > /dev/null; echo 'relay refused' >&2; exit 75"]).send("To: a@b.org\r\n\r\nhi")
            Issue.record("an agent's exit 75 was taken as sent")
        } catch let failure as Sendmail.Failure {
            #expect(failure.description.contains("exited 75") && failure.description.contains("relay refused"))
        }
        try Sendmail(arguments: ["/bin/sh", "-c", "cat > /dev/null"]).send(big)
    }
}
