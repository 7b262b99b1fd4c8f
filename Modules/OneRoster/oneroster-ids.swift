import Auth
import Core
import Foundation

/// The kinds of record the id map keeps.
enum OneRosterKind {
    static let org = "org"
    static let session = "session"
    static let course = "course"
    static let classRecord = "class"
    /// A scheduled class that became a subject taught in a homeroom class: target `classID|subjectID`.
    static let section = "section"
    /// A user's account.
    static let user = "user"
    /// A student user's student record.
    static let student = "student"
    /// A guardian user's guardian record.
    static let guardian = "guardian"
    static let enrollment = "enrollment"
}

/// The module's own map from each sourcedId to what it became, read once per import or export.
struct OneRosterIDs {
    private(set) var targets: [String: [String: String]] = [:]
    private(set) var sources: [String: [String: String]] = [:]
    /// Every account of the school, by email, with its role and id.
    private(set) var accountRoles: [String: Role] = [:]
    private(set) var accounts: [String: User] = [:]
    private var accountsByID: [String: User] = [:]
    private var pending: [(kind: String, sourcedId: String, target: String, status: String)] = []
    /// Where each `kind|sourcedId` sits in `pending`: a key set twice is written once, with its
    /// last value (PostgreSQL refuses an upsert that meets the same row twice in one statement).
    private var pendingIndex: [String: Int] = [:]

    init(_ context: ActionContext) throws {
        try context.database.forEachRow("SELECT kind, sourced_id, target FROM oneroster_ids WHERE school_id = :school_id") { row in
            let kind = row.string("kind"), id = row.string("sourced_id"), target = row.string("target")
            targets[kind, default: [:]][id] = target
            sources[kind, default: [:]][target] = id
        }
        // Auth's own read of the school's accounts, once, instead of one look-up per user.
        for user in try context.published(by: ListUsers.moduleID, { try ListUsers().perform(.init(), in: context) }) {
            accountRoles[user.email] = user.role
            accounts[user.email] = user
            accountsByID[user.id] = user
        }
    }

    func target(_ kind: String, _ sourcedId: String) -> String? { targets[kind]?[sourcedId] }
    func sourcedId(_ kind: String, of target: String) -> String? { sources[kind]?[target] }
    func account(id: String) -> User? { accountsByID[id] }

    /// The role of a user imported before, from their account.
    func role(of sourcedId: String) -> Role? {
        if let account = target(OneRosterKind.user, sourcedId) { return accountsByID[account]?.role }
        if target(OneRosterKind.student, sourcedId) != nil { return .student }
        if target(OneRosterKind.guardian, sourcedId) != nil { return .guardian }
        return nil
    }

    mutating func remember(account user: User) {
        accounts[user.email] = user
        accountRoles[user.email] = user.role
        accountsByID[user.id] = user
    }

    /// Records what a sourcedId became; written in batches by `flush`.
    mutating func set(_ kind: String, _ sourcedId: String, _ target: String, status: String = "active") {
        targets[kind, default: [:]][sourcedId] = target
        sources[kind, default: [:]][target] = sourcedId
        let key = "\(kind)|\(sourcedId)"
        if let index = pendingIndex[key] {
            pending[index] = (kind, sourcedId, target, status)
        } else {
            pendingIndex[key] = pending.count
            pending.append((kind, sourcedId, target, status))
        }
    }

    /// Rows per statement: 5 parameters each keeps far below SQLite's limit.
    private static let batch = 100

    mutating func flush(_ context: ActionContext) throws {
        var start = 0
        while start < pending.count {
            let slice = pending[start..<min(start + Self.batch, pending.count)]
            var arguments: SQLArguments = ["now": SQLValue(context.now)]
            var values: [String] = []
            for (offset, entry) in slice.enumerated() {
                values.append("(:school_id, :k\(offset), :s\(offset), :t\(offset), :u\(offset), :now)")
                arguments["k\(offset)"] = .text(entry.kind)
                arguments["s\(offset)"] = .text(entry.sourcedId)
                arguments["t\(offset)"] = .text(entry.target)
                arguments["u\(offset)"] = .text(entry.status)
            }
            try context.database.execute("""
                INSERT INTO oneroster_ids (school_id, kind, sourced_id, target, status, updated_at) VALUES \(values.joined(separator: ", "))
                ON CONFLICT (school_id, kind, sourced_id) DO UPDATE SET target = excluded.target, status = excluded.status, updated_at = excluded.updated_at
                """, arguments)
            start += slice.count
        }
        pending.removeAll()
        pendingIndex.removeAll()
    }
}
