import Core
import Foundation

/// Offline sync's rule for messages (seed 000 §9.2: merge, appended by timestamp): a message
/// keeps the time its author wrote it, but only within two minutes of the server's receive
/// time, so a phone with a wrong clock (or one that sat offline for a day) cannot slip a message
/// far back into history or pin it to the top of the conversation.
public enum MessageTime {
    /// How far a client's `sentAt` may sit from the server's receive time, either way.
    public static let window: TimeInterval = 2 * 60

    /// `sentAt` pulled into `receivedAt ± window`; no `sentAt` is the receive time.
    public static func clamped(_ sentAt: Date?, receivedAt: Date) -> Date {
        guard let sentAt else { return receivedAt }
        return min(max(sentAt, receivedAt.addingTimeInterval(-window)), receivedAt.addingTimeInterval(window))
    }
}

/// What Messages shares with offline apps: each conversation and message goes to every
/// participant (`user:<id>`), nobody else; an offline send is `messages.send@1`.
///
/// A conversation's payload leaves out what changes on every message (its last message time,
/// read positions), so a send records the message alone and not its conversation again for
/// each participant.
enum MessagesSync {
    static let entities = [conversation, message]
    static let mutations = [SyncMutation("messages.send@1", SendMessage.self, check: { input, _ in
        // The client id is what makes a replay one message: an offline send must carry it.
        guard let clientID = input.clientID, !clientID.isEmpty else { throw InputError("messages.error.client-id-required") }
    })]

    static let conversation = SyncEntityType("conversation", sources: [SyncSource(table: "messages_conversations"),
                                                                       SyncSource(table: "messages_participants", idColumn: "conversation_id")],
                                             load: { ids, context in
        let rows = try context.database.fetchAll("""
            SELECT id, kind, title, class_id, created_by, created_at FROM messages_conversations
            WHERE school_id = :school_id AND id IN (SELECT value FROM json_each(:ids))
            """, ["ids": .text(json(ids))])
        let people = try participants(of: rows.map { $0.string("id") }, context)
        var entities: [String: SyncEntity] = [:]
        for row in rows {
            let members = people[row.string("id")] ?? []
            entities[row.string("id")] = SyncEntity(data: [
                "id": .string(row.string("id")), "kind": .string(row.string("kind")), "title": .string(row.string("title")),
                "classId": .optional(row["class_id"]), "createdBy": .string(row.string("created_by")), "createdAt": .string(row.string("created_at")),
                "participants": .array(members.map { .object(["userId": .string($0.user), "name": .string($0.name), "role": .string($0.role)]) }),
            ], scopes: members.map { .user($0.user) })
        }
        return entities
    }, snapshot: { scope, after, limit, context in
        try context.database.fetchAll("""
            SELECT DISTINCT conversation_id AS id FROM messages_participants
            WHERE school_id = :school_id AND user_id IN (SELECT value FROM json_each(:users)) AND conversation_id > :after
            ORDER BY conversation_id LIMIT :limit
            """, ["users": .text(scope.jsonIDs(of: "user")), "after": .text(after), "limit": .integer(Int64(limit))]).map { $0.string("id") }
    })

    static let message = SyncEntityType("message", sources: [SyncSource(table: "messages_messages")], load: { ids, context in
        let rows = try context.database.fetchAll("""
            SELECT m.id, m.conversation_id, m.sender_id, u.display_name AS sender_name, m.body, m.sent_at, m.seq, m.client_id, m.reply_to,
                   m.edited_at, m.deleted_at
            FROM messages_messages m JOIN auth_v1_people u ON u.school_id = m.school_id AND u.id = m.sender_id
            WHERE m.school_id = :school_id AND m.id IN (SELECT value FROM json_each(:ids))
            """, ["ids": .text(json(ids))])
        let people = try participants(of: Array(Set(rows.map { $0.string("conversation_id") })), context)
        var entities: [String: SyncEntity] = [:]
        for row in rows {
            let deleted = (row["deleted_at"] as String?) != nil
            entities[row.string("id")] = SyncEntity(data: [
                "id": .string(row.string("id")), "conversationId": .string(row.string("conversation_id")),
                "senderId": .string(row.string("sender_id")), "senderName": .string(row.string("sender_name")),
                // A deleted message stays in its place, empty, as the conversation shows it.
                "body": .string(deleted ? "" : row.string("body")), "deleted": .bool(deleted), "edited": .bool((row["edited_at"] as String?) != nil),
                // Order is (sentAt, arrival): `arrival` is the conversation's own counter.
                "sentAt": .string(row.string("sent_at")), "arrival": .int(row.int("seq")),
                "clientId": .optional(row["client_id"]), "replyTo": .optional(row["reply_to"]),
            ], scopes: (people[row.string("conversation_id")] ?? []).map { .user($0.user) })
        }
        return entities
    }, snapshot: { scope, after, limit, context in
        try context.database.fetchAll("""
            SELECT DISTINCT m.id FROM messages_messages m
            JOIN messages_participants p ON p.school_id = m.school_id AND p.conversation_id = m.conversation_id
            WHERE m.school_id = :school_id AND p.user_id IN (SELECT value FROM json_each(:users)) AND m.id > :after
            ORDER BY m.id LIMIT :limit
            """, ["users": .text(scope.jsonIDs(of: "user")), "after": .text(after), "limit": .integer(Int64(limit))]).map { $0.string("id") }
    })

    /// Each conversation's participants, by conversation id, in a stable order.
    private static func participants(of conversations: [String], _ context: SyncContext) throws -> [String: [(user: String, name: String, role: String)]] {
        var people: [String: [(user: String, name: String, role: String)]] = [:]
        for row in try context.database.fetchAll("""
            SELECT p.conversation_id, p.user_id, p.role, u.display_name FROM messages_participants p
            JOIN auth_v1_people u ON u.school_id = p.school_id AND u.id = p.user_id
            WHERE p.school_id = :school_id AND p.conversation_id IN (SELECT value FROM json_each(:ids)) ORDER BY p.user_id
            """, ["ids": .text(json(conversations))]) {
            people[row.string("conversation_id"), default: []].append((row.string("user_id"), row.string("display_name"), row.string("role")))
        }
        return people
    }

    private static func json(_ ids: [String]) -> String {
        String(decoding: (try? JSONEncoder().encode(ids)) ?? Data("[]".utf8), as: UTF8.self)
    }
}
