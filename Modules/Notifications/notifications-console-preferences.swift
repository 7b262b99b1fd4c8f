import Core
import Foundation

/// "What I receive": every type on each channel (app, email, phone), switched on or off with a checkbox. The link in
/// each email (its `List-Unsubscribe` too) leads here.
extension NotificationsConsole {
    static let preferencesPath = "/m/notifications/preferences"
    static let channelsShown: [NotificationChannel] = [.inApp, .email, .push]

    static let preferences = ConsolePage("preferences", title: Choices.title, permission: NotificationsPermissions.own) { console in
        if console.isPost {
            let chosen = Set(console.form.values("choice"))
            let changes = NotificationType.known.flatMap { type in
                channelsShown.map { channel in
                    SetChannelPreferences.Change(type: type.rawValue, channel: channel, enabled: chosen.contains("\(type.rawValue):\(channel.rawValue)"))
                }
            }
            _ = try await console.run(SetChannelPreferences.self, .init(changes: changes))
            return .redirect(console.pagePath("notifications", "preferences", query: [("saved", "1")]))
        }
        let stored = try await console.run(ChannelPreferences.self, .init())
        let off = Set(stored.filter { !$0.enabled }.map { "\($0.type.rawValue):\($0.channel.rawValue)" })
        let rows: [[String: Any]] = NotificationType.known.map { type in
            [
                "type": console.say(Choices.name(of: type)),
                "cells": channelsShown.map { channel -> [String: Any] in
                    let value = "\(type.rawValue):\(channel.rawValue)"
                    return ["value": value, "checked": !off.contains(value), "label": console.say(Choices.name(of: channel)) + " · " + console.say(Choices.name(of: type))]
                },
            ]
        }
        return .page(title: console.say(Choices.title), body: Choices.page.render(console.common.merging([
            "rows": rows, "channels": channelsShown.map { console.say(Choices.name(of: $0)) }, "typeHeading": console.say(Choices.typeHeading),
            "save": console.say(Choices.save), "action": console.pagePath("notifications", "preferences"), "lead": console.say(Choices.lead),
            "saved": console.query["saved"] == nil ? "" : console.say(Choices.saved),
        ]) { $1 }))
    }

    enum Choices {
        static let title = LocalizedText(ar: "ما يصلني", en: "What I receive")
        static let lead = LocalizedText(ar: "اختر ما يصلك في التطبيق وبالبريد الإلكتروني وتنبيهًا على هاتفك. الإشعار المتوقف في التطبيق لا يُرسل بأي طريقة.",
                                        en: "Choose what reaches you in the app, by email and as a phone alert. A type switched off in the app is not sent any other way either.")
        static let typeHeading = LocalizedText(ar: "النوع", en: "Type")
        static let save = LocalizedText(ar: "حفظ", en: "Save")
        static let saved = LocalizedText(ar: "حُفظت اختياراتك.", en: "Your choices are saved.")

        static func name(of channel: NotificationChannel) -> LocalizedText {
            switch channel {
            case .inApp: LocalizedText(ar: "في التطبيق", en: "In the app")
            case .email: LocalizedText(ar: "البريد الإلكتروني", en: "Email")
            case .push: LocalizedText(ar: "تنبيه الهاتف", en: "Phone alert")
            case .sms: LocalizedText(ar: "رسالة نصية", en: "Text message")
            }
        }

        static func name(of type: NotificationType) -> LocalizedText {
            switch type {
            case .message: LocalizedText(ar: "الرسائل", en: "Messages")
            case .attendanceAlert: LocalizedText(ar: "تنبيهات الغياب", en: "Absence alerts")
            case .excuseDecided: LocalizedText(ar: "قرارات الأعذار", en: "Excuse decisions")
            case .resultsPublished: LocalizedText(ar: "النتائج", en: "Results")
            case .reportCardPublished: LocalizedText(ar: "الشهادات", en: "Report cards")
            case .announcement: LocalizedText(ar: "الإعلانات", en: "Announcements")
            case .feeReminder: LocalizedText(ar: "تذكير بالرسوم", en: "Fee reminders")
            default: LocalizedText(ar: type.rawValue, en: type.rawValue)
            }
        }

        static let page = ConsoleTemplate("""
            {{#saved}}<p class="notice" role="status" id="saved">{{saved}}</p>{{/saved}}
            <p class="lead">{{lead}}</p>
            <form method="post" action="{{action}}"><input type="hidden" name="_csrf" value="{{csrf}}">
            <div class="table-wrap" tabindex="0"><table><thead><tr><th scope="col">{{typeHeading}}</th>{{#channels}}<th scope="col">{{.}}</th>{{/channels}}</tr></thead>
            <tbody>{{#rows}}<tr><th scope="row">{{type}}</th>{{#cells}}<td><input type="checkbox" name="choice" value="{{value}}" aria-label="{{label}}"{{#checked}} checked{{/checked}}></td>{{/cells}}</tr>{{/rows}}</tbody></table></div>
            <button type="submit">{{save}}</button></form>
            """)
    }
}
