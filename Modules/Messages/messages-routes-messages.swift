import Core
import Foundation

/// The messages of a conversation: a page newest first with a cursor, send (with a `nonce` that
/// makes a retry harmless), edit, delete, and search in one conversation or in all of the caller's.
enum MessageRoutes {
    static var all: [APIRoute] { [page, send, edit, delete, searchConversation, searchAll] }

    static let attachment: APISchema = .object([
        ("id", .id), ("fileName", .text), ("fileUrl", .text), ("fileType", .text), ("fileSize", .integer(minimum: 0)),
        ("thumbnail", .nullable(.text)), ("width", .nullable(.integer())), ("height", .nullable(.integer())),
    ])

    static let messageFields: [(String, APISchema)] = [
        ("id", .id), ("conversationId", .id), ("senderId", .id), ("senderName", .text), ("senderAvatarUrl", .nullable(.text)),
        ("content", .text), ("contentType", .values(["text"])), ("status", .values(of: MessageStatus.self)), ("sentAt", .dateTime),
        ("isRead", .boolean), ("isEdited", .boolean), ("isDeleted", .boolean), ("replyToId", .nullable(.id)), ("nonce", .nullable(.text)),
        ("whatsappStatus", .nullable(.text)), ("attachments", .array(attachment)),
    ]

    static let searchHit: [(String, APISchema)] = [("id", .id), ("senderId", .id), ("senderName", .text), ("content", .text), ("sentAt", .dateTime)]

    private static let conversationParameter = MessagesRoutes.conversationParameter

    // MARK: Page and send

    private static var page: APIRoute {
        APIRoute(.get, "/api/mobile/conversations/:conversationId/messages", summary: "A page of a conversation, newest first (403 if not a participant)",
                 query: [APIParameter("cursor", .id), APIParameter("limit", .integer(minimum: 1, maximum: PageMessages.maximumLimit))],
                 response: .object([("data", .array(.object(messageFields))), ("next_cursor", .nullable(.id))])) { request in
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
        // One schema for both answers: `id` always, the message's other keys or `deduplicated`.
        let response: APISchema = .object([("id", .id), ("deduplicated", .optional(.boolean))] + messageFields.dropFirst().map { ($0.0, .optional($0.1)) })
        return APIRoute(.post, "/api/mobile/conversations/:conversationId/messages", summary: "Sends a message; a repeated nonce is not sent twice",
                        body: .object([("content", .string(maxLength: 4000)), ("reply_to_id", .optional(.id)), ("nonce", .optional(.string(maxLength: TextLimit.name)))]),
                        response: response) { request in
            let conversation = try request.parameter(conversationParameter)
            let body = try request.decode(NewMessage.self)
            let sent = try await contentChecked(replyTo: body.replyToId) {
                try await request.run(SendMessage.self, .init(conversation: conversation, body: body.content, clientID: body.nonce, replyTo: body.replyToId))
            }
            if sent.deduplicated { return try .json(Deduplicated(id: sent.message.id, deduplicated: true), keys: .camelCase) }
            return try .json(MessageItem(MessageView(sent: sent.message, nonce: body.nonce)), keys: .camelCase)
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
                 response: .object([("data", .array(.object(searchHit))), ("total", .integer(minimum: 0))])) { request in
            let conversation = try request.parameter(conversationParameter)
            let query = try searchText(request)
            let limit = try request.queryInteger("limit", in: 1...SearchMessages.maximumLimit) ?? 50
            let hits = try await request.run(SearchMessages.self, .init(query: query, conversation: conversation, limit: limit))
            return try .json(SearchPage(data: hits.map { SearchItem($0, withConversation: false) }, total: hits.count), keys: .camelCase)
        }
    }

    private static var searchAll: APIRoute {
        let item = searchHit + [("conversationId", .id), ("conversationTitle", .text), ("conversationType", .values(of: ConversationType.self))]
        return APIRoute(.get, "/api/mobile/messages/search", summary: "Searches all of the caller's conversations (Arabic-aware)",
                        query: [APIParameter("q", .string(maxLength: TextLimit.title), required: true),
                                APIParameter("limit", .integer(minimum: 1, maximum: SearchMessages.maximumLimit))],
                        response: .object([("data", .array(.object(item))), ("total", .integer(minimum: 0))])) { request in
            let query = try searchText(request)
            let limit = try request.queryInteger("limit", in: 1...SearchMessages.maximumLimit) ?? 30
            let hits = try await request.run(SearchMessages.self, .init(query: query, limit: limit))
            return try .json(SearchPage(data: hits.map { SearchItem($0, withConversation: true) }, total: hits.count), keys: .camelCase)
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

struct MessagePage: Encodable, Sendable {
    let data: [MessageItem]
    let nextCursor: Nullable<String>

    enum CodingKeys: String, CodingKey {
        case data
        case nextCursor = "next_cursor"
    }
}

struct Deduplicated: Encodable, Sendable {
    let id: String
    let deduplicated: Bool
}

/// A message in the contract's camelCase shape. Attachments are not a feature here: always `[]`.
struct MessageItem: Encodable, Sendable {
    struct Attachment: Encodable, Sendable {}

    let id: String
    let conversationId: String
    let senderId: String
    let senderName: String
    let senderAvatarUrl: Nullable<String>
    let content: String
    let contentType: String
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
        contentType = "text"
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

struct SearchPage: Encodable, Sendable {
    let data: [SearchItem]
    let total: Int
}

struct SearchItem: Encodable, Sendable {
    let id: String
    let senderId: String
    let senderName: String
    let content: String
    let sentAt: Date
    let conversationId: String?
    let conversationTitle: String?
    let conversationType: ConversationType?

    init(_ hit: MessageHit, withConversation: Bool) {
        id = hit.message.id
        senderId = hit.message.senderID
        senderName = hit.message.senderName
        content = hit.message.body
        sentAt = hit.message.sentAt
        conversationId = withConversation ? hit.message.conversationID : nil
        conversationTitle = withConversation ? hit.conversationTitle : nil
        conversationType = withConversation ? ConversationType(hit.conversationKind) : nil
    }
}
