import Core
import Foundation

/// Each person's calendar feed: an address with a secret in it (`/api/v1/events/feed/<token>.ics`)
/// that a phone's calendar subscribes to and reads without signing in. Only the secret's SHA-256
/// is kept; asking for a new address makes the old one stop working.
enum EventsFeed {
    /// The token is the school's id, a dot, and the secret (43 characters of base64url).
    static func token(school: SchoolID, secret: String) -> String { "\(school).\(secret)" }

    static func split(_ token: String) -> (school: SchoolID, secret: String)? {
        let trimmed = token.hasSuffix(".ics") ? String(token.dropLast(4)) : token
        guard let dot = trimmed.lastIndex(of: "."), trimmed.count <= 200 else { return nil }
        let school = String(trimmed[..<dot]), secret = String(trimmed[trimmed.index(after: dot)...])
        guard !school.isEmpty, secret.count == 43 else { return nil }
        return (school, secret)
    }

    static func hash(_ secret: String) -> String { Digest.sha256Hex(Data(secret.utf8)) }

    static func newSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = Data((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        return bytes.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The days a feed covers: two months back, a year ahead.
    static func span(_ context: ActionContext) -> (from: String, to: String) {
        (context.today.adding(days: -60).description, context.today.adding(days: 365).description)
    }
}

/// Makes the caller a new calendar feed address (the old one, if any, stops working).
public struct MakeCalendarFeed: Action {
    public struct Input: Codable, Sendable { public init() {} }

    public struct Output: Codable, Sendable, Equatable {
        /// The path on this server: `/api/v1/events/feed/<token>.ics`.
        public let path: String
    }

    public static let id = "events.feed"
    public static let permission = EventsPermissions.read

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> Output {
        let secret = EventsFeed.newSecret()
        try context.database.execute("""
            INSERT INTO events_feeds (school_id, user_id, secret_hash, created_at) VALUES (:school_id, :me, :hash, :now)
            ON CONFLICT (school_id, user_id) DO UPDATE SET secret_hash = excluded.secret_hash, created_at = excluded.created_at
            """, ["me": .text(context.principal.userID), "hash": .text(EventsFeed.hash(secret)), "now": SQLValue(context.now)])
        context.auditDetail = "new feed address"
        return Output(path: "/api/v1/events/feed/\(EventsFeed.token(school: context.school.id, secret: secret)).ics")
    }
}

/// The calendar behind a feed address, as iCalendar text, read as the address's owner. Run by the
/// kernel for the school the address names; an address nobody holds is `unknownFeed`.
public struct ReadCalendarFeed: Action {
    public struct Input: Codable, Sendable {
        public var secret: String
        public init(secret: String) { self.secret = secret }
    }

    public static let id = "events.feed-read"
    public static let permission = EventsPermissions.read
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> String {
        guard let row = try context.database.fetchOne("""
            SELECT p.id, p.role, p.display_name FROM events_feeds f JOIN auth_v1_people p ON p.school_id = f.school_id AND p.id = f.user_id
            WHERE f.school_id = :school_id AND f.secret_hash = :hash AND p.status = 'ACTIVE'
            """, ["hash": .text(EventsFeed.hash(input.secret))]), let role = Role(rawValue: row.string("role")) else { throw EventsError.unknownFeed }
        let owner = try context.acting(as: Principal(userID: row.string("id"), role: role, schoolID: context.school.id, displayName: row.string("display_name")))
        guard owner.scope(for: EventsPermissions.read) != nil else { throw EventsError.unknownFeed }
        let (from, to) = EventsFeed.span(owner)
        return ICalendar.document(try EventsCalendar.entries(from: from, to: to, owner), school: context.school, now: context.now)
    }
}
