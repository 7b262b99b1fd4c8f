import Core
import Foundation
import Students

/// Lookups shared by the message actions.
enum Conversations {
    /// A conversation's title for the caller `:me`: the other person's name in a direct conversation.
    static let title = """
        CASE WHEN c.kind = 'DIRECT' THEN (SELECT u.display_name FROM messages_participants o JOIN auth_v1_people u ON u.school_id = o.school_id AND u.id = o.user_id
              WHERE o.school_id = c.school_id AND o.conversation_id = c.id AND o.user_id != :me LIMIT 1) ELSE c.title END AS title
        """

    /// A conversation of the caller's by id or unambiguous prefix, with their place in it. Only
    /// conversations they take part in are matched: anyone else's answers as one that does not
    /// exist, and never makes a prefix ambiguous.
    static func membership(_ reference: String, _ context: ActionContext) throws -> (id: String, title: String, kind: ConversationKind, role: ParticipantRole, muted: Bool) {
        guard MessageText.isReference(reference) else { throw MessagesError.unknownConversation(reference) }
        let rows = try context.database.fetchAll("""
            SELECT c.id, c.kind, p.role, p.muted,
                \(Conversations.title)
            FROM messages_conversations c
            JOIN messages_participants p ON p.school_id = c.school_id AND p.conversation_id = c.id AND p.user_id = :me
            WHERE c.school_id = :school_id AND c.id LIKE :prefix \(LikePattern.escapeClause) LIMIT 2
            """, ["me": .text(context.principal.userID), "prefix": .text(LikePattern.prefix(reference))])
        guard rows.count == 1, let row = rows.first else { throw MessagesError.unknownConversation(reference) }
        guard let role = (row["role"] as String?).flatMap(ParticipantRole.init(rawValue:)) else { throw MessagesError.unknownConversation(reference) }
        return (row.string("id"), row.string("title"), ConversationKind(rawValue: row.string("kind")) ?? .group, role, row["muted"] ?? false)
    }

    /// An account of this school by id: one of another school is as unknown as one that does not exist.
    static func userID(id: String, _ context: ActionContext) throws -> String {
        guard MessageText.isReference(id), let found: String = try context.database.fetchValue(
            "SELECT id FROM auth_v1_people WHERE school_id = :school_id AND id = :id", ["id": .text(id)]) else { throw MessagesError.unknownUser(id) }
        return found
    }

    /// An account of this school by email (participants never come from another school).
    static func userID(email: String, _ context: ActionContext) throws -> String {
        let id: String? = try context.database.fetchValue("SELECT id FROM auth_v1_people WHERE school_id = :school_id AND email = :email",
                                                          ["email": .text(email.trimmingCharacters(in: .whitespaces).lowercased())])
        guard let id else { throw MessagesError.unknownUser(email) }
        return id
    }

    static func addParticipant(_ conversation: String, user: String, role: ParticipantRole, _ context: ActionContext) throws {
        try context.database.execute("""
            INSERT INTO messages_participants (school_id, conversation_id, user_id, role, joined_at) VALUES (:school_id, :c, :u, :role, :now)
            ON CONFLICT (school_id, conversation_id, user_id) DO NOTHING
            """, ["c": .text(conversation), "u": .text(user), "role": .text(role.rawValue), "now": SQLValue(context.now)])
    }

    /// Everyone a class conversation reaches: its students' and their guardians' accounts, and its teachers.
    static func classMembers(classID: String, _ context: ActionContext) throws -> [String] {
        try context.database.fetchAll("""
            SELECT s.user_id AS u FROM students_v1_enrolments e JOIN students_v1_students s ON s.school_id = e.school_id AND s.id = e.student_id
            WHERE e.school_id = :school_id AND e.class_id = :class AND s.user_id IS NOT NULL
            UNION SELECT g.guardian_user_id FROM students_v1_enrolments e
            JOIN students_v1_guardian_links g ON g.school_id = e.school_id AND g.student_id = e.student_id
            WHERE e.school_id = :school_id AND e.class_id = :class AND g.guardian_user_id IS NOT NULL
            UNION SELECT teacher_user_id FROM students_v1_teaching WHERE school_id = :school_id AND class_id = :class
            UNION SELECT homeroom_teacher_id FROM students_v1_classes WHERE school_id = :school_id AND id = :class AND homeroom_teacher_id IS NOT NULL
            """, ["class": .text(classID)]).map { $0.string("u") }
    }

    /// Announcement audiences: `all`, `role:TEACHER`, or `class:7A`.
    static func audience(_ text: String, _ context: ActionContext) throws -> [String] {
        if text == "all" {
            return try context.database.fetchAll("SELECT id FROM auth_v1_people WHERE school_id = :school_id AND status = 'ACTIVE'").map { $0.string("id") }
        }
        if text.hasPrefix("role:"), let role = Role(rawValue: String(text.dropFirst(5)).uppercased()) {
            return try context.database.fetchAll("SELECT id FROM auth_v1_people WHERE school_id = :school_id AND role = :role AND status = 'ACTIVE'",
                                                 ["role": .text(role.rawValue)]).map { $0.string("id") }
        }
        if text.hasPrefix("class:") {
            return try classMembers(classID: try Roster.classID(code: String(text.dropFirst(6)), context), context)
        }
        throw InputError("messages.error.audience", ["value": text])
    }
}

