import Core
import Foundation

extension MessagesModule: ConsoleModule {
    /// The person's conversations, one of them to read and answer, and a new message.
    public var consolePages: [ConsolePage] { [MessagesConsole.conversations, MessagesConsoleCompose.page] }
}

/// Messages in the console: `messages.list` for the conversations with their unread counts,
/// `messages.show` to read one, `messages.send` to answer it, `messages.update-membership` to mark
/// it read. Whether the person is in a conversation, and may write in it, is the actions' rule:
/// another family's conversation is refused there, and so is a reply to an announcement.
enum MessagesConsole {
    static let conversations = ConsolePage("conversations", title: Words.title, permission: MessagesPermissions.use) { console in
        if console.isPost, let id = console.form.value("conversation") {
            if let body = console.form.value("body") { return try await reply(console, conversation: id, body: body) }
            _ = try await console.run(UpdateMembership.self, .init(conversation: id, markRead: true))
            return .redirect(console.pagePath("messages", "conversations", query: [("c", id), ("read", "1")]))
        }
        return try await render(console, open: console.query["c"].flatMap { $0.isEmpty ? nil : $0 })
    }

    /// A reply through `messages.send`; a refusal (an empty text, a read-only conversation) is shown
    /// beside the text box, which keeps what was written. The form's client id makes a second
    /// press of Send the same message, not a copy.
    static func reply(_ console: ConsoleRequest, conversation id: String, body: String) async throws -> ConsoleResponse {
        let clientID = console.form.value("client").flatMap { $0.isEmpty ? nil : String($0.prefix(64)) }
        do {
            let sent = try await console.run(SendMessage.self, .init(conversation: id, body: body, clientID: clientID))
            return .redirect(console.pagePath("messages", "conversations", query: [("c", id), ("sent", "1")]) + "#message-\(sent.message.id)")
        } catch let error as MessagesError where error != .unknownConversation(id) {
            return try await render(console, open: id, draft: Draft(body: body, problem: console.message(for: error), client: clientID))
        } catch let error as InputError {
            return try await render(console, open: id, draft: Draft(body: body, problem: console.message(for: error), client: clientID))
        }
    }

    /// What the reply box shows again after a refusal.
    struct Draft {
        var body = ""
        var problem = ""
        var client: String?
    }

    static func render(_ console: ConsoleRequest, open: String?, draft: Draft = Draft()) async throws -> ConsoleResponse {
        let list = try await console.run(ListConversations.self, .init())
        var values: [String: Any] = [
            "conversations": list.map { item in
                ["href": console.pagePath("messages", "conversations", query: [("c", item.id)]), "title": item.title,
                 "current": item.id == open,
                 "latest": item.latest.map { "\($0.senderName): \($0.body)" } ?? "",
                 "unread": item.unread > 0 ? console.say(Words.unread, ["count": String(item.unread)]) : ""] as [String: Any]
            },
            "none": list.isEmpty ? console.say(Words.noConversations) : "",
            "read": console.query["read"] != nil ? console.say(Words.markedRead) : "",
            "sent": console.query["sent"] != nil && draft.problem.isEmpty ? console.say(Words.sent) : "",
            "newHref": console.may(MessagesPermissions.start) ? console.pagePath("messages", "new") : "", "newText": console.say(Words.newMessage),
        ]
        if let id = open {
            let shown = try await console.run(ShowConversation.self, .init(conversation: id))
            let summary = list.first { $0.id == shown.conversationID }
            let unread = summary?.unread ?? 0
            values["open"] = [
                "id": shown.conversationID, "heading": shown.title, "unreadCount": unread > 0,
                "messages": shown.messages.map { message in
                    ["id": message.id, "sender": message.senderName, "body": message.deleted ? console.say(Words.deleted) : message.body,
                     "at": console.schoolTime(message.sentAt)] as [String: Any]
                },
                "empty": shown.messages.isEmpty ? console.say(Words.noMessages) : "", "markRead": console.say(Words.markRead),
                "action": console.pagePath("messages", "conversations"),
                "reply": summary?.kind == .announcement && draft.problem.isEmpty ? "" : "yes",
                "replyLabel": console.say(Words.replyLabel), "send": console.say(Words.send), "draft": draft.body, "problem": draft.problem,
                "client": draft.client ?? UUID().uuidString.lowercased(),
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
        static let replyLabel = LocalizedText(ar: "ردّك", en: "Your reply")
        static let send = LocalizedText(ar: "إرسال", en: "Send")
        static let sent = LocalizedText(ar: "أُرسلت رسالتك.", en: "Your message is sent.")
        static let newMessage = LocalizedText(ar: "رسالة جديدة", en: "New message")
    }

    enum Templates {
        static let page = ConsoleTemplate("""
            {{#read}}<p class="notice" role="status" id="saved">{{read}}</p>{{/read}}
            {{#sent}}<p class="notice" role="status" id="sent">{{sent}}</p>{{/sent}}
            {{#newHref}}<p><a class="button primary" id="new-message" href="{{newHref}}">{{newText}}</a></p>{{/newHref}}
            {{#none}}<p>{{none}}</p>{{/none}}
            <ul class="lessons" id="conversation-list" data-live-refresh="notification">{{#conversations}}<li><a class="button" href="{{href}}"{{#current}} aria-current="page"{{/current}}><bdi>{{title}}</bdi></a>{{#unread}} <strong>{{unread}}</strong>{{/unread}}{{#latest}} <span class="hint"><bdi>{{latest}}</bdi></span>{{/latest}}</li>{{/conversations}}</ul>
            {{#open}}<section class="panel" aria-labelledby="conversation-title"><h2 id="conversation-title"><bdi>{{heading}}</bdi></h2>
            {{#empty}}<p>{{empty}}</p>{{/empty}}
            <ol class="messages" id="thread" data-live-refresh="conversation:{{id}}">{{#messages}}<li id="message-{{id}}"><strong><bdi>{{sender}}</bdi></strong> <time dir="ltr">{{at}}</time><p><bdi>{{body}}</bdi></p></li>{{/messages}}</ol>
            {{#reply}}<form method="post" action="{{action}}" id="reply-form" class="field{{#problem}} invalid{{/problem}}" data-submit-once><input type="hidden" name="_csrf" value="{{csrf}}">
            <input type="hidden" name="conversation" value="{{id}}"><input type="hidden" name="client" value="{{client}}">
            <label for="reply-body">{{replyLabel}}</label>
            <textarea id="reply-body" name="body" rows="3" maxlength="4000" required dir="auto"{{#problem}} aria-invalid="true" aria-describedby="reply-problem"{{/problem}}>{{draft}}</textarea>
            {{#problem}}<p class="problem" id="reply-problem" role="alert">{{problem}}</p>{{/problem}}
            <p><button type="submit" class="primary">{{send}}</button></p></form>{{/reply}}
            {{#unreadCount}}<form method="post" action="{{action}}"><input type="hidden" name="_csrf" value="{{csrf}}"><input type="hidden" name="conversation" value="{{id}}">
            <button type="submit">{{markRead}}</button></form>{{/unreadCount}}
            </section>{{/open}}
            """)
    }
}
