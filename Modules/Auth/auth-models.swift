import Core
import Foundation

/// `CaseIterable`: the staff list's schema (`APISchema.of`) names every status.
public enum UserStatus: String, Codable, Sendable, CaseIterable {
    case active = "ACTIVE"
    case suspended = "SUSPENDED"
}

/// A school's user account. The same email may exist in several schools, once in each.
public struct User: Codable, Sendable, Equatable {
    public let id: String
    public let email: String
    public let displayName: String
    public let role: Role
    public let status: UserStatus
    public let lockedUntil: Date?
    /// The language they read the platform in; nil: the school's.
    public var language: Language? = nil

    init(row: SQLRow) {
        id = row.string("id")
        email = row.string("email")
        displayName = row.string("display_name")
        role = Role(rawValue: row.string("role")) ?? .user
        status = UserStatus(rawValue: row.string("status")) ?? .active
        lockedUntil = row["locked_until"]
        language = (row["language"] as String?).flatMap(Language.init(rawValue:))
    }
}

/// Reading and writing accounts inside a running action; other modules (Students, the demo)
/// use it to create and find the accounts they link to.
public enum UserAccounts {
    /// Emails compare without case or surrounding spaces.
    public static func normalize(_ email: String) -> String {
        email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }

    /// The longest email accepted (RFC 5321's limit for a forward path).
    public static let maximumEmailLength = 254

    public static func find(email: String, in context: ActionContext) throws -> User? {
        try context.published(by: AuthModule.moduleID) { try findRow(email: email, in: context).map(User.init(row:)) }
    }

    /// The account's whole row, its password hash included (sign-in reads both in one query).
    static func findRow(email: String, in context: ActionContext) throws -> SQLRow? {
        try context.database.fetchOne("SELECT * FROM auth_users WHERE school_id = :school_id AND email = :email", ["email": .text(normalize(email))])
    }

    /// The bcrypt cost of the school's real hashes: the most common among its accounts (the demo
    /// writes cost 10 whatever the setting says), else the school's setting for new passwords.
    /// A decoy verified at this cost takes as long as a real account's wrong password.
    static func hashCost(in context: ActionContext) throws -> Int {
        let common: String? = try context.database.fetchValue("""
            SELECT substr(password_hash, 5, 2) AS cost FROM auth_users WHERE school_id = :school_id
            GROUP BY cost ORDER BY COUNT(*) DESC, cost DESC LIMIT 1
            """)
        if let common, let cost = Int(common), (4...31).contains(cost) { return cost }
        return try context.setting(AuthSettings.passwordHashCost)
    }

    public static func find(id: String, in context: ActionContext) throws -> User? {
        try context.published(by: AuthModule.moduleID) {
            try context.database.fetchOne("SELECT * FROM auth_users WHERE school_id = :school_id AND id = :id", ["id": .text(id)]).map(User.init(row:))
        }
    }

    /// Inserts an account with an already computed bcrypt hash; callers check the password rules.
    @discardableResult
    public static func insert(id: String, email: String, displayName: String, role: Role, passwordHash: String, in context: ActionContext) throws -> User {
        try context.published(by: AuthModule.moduleID) {
            try context.database.insert(into: "auth_users", [
                "id": .text(id), "email": .text(normalize(email)), "display_name": .text(displayName), "role": .text(role.rawValue),
                "password_hash": .text(passwordHash), "status": .text(UserStatus.active.rawValue), "created_at": SQLValue(context.now),
            ])
        }
        return User(id: id, email: normalize(email), displayName: displayName, role: role, status: .active, lockedUntil: nil)
    }
}

extension User {
    init(id: String, email: String, displayName: String, role: Role, status: UserStatus, lockedUntil: Date?) {
        self.id = id
        self.email = email
        self.displayName = displayName
        self.role = role
        self.status = status
        self.lockedUntil = lockedUntil
    }
}