/// Starts a conversation. A direct conversation between two people is found, not duplicated,
/// even when both start it at the same moment (the pair is a unique key).
public struct StartConversation: Action {
    public struct Input: Codable, Sendable {
        public var kind: ConversationKind
        public var title: String?
        /// Emails of the other participants (direct: exactly one, counting `userIDs`).
        public var participants: [String]
        /// Class conversations: the class code.
        public var classCode: String?
        /// Announcements: `all`, `role:TEACHER`, `class:7A`.
        public var audience: String?
        /// Other participants by account id (the API's `participant_ids`), beside or instead of emails.
        public var userIDs: [String]

        public init(kind: ConversationKind, title: String? = nil, participants: [String] = [], classCode: String? = nil, audience: String? = nil,
                    userIDs: [String] = []) {
            self.kind = kind
            self.title = title
            self.participants = participants
            self.classCode = classCode
            self.audience = audience
            self.userIDs = userIDs
        }
    }

    public static let id = "messages.start"
    public static let permission = MessagesPermissions.start

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        guard MessagesPermissions.kinds(for: context.principal.role).contains(input.kind) else { throw MessagesError.cannotStart(input.kind.rawValue) }
        switch input.kind {
        case .direct:
            guard input.participants.count + input.userIDs.count == 1 else { throw MessagesError.directNeedsOne }
        case .group, .announcement:
            guard !(input.title ?? "").trimmingCharacters(in: .whitespaces).isEmpty else { throw MessagesError.titleRequired }
            try TextInput.check(input.title ?? "", field: "title", maxLength: TextLimit.title)
        case .class:
            let classID = try Roster.classID(code: input.classCode ?? "", context)
            // A teacher starts one only for a class she teaches or is homeroom teacher of: the roster's one rule.
            if context.principal.role == .teacher, try !Roster.teaches(classID: classID, context) {
                throw MessagesError.cannotStart(input.classCode ?? "")
            }
        }
        for email in input.participants {
            try TextInput.check(email, field: "email", maxLength: 254)
            _ = try Conversations.userID(email: email, context)
        }
        guard input.userIDs.count <= Self.maximumParticipants else { throw MessagesError.tooManyParticipants(Self.maximumParticipants) }
        for id in input.userIDs { _ = try Conversations.userID(id: id, context) }
        if input.kind == .direct, try Self.others(input, context) == [context.principal.userID] { throw MessagesError.directNeedsOne }
        if let audience = input.audience { try TextInput.check(audience, field: "audience", maxLength: TextLimit.name) }
        if input.kind == .announcement { _ = try Conversations.audience(input.audience ?? "all", context) }
    }

    /// At most this many participants by id in one request.
    public static let maximumParticipants = 500

    static func others(_ input: Input, _ context: ActionContext) throws -> [String] {
        try input.participants.map { try Conversations.userID(email: $0, context) } + input.userIDs.map { try Conversations.userID(id: $0, context) }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> StartedConversation {
        let me = context.principal.userID
        let others = try Self.others(input, context)
        if input.kind == .direct, let other = others.first {
            let key = [me, other].sorted().joined(separator: "|")
            if let existing: String = try context.database.fetchValue(
                "SELECT id FROM messages_conversations WHERE school_id = :school_id AND direct_key = :key", ["key": .text(key)]) {
                return StartedConversation(id: existing, created: false)
            }
            let id = context.newID()
            try context.database.execute("""
                INSERT INTO messages_conversations (school_id, id, kind, title, direct_key, created_by, created_at)
                VALUES (:school_id, :id, 'DIRECT', '', :key, :me, :now) ON CONFLICT (school_id, direct_key) DO NOTHING
                """, ["id": .text(id), "key": .text(key), "me": .text(me), "now": SQLValue(context.now)])
            let stored: String = try context.database.fetchValue(
                "SELECT id FROM messages_conversations WHERE school_id = :school_id AND direct_key = :key", ["key": .text(key)]) ?? id
            for user in [me, other] { try Conversations.addParticipant(stored, user: user, role: .member, context) }
            return StartedConversation(id: stored, created: stored == id)
        }
        let id = context.newID()
        let classID = try input.classCode.map { try Roster.classID(code: $0, context) }
        try context.database.insert(into: "messages_conversations", [
            "id": .text(id), "kind": .text(input.kind.rawValue), "title": .text(input.title ?? input.classCode ?? ""),
            "class_id": SQLValue(classID), "created_by": .text(me), "created_at": SQLValue(context.now),
        ])
        try Conversations.addParticipant(id, user: me, role: .owner, context)
        let members: [String] = switch input.kind {
        case .class: try Conversations.classMembers(classID: classID ?? "", context)
        case .announcement: try Conversations.audience(input.audience ?? "all", context)
        default: others
        }
        for member in members where member != me {
            try Conversations.addParticipant(id, user: member, role: input.kind == .announcement ? .readOnly : .member, context)
        }
        return StartedConversation(id: id, created: true)
    }
}

