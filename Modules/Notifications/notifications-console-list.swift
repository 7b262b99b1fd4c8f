import Core
import Foundation

extension NotificationsModule: ConsoleModule {
    /// The person's notifications, to read and mark read.
    public var consolePages: [ConsolePage] { [NotificationsConsole.list, NotificationsConsole.preferences, NotificationsConsole.outbox] }
}

/// Notifications in the console: `notifications.list` and `notifications.read` (one, by its whole
/// id, or all). A notification that is not the person's is neither marked nor revealed: the action's rule.
enum NotificationsConsole {
    /// The menu entry counts the unread, and the open page adds each new one as it comes (`/live`).
    static let unreadBadge = ConsoleBadge(liveKind: NotificationsLive.kind, label: Words.unreadBadge) { console in
        try await console.run(ListNotifications.self, .init(limit: 1)).unread
    }

    static let list = ConsolePage("list", title: Words.title, permission: NotificationsPermissions.own, badge: unreadBadge) { console in
        if console.isPost {
            let one = console.form.value("notification").flatMap { $0.isEmpty ? nil : $0 }
            let marked = try await console.run(MarkNotificationsRead.self, .init(notification: one, exact: true))
            return .redirect(console.pagePath("notifications", "list", query: [("marked", String(marked))]))
        }
        let answer = try await console.run(ListNotifications.self, .init(limit: 50))
        let rows: [[String: Any]] = answer.notifications.map { item in
            ["id": item.id, "title": item.title.text(in: console.language), "body": item.body.text(in: console.language), "unread": !item.read,
             "at": console.schoolTime(item.createdAt),
             "state": console.say(item.read ? Words.read : Words.new), "markOne": console.say(Words.markOne)]
        }
        return .page(title: console.say(Words.title), body: Templates.page.render(console.common.merging([
            "notifications": rows, "none": rows.isEmpty ? console.say(Words.none) : "",
            "summary": console.say(Words.summary, ["count": String(answer.unread)]), "anyUnread": answer.unread > 0,
            "markAll": console.say(Words.markAll), "action": console.pagePath("notifications", "list"),
            "marked": console.query["marked"].map { console.say(Words.marked, ["count": $0]) } ?? "",
        ]) { $1 }))
    }

    enum Words {
        static let title = LocalizedText(ar: "الإشعارات", en: "Notifications")
        static let none = LocalizedText(ar: "لا إشعارات.", en: "No notifications.")
        static let summary = LocalizedText(ar: "غير المقروءة: {count}", en: "Unread: {count}")
        static let unreadBadge = LocalizedText(ar: "غير مقروءة", en: "unread")
        static let new = LocalizedText(ar: "جديد", en: "New")
        static let read = LocalizedText(ar: "مقروء", en: "Read")
        static let markOne = LocalizedText(ar: "تعليم كمقروء", en: "Mark as read")
        static let markAll = LocalizedText(ar: "تعليم الكل كمقروء", en: "Mark all as read")
        static let marked = LocalizedText(ar: "عُلّم {count} إشعار كمقروء.", en: "{count} marked as read.")
    }

    enum Templates {
        static let page = ConsoleTemplate("""
            {{#marked}}<p class="notice" role="status" id="saved">{{marked}}</p>{{/marked}}
            <div id="notification-list" data-live-refresh="notification">
            <p class="lead">{{summary}}</p>
            {{#anyUnread}}<form method="post" action="{{action}}"><input type="hidden" name="_csrf" value="{{csrf}}"><button type="submit">{{markAll}}</button></form>{{/anyUnread}}
            {{#none}}<p>{{none}}</p>{{/none}}
            <ul class="notifications">{{#notifications}}<li{{#unread}} class="unread"{{/unread}}><strong id="n-{{id}}"><bdi>{{title}}</bdi></strong> <span class="hint">{{state}} · <time dir="ltr">{{at}}</time></span>
            <p><bdi>{{body}}</bdi></p>
            {{#unread}}<form method="post" action="{{action}}"><input type="hidden" name="_csrf" value="{{csrf}}"><input type="hidden" name="notification" value="{{id}}">
            <button type="submit" aria-describedby="n-{{id}}">{{markOne}}</button></form>{{/unread}}</li>{{/notifications}}</ul>
            </div>
            """)
    }
}
