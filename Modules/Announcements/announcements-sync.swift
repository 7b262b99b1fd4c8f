import Core
import Foundation

/// What announcements share with offline apps: each published, unwithdrawn announcement, sent
/// to the keys of its audience. A scheduled one reaches the apps when it is published (the row
/// changes then); a withdrawn one is sent as a delete. An expired one stays until it changes:
/// the app hides it by its `expiresAt`, as the list route does by the clock.
enum AnnouncementsSync {
    /// Held by school-wide readers (administrators), who read every announcement.
    static let everything = SyncScopeKey.other("announcements", "all")

    static func role(_ role: String) -> SyncScopeKey { .other("announcements-role", role) }
    static func yearLevel(_ id: String) -> SyncScopeKey { .other("announcements-year-level", id) }

    static var entities: [SyncEntityType] { [post] }

    static let post = SyncEntityType(
        "announcements.post",
        sources: [SyncSource(table: "announcements_posts")],
        load: { ids, context in
            var result: [String: SyncEntity] = [:]
            try context.database.forEachRow("""
                SELECT id, title, content, priority, audience, target, publish_at, expires_at, pinned, author_name FROM announcements_posts
                WHERE school_id = :school_id AND id IN (SELECT value FROM json_each(:ids)) AND announced_at IS NOT NULL AND withdrawn_at IS NULL
                """, ["ids": .text(SyncScope.json(ids))]) { row in
                let id = row.string("id")
                let audience = row.string("audience")
                let target = row.string("target")
                result[id] = SyncEntity(
                    data: ["id": .string(id), "title": .string(row.string("title")), "content": .string(row.string("content")),
                           "priority": .string(row.string("priority")), "audience": .string(audience == "school" ? audience : "\(audience):\(target)"),
                           "publishAt": .string(row.string("publish_at")), "expiresAt": .optional(row["expires_at"]),
                           "pinned": .bool(row.int("pinned") != 0), "authorName": .string(row.string("author_name"))],
                    scopes: keys(audience: audience, target: target) + [everything])
            }
            return result
        },
        snapshot: { scope, after, limit, context in
            let filter = scope.contains(everything) ? "" : """
                AND (audience = 'school'
                     OR (audience = 'role' AND target IN (SELECT value FROM json_each(:roles)))
                     OR (audience = 'class' AND (target IN (SELECT value FROM json_each(:classes)) OR target IN (SELECT value FROM json_each(:members))))
                     OR (audience = 'year-level' AND target IN (SELECT value FROM json_each(:levels))))
                """
            return try context.database.fetchAll("""
                SELECT id FROM announcements_posts
                WHERE school_id = :school_id AND id > :after AND announced_at IS NOT NULL AND withdrawn_at IS NULL \(filter) ORDER BY id LIMIT :limit
                """, ["after": .text(after), "limit": .integer(Int64(limit)), "roles": .text(scope.jsonIDs(of: "announcements-role")),
                      "classes": .text(scope.jsonIDs(of: "class")), "members": .text(scope.jsonIDs(of: "class-members")),
                      "levels": .text(scope.jsonIDs(of: "announcements-year-level"))]).map { $0.string("id") }
        })

    /// The keys an audience is sent to. A class's: its members (students, guardians) and its teachers.
    static func keys(audience: String, target: String) -> [SyncScopeKey] {
        switch audience {
        case "school": [.school]
        case "role": [role(target)]
        case "class": [.classMembers(target), .class(target)]
        case "year-level": [yearLevel(target)]
        default: []
        }
    }

    /// A school-wide reader gets everything; anyone else their role's key and the year levels of
    /// the classes they belong to. The class keys come from Students.
    static let scopes: SyncScopeRule = { principal, context in
        guard let reach = context.scope(for: AnnouncementsPermissions.read) else { return [] }
        if reach == .school { return [everything] }
        let levels = try context.database.fetchAll("""
            SELECT DISTINCT c.year_level_id AS level FROM students_v1_classes c
            WHERE c.school_id = :school_id AND c.id IN (\(AnnouncementsAudience.myClasses))
            """, ["me": .text(principal.userID)]).map { yearLevel($0.string("level")) }
        return [role(principal.role.rawValue)] + levels
    }
}
