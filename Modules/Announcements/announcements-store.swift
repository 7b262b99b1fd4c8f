import Core
import Foundation

/// Reading announcements back, with their read counts and the codes of the classes or year
/// levels they address.
enum AnnouncementsStore {
    static let select = """
        SELECT p.id, p.title, p.content, p.priority, p.audience, p.target, p.publish_at, p.expires_at, p.pinned, p.author_id, p.author_name,
               p.created_at, p.withdrawn_at, CASE WHEN p.withdrawn_at IS NULL AND p.publish_at <= :now THEN 1 ELSE 0 END AS published,
               (SELECT COUNT(*) FROM announcements_reads r WHERE r.school_id = p.school_id AND r.post_id = p.id) AS read_count,
               (SELECT COUNT(*) FROM announcements_reads r WHERE r.school_id = p.school_id AND r.post_id = p.id AND r.user_id = :me) AS read_by_me,
               CASE p.audience
                   WHEN 'class' THEN (SELECT c.code FROM students_v1_classes c WHERE c.school_id = p.school_id AND c.id = p.target)
                   WHEN 'year-level' THEN (SELECT y.code FROM students_v1_year_levels y WHERE y.school_id = p.school_id AND y.id = p.target)
               END AS audience_code
        FROM announcements_posts p
        """

    /// Published, not withdrawn, not expired at `:now`. (Every statement with `select` binds `:now` and `:me`.)
    static let live = "p.withdrawn_at IS NULL AND p.publish_at <= :now AND (p.expires_at IS NULL OR p.expires_at > :now)"

    /// Pinned first, then the newest.
    static let order = "ORDER BY p.pinned DESC, p.publish_at DESC, p.id DESC"

    static func announcement(_ row: SQLRow) -> Announcement {
        let epoch = Date(timeIntervalSince1970: 0)
        return Announcement(
            id: row.string("id"), title: row.string("title"), content: row.string("content"),
            priority: AnnouncementPriority(rawValue: row.string("priority")) ?? .normal,
            audience: AnnouncementAudience(kind: row.string("audience"), target: row.string("target")) ?? .school,
            audienceCode: row["audience_code"], publishAt: row["publish_at"] ?? epoch, expiresAt: row["expires_at"],
            pinned: row.int("pinned") == 1, authorID: row.string("author_id"), authorName: row.string("author_name"),
            createdAt: row["created_at"] ?? epoch, withdrawnAt: row["withdrawn_at"], readCount: row.int("read_count"),
            readByMe: row.int("read_by_me") > 0, isPublished: row.int("published") == 1)
    }

    /// The announcement `id` if the caller may open it: live and addressed to them, or (for those
    /// who post) one they wrote, or any at all for a school-wide poster. Nil otherwise.
    static func visible(_ id: String, _ context: ActionContext) throws -> Announcement? {
        let (condition, arguments) = AnnouncementsAudience.visibility(context)
        var all = arguments
        all["id"] = .text(id)
        all["now"] = SQLValue(context.now)
        let manages = context.scope(for: AnnouncementsPermissions.post)
        let own = manages == nil ? "" : manages == .school ? " OR 1 = 1" : " OR p.author_id = :me"
        return try context.database.fetchOne(
            "\(select) WHERE p.school_id = :school_id AND p.id = :id AND ((\(live) AND \(condition))\(own))", all).map(announcement)
    }
}
