import Core
import Foundation

public enum ConversationKind: String, Codable, Sendable, CaseIterable {
    case direct = "DIRECT"
    case group = "GROUP"
    case `class` = "CLASS"
    case announcement = "ANNOUNCEMENT"
}

public enum ParticipantRole: String, Codable, Sendable {
    case owner = "OWNER"
    case admin = "ADMIN"
    case member = "MEMBER"
    case readOnly = "READ_ONLY"
}

public struct ConversationSummary: Codable, Sendable, Equatable {
    public let id: String
    public let kind: ConversationKind
    public let title: String
    public let participants: Int
    public let unread: Int
    public let muted: Bool
    public let lastMessage: String?
    public let lastMessageAt: Date?
    public let createdAt: Date
    /// The newest message that is not deleted.
    public let latest: LatestMessage?
}

/// A conversation's newest message, as its list shows it.
public struct LatestMessage: Codable, Sendable, Equatable {
    public let id: String
    public let body: String
    public let senderName: String
    public let sentAt: Date
    /// Every participant other than the sender has read it.
    public let readByAll: Bool
}

/// A conversation the caller started, or the direct one that already existed for the pair.
public struct StartedConversation: Codable, Sendable, Equatable {
    public let id: String
    public let created: Bool
}

/// What a send stored, or, for a client id (nonce) the sender already used, what it stored then.
public struct SentMessage: Codable, Sendable, Equatable {
    public let message: Message
    /// True when nothing new was stored: the same sender sent this client id before.
    public let deduplicated: Bool
}

/// Whether everyone else has read a message.
public enum MessageStatus: String, Codable, Sendable, CaseIterable {
    case sent
    case read
}

/// A message as one participant sees it in a page of its conversation.
public struct MessageView: Codable, Sendable, Equatable {
    public let message: Message
    /// `read` once every other participant has read it.
    public let status: MessageStatus
    /// The caller's own message: whether everyone else has read it; another's: whether the caller has.
    public let isRead: Bool
    /// The client id the sender gave (the API's nonce), shown to the sender only.
    public let nonce: String?

    /// A message its sender has just sent: nobody else has read it yet.
    init(sent message: Message, nonce: String?) {
        self.message = message
        status = .sent
        isRead = false
        self.nonce = nonce
    }

    init(row: SQLRow, me: String) {
        message = Message(row: row)
        status = row["read_by_all"] == true ? .read : .sent
        isRead = message.senderID == me ? status == .read : row.int("my_read_seq") >= row.int("seq")
        nonce = message.senderID == me ? row["client_id"] : nil
    }

    /// Message columns with `read_by_all` and `my_read_seq` (the caller `:me`).
    static let select = """
        SELECT m.*, u.display_name AS sender_name,
            CASE WHEN EXISTS (SELECT 1 FROM messages_participants o WHERE o.school_id = m.school_id AND o.conversation_id = m.conversation_id
                              AND o.user_id != m.sender_id AND o.last_read_seq < m.seq) THEN 0 ELSE 1 END AS read_by_all,
            (SELECT r.last_read_seq FROM messages_participants r WHERE r.school_id = m.school_id AND r.conversation_id = m.conversation_id
                 AND r.user_id = :me) AS my_read_seq
        FROM messages_messages m JOIN auth_v1_people u ON u.school_id = m.school_id AND u.id = m.sender_id
        """
}

/// A search result: the message and the conversation it is in, titled for the caller.
public struct MessageHit: Codable, Sendable, Equatable {
    public let message: Message
    public let conversationTitle: String
    public let conversationKind: ConversationKind
}

/// School totals for administrators.
public struct MessagesStatistics: Codable, Sendable, Equatable {
    /// Conversations in the school (nothing is archived, so every one counts as active).
    public let conversations: Int
}

public struct Message: Codable, Sendable, Equatable {
    public let id: String
    public let conversationID: String
    public let senderID: String
    public let senderName: String
    /// Empty when deleted: others see that a message was there, not what it said.
    public let body: String
    public let sentAt: Date
    public let replyTo: String?
    public let edited: Bool
    public let deleted: Bool

    init(row: SQLRow) {
        id = row.string("id")
        conversationID = row.string("conversation_id")
        senderID = row.string("sender_id")
        senderName = row.string("sender_name")
        deleted = (row["deleted_at"] as String?) != nil
        body = deleted ? "" : row.string("body")
        sentAt = row["sent_at"] ?? Date(timeIntervalSince1970: 0)
        replyTo = row["reply_to"]
        edited = (row["edited_at"] as String?) != nil
    }

    static let select = """
        SELECT m.*, u.display_name AS sender_name FROM messages_messages m
        JOIN auth_v1_people u ON u.school_id = m.school_id AND u.id = m.sender_id
        """
}
