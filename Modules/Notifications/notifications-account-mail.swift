import Auth
import Core

/// Auth's mail to one account (a password reset code), already written in the person's language:
/// an email outbox entry due now, where the school sends mail. Notification choices and quiet
/// hours do not apply (the person asked for it a moment ago), and nothing is listed in the app:
/// a code does not belong in a list anyone at the screen can read.
enum AccountMail {
    /// The kinds of mail Auth sends; their footer says why they came, with no preferences link.
    static let kinds: Set<String> = ["password-reset"]

    static let handler = EventHandler("notifications.account-mail", on: AccountMailRequested.self) { event, context in
        try queue(event, context)
    }

    static func queue(_ event: AccountMailRequested, _ context: ActionContext) throws {
        guard !(try context.setting(NotificationsSettings.emailFrom)).isEmpty, EmailAddressRule.isPlausible(event.email) else { return }
        let entry = Outbox(notification: context.newID(), recipient: event.userID, sendAt: context.now)
        try entry.add(NotificationChannel.email.rawValue, payload: EmailPayload(
            to: event.email, name: event.displayName, language: event.language, subject: event.subject, text: event.text, type: event.kind), context)
    }
}
