import Core
import Foundation

/// The messages of a conversation: a page newest first with a cursor, send (with a `nonce` that
/// makes a retry harmless), edit, delete, and search in one conversation or in all of the caller's.
enum MessageRoutes {
    static var all: [APIRoute] { [page, send, edit, delete, searchConversation, searchAll] }

    private static let conversationParameter = MessagesRoutes.conversationParameter

    // MARK: Page and send

    private static var page: APIRoute {
        APIRoute(.get, "/api/mobile/conversations/:conversationId/messages", summary: "A page of a conversation, newest first (403 if not a participant)",
                 query: [APIParameter("cursor", .id), APIParameter("limit", .integer(minimum: 1, maximum: PageMessages.maximumLimit))],
                 response: .of(MessagePage.self, keys: .camelCase)) { request in
            let conversation = try request.parameter(conversationParameter)
            let cursor = try request.queryText("cursor", maxLength: TextLimit.name)
            let limit = try request.queryInteger("limit", in: 1...PageMessages.maximumLimit) ?? 50
            let output = try await field("cursor", for: MessagesError.unknownCursor(cursor ?? ""), reason: "not a message of this conversation") {
                try await request.run(PageMessages.self, .init(conversation: conversation, cursor: cursor, limit: limit))
            }
            return try .json(MessagePage(data: output.messages.map(MessageItem.init), nextCursor: Nullable(output.nextCursor)), keys: .camelCase)
        }
    }

    struct NewMessage: Decodable {
        let content: String
        let replyToId: String?
        let nonce: String?
    }

    /// One message; a nonce this sender already used answers `{id, deduplicated: true}` and stores nothing.
    private static var send: APIRoute {
        APIRoute(.post, "/api/mobile/conversations/:conversationId/messages", summary: "Sends a message; a repeated nonce is not sent twice",
                 body: .object([("content", .string(maxLength: 4000)), ("reply_to_id", .optional(.id)), ("nonce", .optional(.string(maxLength: TextLimit.name)))]),
                 response: .of(SendAnswer.self, keys: .camelCase)) { request in
            let conversation = try request.parameter(conversationParameter)
            let body = try request.decode(NewMessage.self)
            let sent = try await contentChecked(replyTo: body.replyToId) {
                try await request.run(SendMessage.self, .init(conversation: conversation, body: body.content, clientID: body.nonce, replyTo: body.replyToId))
            }
            if sent.deduplicated { return try .json(SendAnswer(deduplicated: sent.message.id), keys: .camelCase) }
            return try .json(SendAnswer(MessageItem(MessageView(sent: sent.message, nonce: body.nonce))), keys: .camelCase)
        }
    }

    // MARK: Edit and delete

    struct Edit: Decodable {
        let content: String
    }

    private static var edit: APIRoute {
        APIRoute(.patch, "/api/mobile/conversations/:conversationId/messages/:messageId", summary: "Edits one's own message within 15 minutes",
                 body: .object([("content", .string(maxLength: 4000))]), response: .success) { request in
            let conversation = try request.parameter(conversationParameter)
            let message = try request.parameter("messageId")
            let body = try request.decode(Edit.self)
            _ = try await contentChecked(replyTo: nil) {
                try await request.run(EditMessage.self, .init(message: message, body: body.content, conversation: conversation))
            }
            return try .success()
        }
    }

    private static var delete: APIRoute {
        APIRoute(.delete, "/api/mobile/conversations/:conversationId/messages/:messageId",
                 summary: "Deletes a message (its sender, or the conversation's owner or admin); others see it as deleted", response: .success) { request in
            let conversation = try request.parameter(conversationParameter)
            let message = try request.parameter("messageId")
            _ = try await request.run(DeleteMessage.self, .init(message: message, conversation: conversation))
            return try .success()
        }
    }

    // MARK: Search

