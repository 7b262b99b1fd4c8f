import Core

/// A message was sent; `recipients` are the participants who should hear of it (not the sender,
/// not those who muted the conversation).
public struct MessageSent: DomainEvent {
    public static let name = "messages.message-sent"
    public let conversationID: String
    public let conversationTitle: String
    public let kind: String
    public let messageID: String
    public let senderName: String
    public let preview: String
    public let recipients: [String]
}
