import Core
import Foundation

/// What an email outbox entry carries: written when the notification is made, in the
/// recipient's language, so a retry sends exactly what was decided then.
struct EmailPayload: Codable, Equatable {
    let to: String
    let name: String
    let language: Language
    let subject: String
    let text: String
    let type: String
}

/// The email channel: one message per outbox entry, from the school's address, in the
/// recipient's language (right to left for Arabic), handed to `sendmail`.
struct EmailSender: NotificationSender {
    let from: String
    let school: LocalizedText
    let siteURL: String
    let transport: Sendmail

    func send(_ delivery: OutboxDelivery) throws -> SendOutcome {
        let payload = try JSONDecoder().decode(EmailPayload.self, from: Data(delivery.payload.utf8))
        try transport.send(message(for: payload, id: delivery.id, at: delivery.now).rendered())
        return .delivered
    }

    func message(for payload: EmailPayload, id: String, at now: Date) -> EmailMessage {
        let language = payload.language
        let site = siteURL.hasSuffix("/") ? String(siteURL.dropLast()) : siteURL
        let account = AccountMail.kinds.contains(payload.type)
        let preferences = site.isEmpty || account ? "" : site + NotificationsConsole.preferencesPath
        let unsubscribe = preferences.isEmpty ? "mailto:\(from)?subject=unsubscribe" : preferences
        let words = EmailWords(language: language, account: account)
        let values: [String: Any] = [
            "subject": payload.subject, "text": payload.text, "school": school.text(in: language), "name": payload.name,
            "why": words.why, "change": words.change, "preferences": preferences, "direction": language == .ar ? "rtl" : "ltr",
            "language": language.rawValue,
        ]
        let domain = from.split(separator: "@").last.map(String.init) ?? "localhost"
        return EmailMessage(from: .init(name: school.text(in: language), email: from), to: .init(name: payload.name, email: payload.to),
                            subject: payload.subject, text: EmailTemplates.text.render(values).html, html: EmailTemplates.html.render(values).html,
                            date: now, messageID: "\(id)@\(domain)", unsubscribe: unsubscribe, language: language.rawValue)
    }
}

/// The few words of the mail around the notification itself.
struct EmailWords {
    let why: String
    let change: String

    /// `account`: a mail the person asked for (a reset code), not a notification they can switch off.
    init(language: Language, account: Bool = false) {
        let why = account
            ? LocalizedText(ar: "تصلك هذه الرسالة لأن طلبًا قُدّم لحسابك في المدرسة.", en: "You receive this because a request was made for your school account.")
            : LocalizedText(ar: "تصلك هذه الرسالة لأن حسابك في المدرسة يتلقى هذا النوع من الإشعارات بالبريد.",
                            en: "You receive this because your school account gets this kind of notification by email.")
        let change = LocalizedText(ar: "غيّر ما يصلك بالبريد", en: "Change what you receive by email")
        self.why = why.text(in: language)
        self.change = change.text(in: language)
    }
}

/// The mail's two forms. The text form uses `{{{ }}}` (no HTML escaping in plain text); the HTML
/// form escapes every value and isolates it, so a name in one script never reorders the other's.
enum EmailTemplates {
    static let text = ConsoleTemplate("""
        {{{subject}}}

        {{{text}}}

        -- 
        {{{school}}}
        {{{why}}}
        {{#preferences}}{{{change}}}: {{{preferences}}}{{/preferences}}

        """)

    static let html = ConsoleTemplate("""
        <!DOCTYPE html>
        <html lang="{{language}}" dir="{{direction}}">
        <head><meta charset="utf-8"><title>{{subject}}</title></head>
        <body style="font-family: sans-serif; line-height: 1.5">
        <h1 style="font-size: 1.25em"><bdi>{{subject}}</bdi></h1>
        <p><bdi>{{text}}</bdi></p>
        <hr>
        <p style="color: #555; font-size: 0.875em"><bdi>{{school}}</bdi><br>{{why}}{{#preferences}}<br><a href="{{preferences}}">{{change}}</a>{{/preferences}}</p>
        </body>
        </html>

        """)
}