    private static var searchConversation: APIRoute {
        APIRoute(.get, "/api/mobile/conversations/:conversationId/messages/search", summary: "Searches one conversation (Arabic-aware)",
                 query: [APIParameter("q", .string(maxLength: TextLimit.title), required: true),
                         APIParameter("limit", .integer(minimum: 1, maximum: SearchMessages.maximumLimit))],
                 response: .of(SearchPage<SearchItem>.self, keys: .camelCase)) { request in
            let conversation = try request.parameter(conversationParameter)
            let query = try searchText(request)
            let limit = try request.queryInteger("limit", in: 1...SearchMessages.maximumLimit) ?? 50
            let hits = try await request.run(SearchMessages.self, .init(query: query, conversation: conversation, limit: limit))
            return try .json(SearchPage(data: hits.map(SearchItem.init), total: hits.count), keys: .camelCase)
        }
    }

    private static var searchAll: APIRoute {
        APIRoute(.get, "/api/mobile/messages/search", summary: "Searches all of the caller's conversations (Arabic-aware)",
                 query: [APIParameter("q", .string(maxLength: TextLimit.title), required: true),
                         APIParameter("limit", .integer(minimum: 1, maximum: SearchMessages.maximumLimit))],
                 response: .of(SearchPage<SearchAllItem>.self, keys: .camelCase)) { request in
            let query = try searchText(request)
            let limit = try request.queryInteger("limit", in: 1...SearchMessages.maximumLimit) ?? 30
            let hits = try await request.run(SearchMessages.self, .init(query: query, limit: limit))
            return try .json(SearchPage(data: hits.map(SearchAllItem.init), total: hits.count), keys: .camelCase)
        }
    }

    /// `q`: at least 2 characters besides blanks, as the contract asks.
    private static func searchText(_ request: APIRequest) throws -> String {
        guard let query = try request.queryText("q", maxLength: TextLimit.title),
              query.trimmingCharacters(in: .whitespacesAndNewlines).count >= 2 else {
            throw APIError.invalidField("q", reason: "at least 2 characters")
        }
        return query
    }

    // MARK: Errors named by the contract's fields

    /// The action checks the text as `body`, `client_id` and `replyTo`; the contract calls them
    /// `content`, `nonce` and `reply_to_id`.
    private static func contentChecked<T>(replyTo: String?, _ work: () async throws -> T) async throws -> T {
        do {
            return try await work()
        } catch MessagesError.bodyLength {
            throw APIError.invalidField("content", reason: "1 to 4000 characters, not only blanks")
        } catch let error as InputError where error.messageArguments["field"] == "body" || error.messageArguments["field"] == "client_id" {
            let name = error.messageArguments["field"] == "body" ? "content" : "nonce"
            throw APIError.invalidField(name, reason: "contains a control character or is too long")
        } catch MessagesError.unknownMessage(let id) where id == replyTo {
            throw APIError.invalidField("reply_to_id", reason: "not a message of this conversation")
        }
    }

    private static func field<T>(_ name: String, for expected: MessagesError, reason: String, _ work: () async throws -> T) async throws -> T {
        do {
            return try await work()
        } catch let error as MessagesError where error == expected {
            throw APIError.invalidField(name, reason: reason)
        }
    }
}

struct MessagePage: Codable, Sendable {
    let data: [MessageItem]
    let nextCursor: Nullable<String>

    enum CodingKeys: String, CodingKey {
        case data
        case nextCursor = "next_cursor"
    }
}

/// The only content type here: messages are text.
enum MessageContentType: String, Codable, Sendable, CaseIterable {
    case text
}

/// A message in the contract's camelCase shape. Attachments are not a feature here: always `[]`.
struct MessageItem: Codable, Sendable {
    /// The contract's attachment, never made here: it gives the document the shape of `attachments`' items.
    struct Attachment: Codable, Sendable {
        let id: String
        let fileName: String
        let fileUrl: String
        let fileType: String
        let fileSize: Int
        let thumbnail: Nullable<String>
        let width: Nullable<Int>
        let height: Nullable<Int>
    }

