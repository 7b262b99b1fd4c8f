import Core
import Foundation

/// The administrator's view of mail that could not be sent: every entry given up on after the
/// last attempt, with the reason, so someone can fix the address or the mail server.
extension NotificationsConsole {
    static let outbox = ConsolePage("outbox", title: Undelivered.title, permission: NotificationsPermissions.outbox) { console in
        let entries = try await console.run(ListOutbox.self, .init(failedOnly: true))
        let rows: [[String: Any]] = entries.map { entry in
            ["channel": entry.channel, "recipient": entry.recipient, "attempts": String(entry.attempts), "error": entry.lastError ?? "",
             "at": entry.nextAttemptAt.map(console.schoolTime) ?? ""]
        }
        return .page(title: console.say(Undelivered.title), body: Undelivered.page.render(console.common.merging([
            "rows": rows, "none": rows.isEmpty ? console.say(Undelivered.none) : "", "lead": console.say(Undelivered.lead),
            "channel": console.say(Undelivered.channel), "recipient": console.say(Undelivered.recipient),
            "attempts": console.say(Undelivered.attempts), "reason": console.say(Undelivered.reason), "when": console.say(Undelivered.when),
        ]) { $1 }))
    }

    enum Undelivered {
        static let title = LocalizedText(ar: "ما تعذّر إرساله", en: "Undelivered")
        static let lead = LocalizedText(ar: "رسائل توقّفت محاولات إرسالها بعد المحاولة الأخيرة. صحّح العنوان أو خادم البريد؛ الإشعار نفسه ما زال في التطبيق.",
                                        en: "Deliveries given up on after the last attempt. Correct the address or the mail server; the notification itself is still in the app.")
        static let none = LocalizedText(ar: "لا شيء تعذّر إرساله.", en: "Nothing failed to send.")
        static let channel = LocalizedText(ar: "القناة", en: "Channel")
        static let recipient = LocalizedText(ar: "المستلم", en: "Recipient")
        static let attempts = LocalizedText(ar: "المحاولات", en: "Attempts")
        static let reason = LocalizedText(ar: "السبب", en: "Reason")
        static let when = LocalizedText(ar: "آخر موعد", en: "Last due")

        static let page = ConsoleTemplate("""
            <p class="lead">{{lead}}</p>
            {{#none}}<p>{{none}}</p>{{/none}}
            {{^none}}<div class="table-wrap" tabindex="0"><table><thead><tr><th scope="col">{{channel}}</th><th scope="col">{{recipient}}</th><th scope="col">{{attempts}}</th><th scope="col">{{reason}}</th><th scope="col">{{when}}</th></tr></thead>
            <tbody>{{#rows}}<tr><td>{{channel}}</td><td dir="ltr">{{recipient}}</td><td>{{attempts}}</td><td dir="ltr">{{error}}</td><td dir="ltr">{{at}}</td></tr>{{/rows}}</tbody></table></div>{{/none}}
            """)
    }
}
