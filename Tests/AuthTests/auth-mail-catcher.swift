import Auth
import Core
import Foundation
import HogwartsTestSupport

/// Stands where the mail module would: keeps every mail Auth asks to send, as the event arrives.
final class MailCatcher: Sendable {
    private let caught = EventCatcher<AccountMailRequested>()

    var mails: [AccountMailRequested] { caught.events }

    /// The module that hears Auth's mail event, for the harness.
    var module: any AppModule { caught.module(hearing: AuthModule().id) }

    /// Waits for at least `count` mails: the reset route mails after it answers, on the password
    /// lane, which a loaded machine running many suites' sign-ins keeps busy. The wait counts the
    /// polls this test got to make, not the clock: a test left unscheduled for minutes on a loaded
    /// machine gets its whole wait once it runs again, so only a mail that never comes fails it.
    /// `within`: a shorter wait for a mail that must not come.
    func waitFor(_ count: Int, within seconds: TimeInterval = 180) async throws -> [AccountMailRequested] {
        let poll = Duration.milliseconds(20)
        var polls = Int(seconds * 50)
        while mails.count < count, polls > 0 {
            try await Task.sleep(for: poll)
            polls -= 1
        }
        return mails
    }

    /// The 6-digit code in a mail's text.
    static func code(in mail: AccountMailRequested) -> String? {
        mail.text.firstMatch(of: /\b[0-9]{6}\b/).map { String($0.output) }
    }
}