    let id: String
    let conversationId: String
    let senderId: String
    let senderName: String
    let senderAvatarUrl: Nullable<String>
    let content: String
    let contentType: MessageContentType
    let status: MessageStatus
    let sentAt: Date
    let isRead: Bool
    let isEdited: Bool
    let isDeleted: Bool
    let replyToId: Nullable<String>
    let nonce: Nullable<String>
    let whatsappStatus: Nullable<String>
    let attachments: [Attachment]

    init(_ view: MessageView) {
        let message = view.message
        id = message.id
        conversationId = message.conversationID
        senderId = message.senderID
        senderName = message.senderName
        senderAvatarUrl = Nullable(nil)
        content = message.body
        contentType = .text
        status = view.status
        sentAt = message.sentAt
        isRead = view.isRead
        isEdited = message.edited
        isDeleted = message.deleted
        replyToId = Nullable(message.replyTo)
        nonce = Nullable(view.nonce)
        whatsappStatus = Nullable(nil)
        attachments = []
    }
}

/// What a send answers: the message, or `{id, deduplicated: true}` when its nonce was used
/// before. One type for both answers, so every key but `id` may be absent; a message's
/// nullable keys are still written as `null` when it is there.
struct SendAnswer: Codable, Sendable {
    let id: String
    let deduplicated: Bool?
    let conversationId: String?
    let senderId: String?
    let senderName: String?
    let senderAvatarUrl: Nullable<String>?
    let content: String?
    let contentType: MessageContentType?
    let status: MessageStatus?
    let sentAt: Date?
    let isRead: Bool?
    let isEdited: Bool?
    let isDeleted: Bool?
    let replyToId: Nullable<String>?
    let nonce: Nullable<String>?
    let whatsappStatus: Nullable<String>?
    let attachments: [MessageItem.Attachment]?

    /// The message just stored (no `deduplicated` key).
    init(_ message: MessageItem) {
        id = message.id
        deduplicated = nil
        conversationId = message.conversationId
        senderId = message.senderId
        senderName = message.senderName
        senderAvatarUrl = message.senderAvatarUrl
        content = message.content
        contentType = message.contentType
        status = message.status
        sentAt = message.sentAt
        isRead = message.isRead
        isEdited = message.isEdited
        isDeleted = message.isDeleted
        replyToId = message.replyToId
        nonce = message.nonce
        whatsappStatus = message.whatsappStatus
        attachments = message.attachments
    }

    /// A repeated nonce: the earlier message's id and nothing else.
    init(deduplicated id: String) {
        self.id = id
        deduplicated = true
        conversationId = nil
        senderId = nil
        senderName = nil
        senderAvatarUrl = nil
        content = nil
        contentType = nil
        status = nil
        sentAt = nil
        isRead = nil
        isEdited = nil
        isDeleted = nil
        replyToId = nil
        nonce = nil
        whatsappStatus = nil
        attachments = nil
    }
}

struct SearchPage<Item: Codable & Sendable>: Codable, Sendable {
    let data: [Item]
    let total: Int
}

/// A hit in one conversation.
struct SearchItem: Codable, Sendable {
    let id: String
    let senderId: String
    let senderName: String
    let content: String
    let sentAt: Date

    init(_ hit: MessageHit) {
        id = hit.message.id
        senderId = hit.message.senderID
        senderName = hit.message.senderName
        content = hit.message.body
        sentAt = hit.message.sentAt
    }
}

/// Which conversation a hit across the caller's conversations is in.
struct SearchConversation: Codable, Sendable {
    let conversationId: String
    let conversationTitle: String
    let conversationType: ConversationType
}

/// A hit across the caller's conversations: a hit's keys and its conversation's, in one object.
/// Its own type rather than optional keys on `SearchItem`, so both documents say what is always there.
typealias SearchAllItem = APIMerged<SearchItem, SearchConversation>

extension APIMerged where Base == SearchItem, Extra == SearchConversation {
    init(_ hit: MessageHit) {
        self.init(SearchItem(hit), SearchConversation(conversationId: hit.message.conversationID, conversationTitle: hit.conversationTitle,
                                                      conversationType: ConversationType(hit.conversationKind)))
    }
}
