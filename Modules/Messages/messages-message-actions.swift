import Core
import Foundation
import Students

/// Sends a message (1 to 4000 characters). A client-supplied id makes a retry harmless: the
/// same sender and id return the message already stored, marked `deduplicated` (the id is the
/// API's `nonce`, unique per sender in the table, so two senders never collide, and stored, so
/// a replay after a restart is still one message). `sentAt` lets a message written offline keep
/// its own time within `MessageTime.window` of its arrival (a phone's clock is not trusted
/// further); a conversation is ordered by that time, then by arrival, while unread counts
/// follow arrival so a late message is still unread.
public struct SendMessage: Action {
    public struct Input: Codable, Sendable {
        public var conversation: String
        public var body: String
        public var clientID: String?
        public var sentAt: Date?
        public var replyTo: String?
        public init(conversation: String, body: String, clientID: String? = nil, sentAt: Date? = nil, replyTo: String? = nil) {
            self.conversation = conversation
            self.body = body
            self.clientID = clientID
            self.sentAt = sentAt
            self.replyTo = replyTo
        }

        /// `clientId` as the sync wire spells it (the offline mutation's args are this input).
        enum CodingKeys: String, CodingKey {
            case conversation, body, sentAt, replyTo
            case clientID = "clientId"
        }
    }

    public static let id = "messages.send"
    public static let permission = MessagesPermissions.use

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        let membership = try Conversations.membership(input.conversation, context)
        guard membership.role != .readOnly else { throw MessagesError.readOnly }
        try MessageText.check(body: input.body)
        if let clientID = input.clientID { try TextInput.check(clientID, field: "client_id", maxLength: TextLimit.name) }
        if let reply = input.replyTo {
            let found: Int = try context.database.fetchValue("SELECT COUNT(*) FROM messages_messages WHERE school_id = :school_id AND conversation_id = :c AND id = :id",
                                                             ["c": .text(membership.id), "id": .text(reply)]) ?? 0
            if found == 0 { throw MessagesError.unknownMessage(reply) }
        }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> SentMessage {
        try store(input, sentAt: MessageTime.clamped(input.sentAt, receivedAt: context.now), context)
    }

    /// Stores the message at `sentAt` as given: the demo writes yesterday's history through here.
    func store(_ input: Input, sentAt: Date, _ context: ActionContext) throws -> SentMessage {
        let me = context.principal.userID
        // A copy sent at the same moment (an app's retry) waits for this one, then finds it stored.
        if let clientID = input.clientID { try context.database.serializeWriters(on: "messages.client-id|\(me)|\(clientID)") }
        if let clientID = input.clientID, let earlier = try context.database.fetchOne(
            "\(Message.select) WHERE m.school_id = :school_id AND m.sender_id = :me AND m.client_id = :client", ["me": .text(me), "client": .text(clientID)]) {
            return SentMessage(message: Message(row: earlier), deduplicated: true)
        }
        let membership = try Conversations.membership(input.conversation, context)
        // The conversation's counter row numbers the message: a second writer waits on the row
        // lock and takes the next number, never the same one.
        guard let seq: Int = try context.database.fetchValue("""
            UPDATE messages_conversations SET message_seq = message_seq + 1,
                last_message_at = CASE WHEN last_message_at IS NULL OR last_message_at < :at THEN :at ELSE last_message_at END
            WHERE school_id = :school_id AND id = :c RETURNING message_seq
            """, ["at": SQLValue(sentAt), "c": .text(membership.id)]) else { throw MessagesError.unknownConversation(input.conversation) }
        let id = context.newID()
        try context.database.insert(into: "messages_messages", [
            "id": .text(id), "conversation_id": .text(membership.id), "sender_id": .text(me), "body": .text(input.body),
            "search_key": .text(ArabicSearch.fold(input.body)), "sent_at": SQLValue(sentAt), "seq": .integer(Int64(seq)),
            "client_id": SQLValue(input.clientID), "reply_to": SQLValue(input.replyTo),
        ])
        // The sender has read their own message.
        try context.database.execute("UPDATE messages_participants SET last_read_seq = :seq WHERE school_id = :school_id AND conversation_id = :c AND user_id = :me",
                                     ["seq": .integer(Int64(seq)), "c": .text(membership.id), "me": .text(me)])
        let recipients = try context.database.fetchAll(
            "SELECT user_id FROM messages_participants WHERE school_id = :school_id AND conversation_id = :c AND user_id != :me AND muted = 0",
            ["c": .text(membership.id), "me": .text(me)]).map { $0.string("user_id") }
        try context.publish(MessageSent(conversationID: membership.id, conversationTitle: membership.title, kind: membership.kind.rawValue, messageID: id,
                                        senderName: context.principal.displayName, preview: String(input.body.prefix(120)), recipients: recipients))
        guard let row = try context.database.fetchOne("\(Message.select) WHERE m.school_id = :school_id AND m.id = :id", ["id": .text(id)]) else {
            throw MessagesError.unknownMessage(id)
        }
        return SentMessage(message: Message(row: row), deduplicated: false)
    }
}

