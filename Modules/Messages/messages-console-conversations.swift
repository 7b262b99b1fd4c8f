import Core
import Foundation

extension MessagesModule {
    /// The person's conversations, and one of them to read.
    public var consolePages: [ConsolePage] { [MessagesConsole.conversations] }
}

/// Messages in the console: `messages.list` for the conversations with their unread counts,
/// `messages.show` to read one, `messages.update-membership` to mark it read. Whether the person
/// is in a conversation is the actions' rule: another family's conversation is refused there.
enum MessagesConsole {
    static let conversations = ConsolePage("conversations", title: Words.title, permission: MessagesPermissions.use) { console in
        if console.isPost, let id = console.form.value("conversation") {
            _ = try await console.run(UpdateMembership.self, .init(conversation: id, markRead: true))
            return .redirect(console.pagePath("messages", "conversations", query: [("c", id), ("read", "1")]))
        }
        let list = try await console.run(ListConversations.self, .init())
        var values: [String: Any] = [
            "conversations": list.map { item in
                ["href": console.pagePath("messages", "conversations", query: [("c", item.id)]), "title": item.title,
                 "latest": item.latest.map { "\($0.senderName): \($0.body)" } ?? "",
                 "unread": item.unread > 0 ? console.say(Words.unread, ["count": String(item.unread)]) : ""] as [String: Any]
            },
            "none": list.isEmpty ? console.say(Words.noConversations) : "",
            "read": console.query["read"] != nil ? console.say(Words.markedRead) : "",
        ]
        if let id = console.query["c"].flatMap({ $0.isEmpty ? nil : $0 }) {
            let shown = try await console.run(ShowConversation.self, .init(conversation: id))
            let unread = list.first { $0.id == shown.conversationID }?.unread ?? 0
            values["open"] = [
                "id": shown.conversationID, "heading": shown.title, "unreadCount": unread > 0,
                "messages": shown.messages.map { message in
                    ["sender": message.senderName, "body": message.deleted ? console.say(Words.deleted) : message.body,
                     "at": console.schoolTime(message.sentAt)] as [String: Any]
                },
                "empty": shown.messages.isEmpty ? console.say(Words.noMessages) : "", "markRead": console.say(Words.markRead),
                "action": console.pagePath("messages", "conversations"),
            ] as [String: Any]
        }
        return .page(title: console.say(Words.title), body: Templates.page.render(console.common.merging(values) { $1 }))
    }

    enum Words {
        static let title = LocalizedText(ar: "الرسائل", en: "Messages")
        static let unread = LocalizedText(ar: "{count} غير مقروءة", en: "{count} unread")
        static let noConversations = LocalizedText(ar: "لا محادثات بعد.", en: "No conversations yet.")
        static let noMessages = LocalizedText(ar: "لا رسائل في هذه المحادثة.", en: "No messages in this conversation.")
        static let deleted = LocalizedText(ar: "حُذفت هذه الرسالة.", en: "This message was deleted.")
        static let markRead = LocalizedText(ar: "تعليم كمقروءة", en: "Mark as read")
        static let markedRead = LocalizedText(ar: "عُلّمت المحادثة كمقروءة.", en: "Conversation marked as read.")
    }

    enum Templates {
        static let page = ConsoleTemplate("""
            {{#read}}<p class="notice" role="status" id="saved">{{read}}</p>{{/read}}
            {{#none}}<p>{{none}}</p>{{/none}}
            <ul class="lessons" id="conversation-list" data-live-refresh="notification">{{#conversations}}<li><a href="{{href}}"><bdi>{{title}}</bdi></a>{{#unread}} <strong>{{unread}}</strong>{{/unread}}{{#latest}} <span class="hint"><bdi>{{latest}}</bdi></span>{{/latest}}</li>{{/conversations}}</ul>
            {{#open}}<section class="panel" aria-labelledby="conversation-title"><h2 id="conversation-title"><bdi>{{heading}}</bdi></h2>
            {{#empty}}<p>{{empty}}</p>{{/empty}}
            <ol class="messages" id="thread" data-live-refresh="conversation:{{id}}">{{#messages}}<li><strong><bdi>{{sender}}</bdi></strong> <time dir="ltr">{{at}}</time><p><bdi>{{body}}</bdi></p></li>{{/messages}}</ol>
            {{#unreadCount}}<form method="post" action="{{action}}"><input type="hidden" name="_csrf" value="{{csrf}}"><input type="hidden" name="conversation" value="{{id}}">
            <button type="submit">{{markRead}}</button></form>{{/unreadCount}}
            </section>{{/open}}
            """)
    }
}