/// The caller's conversations with their ONE unread count: messages from others received after
/// the participant's last read. Each carries its newest message that is not deleted.
public struct ListConversations: Action {
    public struct Input: Codable, Sendable {
        /// Only conversations of this kind.
        public var kind: ConversationKind?
        public init(kind: ConversationKind? = nil) { self.kind = kind }
    }

    public static let id = "messages.list"
    public static let permission = MessagesPermissions.use
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> [ConversationSummary] {
        var arguments: SQLArguments = ["me": .text(context.principal.userID)]
        if let kind = input.kind { arguments["kind"] = .text(kind.rawValue) }
        return try context.database.fetchAll("""
            SELECT c.id, c.kind, c.created_at, c.last_message_at, p.muted,
                \(Conversations.title),
                (SELECT COUNT(*) FROM messages_participants x WHERE x.school_id = c.school_id AND x.conversation_id = c.id) AS participants,
                (SELECT COUNT(*) FROM messages_messages m WHERE m.school_id = c.school_id AND m.conversation_id = c.id
                      AND m.seq > p.last_read_seq AND m.sender_id != :me AND m.deleted_at IS NULL) AS unread,
                lm.id AS last_id, lm.body AS last_body, lm.sent_at AS last_sent_at, lu.display_name AS last_sender,
                CASE WHEN lm.id IS NULL OR EXISTS (SELECT 1 FROM messages_participants o WHERE o.school_id = c.school_id AND o.conversation_id = c.id
                      AND o.user_id != lm.sender_id AND o.last_read_seq < lm.seq) THEN 0 ELSE 1 END AS last_read
            FROM messages_participants p JOIN messages_conversations c ON c.school_id = p.school_id AND c.id = p.conversation_id
            LEFT JOIN messages_messages lm ON lm.school_id = c.school_id AND lm.id = (
                SELECT m.id FROM messages_messages m WHERE m.school_id = c.school_id AND m.conversation_id = c.id AND m.deleted_at IS NULL
                ORDER BY m.sent_at DESC, m.seq DESC, m.id DESC LIMIT 1)
            LEFT JOIN auth_v1_people lu ON lu.school_id = lm.school_id AND lu.id = lm.sender_id
            WHERE p.school_id = :school_id AND p.user_id = :me \(input.kind == nil ? "" : "AND c.kind = :kind")
            ORDER BY c.last_message_at IS NULL, c.last_message_at DESC, c.created_at DESC, c.id DESC
            """, arguments).map { row in
            ConversationSummary(id: row.string("id"), kind: ConversationKind(rawValue: row.string("kind")) ?? .group, title: row.string("title"),
                                participants: row.int("participants"), unread: row.int("unread"), muted: row["muted"] ?? false,
                                lastMessage: row["last_body"], lastMessageAt: row["last_message_at"],
                                createdAt: row["created_at"] ?? Date(timeIntervalSince1970: 0), latest: Self.latest(row))
        }
    }

    private static func latest(_ row: SQLRow) -> LatestMessage? {
        guard let id: String = row["last_id"] else { return nil }
        return LatestMessage(id: id, body: row.string("last_body"), senderName: row.string("last_sender"),
                             sentAt: row["last_sent_at"] ?? Date(timeIntervalSince1970: 0), readByAll: row["last_read"] ?? false)
    }
}

/// School totals for administrators: how many conversations the school holds.
public struct MessagesStats: Action {
    public struct Input: Codable, Sendable { public init() {} }

    public static let id = "messages.stats"
    public static let permission = MessagesPermissions.stats
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> MessagesStatistics {
        MessagesStatistics(conversations: try context.database.fetchValue("SELECT COUNT(*) FROM messages_conversations WHERE school_id = :school_id") ?? 0)
    }
}

/// Marks everything received so far as read, or mutes and unmutes a conversation.
public struct UpdateMembership: Action {
    public struct Input: Codable, Sendable {
        public var conversation: String
        public var markRead: Bool
        public var muted: Bool?
        public init(conversation: String, markRead: Bool = false, muted: Bool? = nil) {
            self.conversation = conversation
            self.markRead = markRead
            self.muted = muted
        }
    }

    public static let id = "messages.update-membership"
    public static let permission = MessagesPermissions.use

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        _ = try Conversations.membership(input.conversation, context)
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Bool {
        let conversation = try Conversations.membership(input.conversation, context).id
        let arguments: SQLArguments = ["c": .text(conversation), "me": .text(context.principal.userID)]
        if input.markRead {
            try context.database.execute("""
                UPDATE messages_participants SET last_read_seq = (SELECT COALESCE(MAX(seq), 0) FROM messages_messages WHERE school_id = :school_id AND conversation_id = :c)
                WHERE school_id = :school_id AND conversation_id = :c AND user_id = :me
                """, arguments)
        }
        if let muted = input.muted {
            try context.database.execute("UPDATE messages_participants SET muted = :muted WHERE school_id = :school_id AND conversation_id = :c AND user_id = :me",
                                         arguments.merging(["muted": .integer(muted ? 1 : 0)]) { $1 })
        }
        return true
    }
}