/// A page of a conversation, newest last. Page 1 is the most recent 20 messages.
public struct ShowConversation: Action {
    public struct Input: Codable, Sendable {
        public var conversation: String
        public var page: Int
        public init(conversation: String, page: Int = 1) {
            self.conversation = conversation
            self.page = page
        }
    }

    public struct Output: Codable, Sendable {
        public let conversationID: String
        public let title: String
        public let messages: [Message]
        public let page: Int
        public let pageCount: Int
    }

    public static let id = "messages.show"
    public static let permission = MessagesPermissions.use
    public static let isReadOnly = true
    public static let pageSize = 20

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        // Bounded here too, not only on the command line: the offset below must not overflow.
        guard (1...100_000).contains(input.page) else { throw InputError("messages.error.page") }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Output {
        let membership = try Conversations.membership(input.conversation, context)
        let total: Int = try context.database.fetchValue("SELECT COUNT(*) FROM messages_messages WHERE school_id = :school_id AND conversation_id = :c",
                                                         ["c": .text(membership.id)]) ?? 0
        let rows = try context.database.fetchAll("""
            \(Message.select) WHERE m.school_id = :school_id AND m.conversation_id = :c ORDER BY m.sent_at DESC, m.seq DESC, m.id DESC LIMIT :limit OFFSET :offset
            """, ["c": .text(membership.id), "limit": .integer(Int64(Self.pageSize)), "offset": .integer(Int64((input.page - 1) * Self.pageSize))])
        return Output(conversationID: membership.id, title: membership.title, messages: rows.map(Message.init(row:)).reversed(),
                      page: input.page, pageCount: max(1, (total + Self.pageSize - 1) / Self.pageSize))
    }
}

/// A page of a conversation, newest first, before a cursor (a message id of the conversation):
/// what a phone scrolls back through. The next cursor is the page's last id when the page is full.
public struct PageMessages: Action {
    public struct Input: Codable, Sendable {
        public var conversation: String
        public var cursor: String?
        public var limit: Int
        public init(conversation: String, cursor: String? = nil, limit: Int = 50) {
            self.conversation = conversation
            self.cursor = cursor
            self.limit = limit
        }
    }

    public struct Output: Codable, Sendable {
        public let messages: [MessageView]
        public let nextCursor: String?
    }

