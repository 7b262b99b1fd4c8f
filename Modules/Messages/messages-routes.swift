import Core
import Foundation

/// `/api/mobile/conversations` and `/api/mobile/messages` (contract §8). The web app answers these
/// in camelCase (`unreadCount`, `lastMessage`), so responses are encoded with `keys: .camelCase`;
/// request bodies keep the contract's snake_case (`participant_ids`, `reply_to_id`). Every handler
/// decodes, runs one of this module's actions (participation, roles and the school are checked
/// there) and encodes.
enum MessagesRoutes {
    static var all: [APIRoute] { conversationRoutes + MessageRoutes.all }

    static var conversationRoutes: [APIRoute] { [listConversations, startConversation, markRead, mute] }

    static let conversationParameter = "conversationId"

    // MARK: Routes

    private static var listConversations: APIRoute {
        APIRoute(.get, "/api/mobile/conversations", summary: "The caller's conversations with unread counts and the newest message",
                 query: [APIParameter("type", .values(of: ConversationType.self))],
                 response: .of(ConversationList.self, keys: .camelCase)) { request in
            let kind = try request.queryEnum("type", as: ConversationType.self)?.kind
            let conversations = try await request.run(ListConversations.self, .init(kind: kind))
            return try .json(ConversationList(data: conversations.map(ConversationItem.init), total: conversations.count), keys: .camelCase)
        }
    }

    struct NewConversation: Decodable {
        let participantIds: [String]
        let type: ConversationType?
        let title: String?
        /// Ours: the class of a `class` conversation, and who an `announcement` reaches (`all`, `role:TEACHER`, `class:7A`).
        let classCode: String?
        let audience: String?
    }

    /// 201 with a new conversation's id; 200 with the existing one's when the caller already has
    /// a direct conversation with that person (one per pair).
    private static var startConversation: APIRoute {
        APIRoute(.post, "/api/mobile/conversations", summary: "Starts a conversation (a direct one is found, not duplicated: then 200)",
                 body: .object([
                    ("participant_ids", .array(.id)), ("type", .optional(.values(of: ConversationType.self))),
                    ("title", .optional(.string(maxLength: TextLimit.title))), ("class_code", .optional(.text)), ("audience", .optional(.text)),
                 ]),
                 status: 201, otherStatuses: [200], response: .of(ConversationIdentifier.self, keys: .camelCase)) { request in
            let body = try request.decode(NewConversation.self)
            let kind = (body.type ?? .direct).kind
            if [.direct, .group].contains(kind), body.participantIds.isEmpty {
                throw APIError.invalidField("participant_ids", reason: "name at least one participant")
            }
            let started = try await request.run(StartConversation.self, .init(
                kind: kind, title: body.title, classCode: body.classCode, audience: body.audience,
                userIDs: [.direct, .group].contains(kind) ? body.participantIds : []))
            return try .json(ConversationIdentifier(id: started.id), status: started.created ? 201 : 200, keys: .camelCase)
        }
    }

    private static var markRead: APIRoute {
        APIRoute(.post, "/api/mobile/conversations/:conversationId/read", summary: "Marks everything received in a conversation read",
                 response: .success) { request in
            let conversation = try request.parameter(conversationParameter)
            _ = try await request.run(UpdateMembership.self, .init(conversation: conversation, markRead: true))
            return try .success()
        }
    }

    struct Mute: Decodable {
        let muted: Bool?
    }

    private static var mute: APIRoute {
        APIRoute(.post, "/api/mobile/conversations/:conversationId/mute", summary: "Mutes a conversation (muted: false unmutes)",
                 body: .object([("muted", .optional(.boolean))]), response: .success) { request in
            let conversation = try request.parameter(conversationParameter)
            // An empty body means "mute", as in the web app.
            let muted = request.body.isEmpty ? true : try request.decode(Mute.self).muted ?? true
            _ = try await request.run(UpdateMembership.self, .init(conversation: conversation, muted: muted))
            return try .success()
        }
    }

    // MARK: Dashboard

    /// `unread_messages` for everyone who takes part in conversations.
    static var dashboard: DashboardContribution {
        DashboardContribution(fields: [("unread_messages", .integer(minimum: 0))]) { request in
            guard request.kernel.registry.policy.scope(of: request.principal.role, for: MessagesPermissions.use) != nil else { return [:] }
            let conversations = try await request.run(ListConversations.self, .init())
            return ["unread_messages": .int(conversations.reduce(0) { $0 + $1.unread })]
        }
    }

    /// `active_conversations`: every conversation of the school (nothing is archived here).
    static var adminStats: DashboardContribution {
        DashboardContribution(fields: [("active_conversations", .integer(minimum: 0))]) { request in
            guard request.kernel.registry.policy.scope(of: request.principal.role, for: MessagesPermissions.stats) != nil else { return [:] }
            return ["active_conversations": .int(try await request.run(MessagesStats.self, .init()).conversations)]
        }
    }
}

/// The contract's conversation types: our kinds, in lower case.
enum ConversationType: String, Codable, Sendable, CaseIterable {
    case direct, group, `class`, announcement

    init(_ kind: ConversationKind) {
        self = switch kind {
        case .direct: .direct
        case .group: .group
        case .class: .class
        case .announcement: .announcement
        }
    }

    var kind: ConversationKind {
        switch self {
        case .direct: .direct
        case .group: .group
        case .class: .class
        case .announcement: .announcement
        }
    }
}

struct ConversationList: Codable, Sendable {
    let data: [ConversationItem]
    let total: Int
}

struct ConversationItem: Codable, Sendable {
    struct Latest: Codable, Sendable {
        let id: String
        let content: String
        let senderName: String
        let status: MessageStatus
        let sentAt: Date
    }

    let id: String
    let type: ConversationType
    let title: String
    let avatarUrl: Nullable<String>
    let unreadCount: Int
    let isPinned: Bool
    let isMuted: Bool
    let whatsappEnabled: Bool
    let updatedAt: Date
    let lastMessage: Nullable<Latest>

    init(_ summary: ConversationSummary) {
        id = summary.id
        type = ConversationType(summary.kind)
        title = summary.title
        avatarUrl = Nullable(nil)
        unreadCount = summary.unread
        // Pinning and the WhatsApp bridge are not features of this platform.
        isPinned = false
        isMuted = summary.muted
        whatsappEnabled = false
        updatedAt = summary.lastMessageAt ?? summary.createdAt
        lastMessage = Nullable(summary.latest.map { latest in
            Latest(id: latest.id, content: latest.body, senderName: latest.senderName, status: latest.readByAll ? .read : .sent, sentAt: latest.sentAt)
        })
    }
}

/// A started (or found) conversation: its id only.
struct ConversationIdentifier: Codable, Sendable {
    let id: String
}
