import Core
import Foundation

/// A profile field that offline edits merge one by one.
public enum ProfileField: String, Codable, Sendable, CaseIterable {
    case displayName, bio, language
}

/// When each profile field was edited on the client (its clock), for last-write-wins merging.
public struct ProfileFieldTimes: Codable, Sendable, Equatable {
    public var displayName: Date?
    public var bio: Date?
    public var language: Date?
    public init(displayName: Date? = nil, bio: Date? = nil, language: Date? = nil) {
        self.displayName = displayName
        self.bio = bio
        self.language = language
    }
}

/// The time each profile field was last written, and by which sync client (reference §3.5:
/// last write wins per field, future times clamped, ties to the higher client id).
///
/// A write with no time is the server's own present (the CLI, the web API) and always applies,
/// as before offline sync existed. A time later than the server's now counts as now, so a phone
/// whose clock runs ahead cannot lock a field against every later edit.
struct ProfileFieldClock {
    private let user: String
    private let clientID: String
    private let context: ActionContext
    /// Per field: (time as stored text, client id). Stored times are canonical ISO 8601 text of
    /// one width, so comparing the text compares the times at the millisecond the table keeps.
    private var stamps: [String: (at: String, client: String)] = [:]

    init(user: String, clientID: String?, _ context: ActionContext) throws {
        self.user = user
        self.clientID = clientID ?? ""
        self.context = context
        for row in try context.database.fetchAll("SELECT field, updated_at, client_id FROM auth_profile_fields WHERE school_id = :school_id AND user_id = :user",
                                                 ["user": .text(user)]) {
            stamps[row.string("field")] = (row.string("updated_at"), row.string("client_id"))
        }
    }

    /// Whether an edit of `field` made at `time` is the latest; if so its time is stored.
    func wins(_ field: ProfileField, at time: Date?) throws -> Bool {
        let at = Self.text(min(time ?? context.now, context.now))
        if time != nil, let stored = stamps[field.rawValue] {
            guard at > stored.at || (at == stored.at && clientID >= stored.client) else { return false }
        }
        try context.database.execute("""
            INSERT INTO auth_profile_fields (school_id, user_id, field, updated_at, client_id) VALUES (:school_id, :user, :field, :at, :client)
            ON CONFLICT (school_id, user_id, field) DO UPDATE SET updated_at = excluded.updated_at, client_id = excluded.client_id
            """, ["user": .text(user), "field": .text(field.rawValue), "at": .text(at), "client": .text(clientID)])
        return true
    }

    private static func text(_ date: Date) -> String {
        if case .text(let text) = date.sqlValue { return text }
        return ""
    }
}

/// What Auth shares with offline apps: a person's own profile, to them alone (`user:<id>`),
/// with when each field was last written so the app can show which edit won. An offline edit is
/// `auth.update-profile@1`.
enum AuthSync {
    static let entities = [profile]
    static let mutations = [SyncMutation("auth.update-profile@1", UpdateProfile.self)]

    static let profile = SyncEntityType("profile", sources: [SyncSource(table: "auth_users"), SyncSource(table: "auth_profile_fields", idColumn: "user_id")],
                                        load: { ids, context in
        let list = String(decoding: (try? JSONEncoder().encode(ids)) ?? Data("[]".utf8), as: UTF8.self)
        var times: [String: [String: APIValue]] = [:]
        for row in try context.database.fetchAll("""
            SELECT user_id, field, updated_at FROM auth_profile_fields WHERE school_id = :school_id AND user_id IN (SELECT value FROM json_each(:ids))
            """, ["ids": .text(list)]) {
            times[row.string("user_id"), default: [:]][row.string("field")] = .string(row.string("updated_at"))
        }
        var entities: [String: SyncEntity] = [:]
        for row in try context.database.fetchAll("""
            SELECT id, email, display_name, role, status, bio, language FROM auth_users
            WHERE school_id = :school_id AND id IN (SELECT value FROM json_each(:ids))
            """, ["ids": .text(list)]) {
            let id = row.string("id")
            entities[id] = SyncEntity(data: [
                "id": .string(id), "email": .string(row.string("email")), "name": .string(row.string("display_name")),
                "role": .string(row.string("role")), "status": .string(row.string("status")), "bio": .optional(row["bio"]),
                // null: the school's language.
                "language": .optional(row["language"]),
                "fieldUpdatedAt": .object(times[id] ?? [:]),
            ], scopes: [.user(id)])
        }
        return entities
    }, snapshot: { scope, after, limit, context in
        try context.database.fetchAll("""
            SELECT id FROM auth_users WHERE school_id = :school_id AND id IN (SELECT value FROM json_each(:users)) AND id > :after ORDER BY id LIMIT :limit
            """, ["users": .text(scope.jsonIDs(of: "user")), "after": .text(after), "limit": .integer(Int64(limit))]).map { $0.string("id") }
    })
}
