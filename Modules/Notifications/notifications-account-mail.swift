import Auth
import Core

/// Auth's mail to one account (a password reset code, an invitation), already written in the
/// person's language: an email outbox entry due now, where the school sends mail. A link in it is
/// made on the school's site (`notifications.site-url`). Notification choices and quiet
/// hours do not apply (the person asked for it a moment ago), and nothing is listed in the app:
/// a code does not belong in a list anyone at the screen can read.
enum AccountMail {
    /// The kinds of mail Auth sends; their footer says why they came, with no preferences link.
    static let kinds: Set<String> = ["password-reset", "invitation"]

    static let handler = EventHandler("notifications.account-mail", on: AccountMailRequested.self) { event, context in
        try queue(event, context)
    }

    static func queue(_ event: AccountMailRequested, _ context: ActionContext) throws {
        guard !(try context.setting(NotificationsSettings.emailFrom)).isEmpty, EmailAddressRule.isPlausible(event.email) else { return }
        var text = event.text
        if let path = event.linkPath {
            let site = try context.setting(NotificationsSettings.siteURL)
            text = text.replacingOccurrences(of: "{link}", with: (site.hasSuffix("/") ? String(site.dropLast()) : site) + path)
        }
        let entry = Outbox(notification: context.newID(), recipient: event.userID, sendAt: context.now)
        try entry.add(NotificationChannel.email.rawValue, payload: EmailPayload(
            to: event.email, name: event.displayName, language: event.language, subject: event.subject, text: text, type: event.kind), context)
    }
}