    public static let id = "messages.page"
    public static let permission = MessagesPermissions.use
    public static let isReadOnly = true
    public static let maximumLimit = 100

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        guard (1...Self.maximumLimit).contains(input.limit) else { throw MessagesError.limit(Self.maximumLimit) }
        let membership = try Conversations.membership(input.conversation, context)
        if let cursor = input.cursor { _ = try Self.position(cursor, in: membership.id, context) }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Output {
        let conversation = try Conversations.membership(input.conversation, context).id
        var arguments: SQLArguments = ["me": .text(context.principal.userID), "c": .text(conversation), "limit": .integer(Int64(input.limit))]
        var before = ""
        if let cursor = input.cursor {
            let position = try Self.position(cursor, in: conversation, context)
            arguments.merge(["at": position.sentAt, "seq": position.seq, "id": position.id]) { $1 }
            before = "AND (m.sent_at < :at OR (m.sent_at = :at AND (m.seq < :seq OR (m.seq = :seq AND m.id < :id))))"
        }
        let rows = try context.database.fetchAll("""
            \(MessageView.select) WHERE m.school_id = :school_id AND m.conversation_id = :c \(before)
            ORDER BY m.sent_at DESC, m.seq DESC, m.id DESC LIMIT :limit
            """, arguments)
        let messages = rows.map { MessageView(row: $0, me: context.principal.userID) }
        return Output(messages: messages, nextCursor: messages.count == input.limit ? messages.last?.message.id : nil)
    }

    /// Where a cursor sits in the conversation's order; exact ids only.
    private static func position(_ cursor: String, in conversation: String, _ context: ActionContext) throws -> (sentAt: SQLValue, seq: SQLValue, id: SQLValue) {
        guard MessageText.isReference(cursor), let row = try context.database.fetchOne(
            "SELECT sent_at, seq, id FROM messages_messages WHERE school_id = :school_id AND conversation_id = :c AND id = :id",
            ["c": .text(conversation), "id": .text(cursor)]) else { throw MessagesError.unknownCursor(cursor) }
        return (.text(row.string("sent_at")), .integer(Int64(row.int("seq"))), .text(row.string("id")))
    }
}

/// Edits one's own message within 15 minutes of sending it.
public struct EditMessage: Action {
    public struct Input: Codable, Sendable {
        public var message: String
        public var body: String
        /// When given, the message must be in this conversation (the API's path names both).
        public var conversation: String?
        public init(message: String, body: String, conversation: String? = nil) {
            self.message = message
            self.body = body
            self.conversation = conversation
        }
    }

    public static let id = "messages.edit"
    public static let permission = MessagesPermissions.use
    public static let editWindow: TimeInterval = 15 * 60

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        let row = try MessageLookup.row(input.message, in: input.conversation, context)
        guard (row["deleted_at"] as String?) == nil else { throw MessagesError.unknownMessage(input.message) }
        guard row.string("sender_id") == context.principal.userID else { throw MessagesError.notSender }
        guard let sent: Date = row["sent_at"], context.now.timeIntervalSince(sent) <= Self.editWindow else { throw MessagesError.editWindowClosed }
        try MessageText.check(body: input.body)
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Message {
        let row = try MessageLookup.row(input.message, context)
        try context.database.execute("UPDATE messages_messages SET body = :body, search_key = :key, edited_at = :now WHERE school_id = :school_id AND id = :id",
                                     ["body": .text(input.body), "key": .text(ArabicSearch.fold(input.body)), "now": SQLValue(context.now), "id": .text(row.string("id"))])
        return Message(row: try MessageLookup.row(row.string("id"), context))
    }
}

/// Deletes a message, by its sender or a conversation owner or admin. Others see it as deleted.
public struct DeleteMessage: Action {
    public struct Input: Codable, Sendable {
        public var message: String
        /// When given, the message must be in this conversation (the API's path names both).
        public var conversation: String?
        public init(message: String, conversation: String? = nil) {
            self.message = message
            self.conversation = conversation
        }
    }

    public static let id = "messages.delete"
    public static let permission = MessagesPermissions.use

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        let row = try MessageLookup.row(input.message, in: input.conversation, context)
        let membership = try Conversations.membership(row.string("conversation_id"), context)
        guard row.string("sender_id") == context.principal.userID || [.owner, .admin].contains(membership.role) else { throw MessagesError.notSender }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Bool {
        let row = try MessageLookup.row(input.message, context)
        try context.database.execute("UPDATE messages_messages SET deleted_at = :now WHERE school_id = :school_id AND id = :id",
                                     ["now": SQLValue(context.now), "id": .text(row.string("id"))])
        return true
    }
}

