import Auth
import Core
import Foundation
import HogwartsTestSupport
@testable import Notifications
import Testing

/// Auth's mail (a password reset code) through Notifications' email outbox.
@Suite("Account mail from Auth")
struct NotificationsAccountMailTests {
    func resetMails(_ fixture: NotificationsFixture, to address: String) throws -> [OutboxEntry] {
        try fixture.run(ListOutbox.self, .init()).filter { $0.channel == "email" && $0.recipient == address }
    }

    @Test("a reset code becomes one email due now, only where the school sends mail, and nothing in the app's list")
    func queued() throws {
        let fixture = try NotificationsFixture()
        let parent = try fixture.account("parent@databayt.org")
        let before = try fixture.inbox(parent, unread: false).count
        #expect(try fixture.harness.kernel.run(RequestPasswordReset.self, .init(email: "parent@databayt.org"), as: .anonymous, in: fixture.school.id))
        #expect(try resetMails(fixture, to: "parent@databayt.org").isEmpty, "the school sends no mail yet")

        try fixture.harness.kernel.setSetting("notifications.email-from", to: "office@school.example.org", for: fixture.school.id, by: .localOperator)
        try fixture.run(NotificationPreferences.self, .init(type: "ATTENDANCE_ALERT", enabled: true, quietHours: "00:00-23:59"), as: parent)
        #expect(try fixture.harness.kernel.run(RequestPasswordReset.self, .init(email: "parent@databayt.org"), as: .anonymous, in: fixture.school.id))
        let mail = try #require(try resetMails(fixture, to: "parent@databayt.org").first)
        #expect(mail.nextAttemptAt == fixture.clock.now, "due now: quiet hours do not hold back a code the person is waiting for")
        #expect(try fixture.inbox(parent, unread: false).count == before, "no notification in the app")
    }

    @Test("the mail says why it came and offers no notification choices")
    func footer() throws {
        let sender = EmailSender(from: "office@school.example.org", school: LocalizedText(ar: "مدرسة النيل", en: "Nile School"),
                                 siteURL: "https://nile.example.org", transport: Sendmail(arguments: []))
        let payload = EmailPayload(to: "parent@example.org", name: "Amina", language: .en, subject: "Your password reset code: 123456",
                                   text: "Your code is 123456.", type: "password-reset")
        let message = sender.message(for: payload, id: "entry-1", at: Date(timeIntervalSince1970: 1_795_000_000))
        #expect(message.text.contains("a request was made for your school account"))
        #expect(!message.text.contains("/m/notifications/preferences") && !message.html.contains("/m/notifications/preferences"))
    }
}
