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
        JOIN auth_users u ON u.school_id = m.school_id AND u.id = m.sender_id
        """
}