/// Searches the caller's conversations (or one of them), Arabic-aware: no diacritics needed,
/// alef forms folded. Newest first, at most `limit` (1 to 100).
public struct SearchMessages: Action {
    public struct Input: Codable, Sendable {
        public var query: String
        /// Only this conversation (the caller must take part in it).
        public var conversation: String?
        public var limit: Int
        public init(query: String, conversation: String? = nil, limit: Int = 50) {
            self.query = query
            self.conversation = conversation
            self.limit = limit
        }
    }

    public static let id = "messages.search"
    public static let permission = MessagesPermissions.use
    public static let isReadOnly = true
    public static let maximumLimit = 100

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        try TextInput.check(input.query, field: "query", maxLength: TextLimit.title)
        guard !ArabicSearch.fold(input.query).isEmpty else { throw MessagesError.bodyLength }
        guard (1...Self.maximumLimit).contains(input.limit) else { throw MessagesError.limit(Self.maximumLimit) }
        if let conversation = input.conversation { _ = try Conversations.membership(conversation, context) }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> [MessageHit] {
        var arguments: SQLArguments = ["me": .text(context.principal.userID), "pattern": .text(LikePattern.contains(ArabicSearch.fold(input.query))),
                                       "limit": .integer(Int64(input.limit))]
        if let conversation = input.conversation { arguments["c"] = .text(try Conversations.membership(conversation, context).id) }
        return try context.database.fetchAll("""
            SELECT m.*, u.display_name AS sender_name, c.kind AS conversation_kind, \(Conversations.title)
            FROM messages_messages m JOIN auth_v1_people u ON u.school_id = m.school_id AND u.id = m.sender_id
            JOIN messages_participants p ON p.school_id = m.school_id AND p.conversation_id = m.conversation_id AND p.user_id = :me
            JOIN messages_conversations c ON c.school_id = m.school_id AND c.id = m.conversation_id
            WHERE m.school_id = :school_id AND m.deleted_at IS NULL AND m.search_key LIKE :pattern \(LikePattern.escapeClause)
              \(input.conversation == nil ? "" : "AND m.conversation_id = :c")
            ORDER BY m.sent_at DESC, m.seq DESC, m.id DESC LIMIT :limit
            """, arguments).map { row in
            MessageHit(message: Message(row: row), conversationTitle: row.string("title"),
                       conversationKind: ConversationKind(rawValue: row.string("conversation_kind")) ?? .group)
        }
    }
}

enum MessageLookup {
    /// A message in one of the caller's conversations, by id or unambiguous prefix, and when
    /// `conversation` is given, in that conversation (another one's message is not found).
    static func row(_ reference: String, in conversation: String?, _ context: ActionContext) throws -> SQLRow {
        let expected = try conversation.map { try Conversations.membership($0, context).id }
        let row = try row(reference, context)
        if let expected, expected != row.string("conversation_id") { throw MessagesError.unknownMessage(reference) }
        return row
    }

    /// A message in one of the caller's conversations, by id or unambiguous prefix.
    static func row(_ reference: String, _ context: ActionContext) throws -> SQLRow {
        guard MessageText.isReference(reference) else { throw MessagesError.unknownMessage(reference) }
        let rows = try context.database.fetchAll("""
            \(Message.select) JOIN messages_participants p ON p.school_id = m.school_id AND p.conversation_id = m.conversation_id AND p.user_id = :me
            WHERE m.school_id = :school_id AND m.id LIKE :prefix \(LikePattern.escapeClause) LIMIT 2
            """, ["me": .text(context.principal.userID), "prefix": .text(LikePattern.prefix(reference))])
        guard rows.count == 1, let row = rows.first else { throw MessagesError.unknownMessage(reference) }
        return row
    }
}
