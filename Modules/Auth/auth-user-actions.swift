import Core
import Foundation

/// Adds a user to the school. The password must follow `PasswordRules`.
public struct CreateUser: PreparedAction {
    public struct Input: Codable, Sendable {
        public var email: String
        public var displayName: String
        public var role: Role
        public var password: String
        public init(email: String, displayName: String, role: Role, password: String) {
            self.email = email
            self.displayName = displayName
            self.role = role
            self.password = password
        }
    }

    public static let id = "auth.create-user"
    public static let permission = AuthPermissions.manageUsers

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        let email = try Self.checkFields(email: input.email, displayName: input.displayName, password: input.password, context)
        guard try UserAccounts.find(email: email, in: context) == nil else { throw AuthError.emailTaken(email) }
    }

    /// The rules of one new account that need no read (shared with `CreateUsers`, which checks
    /// uniqueness once for a whole batch); nil `password`: none is set. Returns the normalized email.
    static func checkFields(email input: String, displayName: String, password: String?, _ context: ActionContext) throws -> String {
        // A NUL, escape or line break in a name is printed back raw to every terminal that lists it.
        try TextInput.check(input, field: context.localizer("auth.field.email"), maxLength: UserAccounts.maximumEmailLength)
        try TextInput.check(displayName, field: context.localizer("auth.field.name"), maxLength: TextLimit.name)
        let email = UserAccounts.normalize(input)
        guard email.range(of: #"^[^@\s]+@[^@\s]+\.[^@\s]+$"#, options: .regularExpression) != nil else {
            throw AuthError.invalidEmail(input)
        }
        guard !displayName.trimmingCharacters(in: .whitespaces).isEmpty else { throw InputError("auth.error.name-required") }
        if let password { try PasswordRules.check(password, email: email) }
        return email
    }

    public func prepare(_ input: Input, in context: ActionContext) throws -> PreparedPasswords {
        guard (try? Self.checkFields(email: input.email, displayName: input.displayName, password: input.password, context)) != nil else { return .none }
        return try .make([input.password], context)
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> User {
        let hash = try PreparedPasswords.hashes([input.password], context)[0]
        context.auditDetail = "\(UserAccounts.normalize(input.email)) as \(input.role.rawValue)"
        return try UserAccounts.insert(
            id: context.newID(), email: input.email, displayName: input.displayName.trimmingCharacters(in: .whitespaces),
            role: input.role, passwordHash: hash, in: context)
    }
}

/// The school's accounts, by email. The CLI lists them all (or one role); the API's staff list
/// narrows them to some roles and a search, one page at a time.
public struct ListUsers: Action {
    public struct Input: Codable, Sendable {
        public var role: Role?
        /// Any of these roles (with `role` too: both must hold); nil: every role.
        public var roles: [Role]?
        /// Part of a name or an email, any case.
        public var search: String?
        public var offset: Int?
        public var limit: Int?
        /// Group the page by role in the order `roles` gives (the API's staff list: teachers
        /// first, as the web app lists them), then by email; false: by email alone.
        public var rolesInOrder: Bool
        public init(role: Role? = nil, roles: [Role]? = nil, search: String? = nil, offset: Int? = nil, limit: Int? = nil, rolesInOrder: Bool = false) {
            self.role = role
            self.roles = roles
            self.search = search
            self.rolesInOrder = rolesInOrder
            self.offset = offset
            self.limit = limit
        }
    }

    public static let id = "auth.list-users"
    public static let permission = AuthPermissions.readUsers
    public static let isReadOnly = true

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        try UserFilter.check(search: input.search, context)
        guard (input.offset ?? 0) >= 0, (input.limit ?? 1) >= 1 else { throw InputError("auth.error.invalid-page") }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> [User] {
        let filter = UserFilter(role: input.role, roles: input.roles, search: input.search)
        var arguments = filter.arguments
        // No limit given: every row. The largest integer, since `LIMIT -1` is SQLite's alone.
        arguments["limit"] = SQLValue(input.limit ?? Int.max)
        arguments["offset"] = SQLValue(input.offset ?? 0)
        var order = "email"
        if input.rolesInOrder, let roles = input.roles, !roles.isEmpty {
            for (index, role) in roles.enumerated() { arguments["order_role_\(index)"] = .text(role.rawValue) }
            let cases = roles.indices.map { "WHEN :order_role_\($0) THEN \($0)" }.joined(separator: " ")
            order = "CASE role \(cases) ELSE \(roles.count) END, email"
        }
        return try context.database.fetchAll(
            "SELECT * FROM auth_users WHERE \(filter.clause) ORDER BY \(order) LIMIT :limit OFFSET :offset", arguments
        ).map(User.init(row:))
    }
}

/// How many accounts of each role match a search: the totals beside a page of `ListUsers`.
public struct CountUsers: Action {
    public struct Input: Codable, Sendable {
        public var roles: [Role]?
        public var search: String?
        public init(roles: [Role]? = nil, search: String? = nil) {
            self.roles = roles
            self.search = search
        }
    }

    public struct Count: Codable, Sendable, Equatable {
        public let role: Role
        public let count: Int
    }

    public static let id = "auth.count-users"
    public static let permission = AuthPermissions.readUsers
    public static let isReadOnly = true

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        try UserFilter.check(search: input.search, context)
    }

    /// One entry per role that has at least one matching account.
    public func perform(_ input: Input, in context: ActionContext) throws -> [Count] {
        let filter = UserFilter(role: nil, roles: input.roles, search: input.search)
        return try context.database.fetchAll(
            "SELECT role, COUNT(*) AS n FROM auth_users WHERE \(filter.clause) GROUP BY role ORDER BY role", filter.arguments
        ).compactMap { row in Role(rawValue: row.string("role")).map { Count(role: $0, count: row.int("n")) } }
    }
}

/// The WHERE clause shared by the list and its counts.
private struct UserFilter {
    let clause: String
    let arguments: SQLArguments

    init(role: Role?, roles: [Role]?, search: String?) {
        var conditions = ["school_id = :school_id"]
        var arguments: SQLArguments = [:]
        if let role {
            conditions.append("role = :role")
            arguments["role"] = .text(role.rawValue)
        }
        if let roles {
            let names = roles.indices.map { ":role\($0)" }
            conditions.append(names.isEmpty ? "0" : "role IN (\(names.joined(separator: ", ")))")
            for (index, role) in roles.enumerated() { arguments["role\(index)"] = .text(role.rawValue) }
        }
        if let search = search?.trimmingCharacters(in: .whitespaces), !search.isEmpty {
            // Both sides lowered: SQLite's LIKE ignores case, PostgreSQL's does not.
            conditions.append("(lower(display_name) LIKE :search \(LikePattern.escapeClause) OR lower(email) LIKE :search \(LikePattern.escapeClause))")
            arguments["search"] = .text(LikePattern.contains(search.lowercased()))
        }
        clause = conditions.joined(separator: " AND ")
        self.arguments = arguments
    }

    static func check(search: String?, _ context: ActionContext) throws {
        guard let search else { return }
        try TextInput.check(search, field: context.localizer("auth.field.search"), maxLength: TextLimit.title)
    }
}

/// Input of the actions that change one account, named by email.
public struct UserChange: Codable, Sendable {
    public var email: String
    public var role: Role?
    public var suspended: Bool?
    public var password: String?

    public init(email: String, role: Role? = nil, suspended: Bool? = nil, password: String? = nil) {
        self.email = email
        self.role = role
        self.suspended = suspended
        self.password = password
    }
}

/// The account named by a change, or `unknownUser`.
private func account(_ change: UserChange, _ context: ActionContext) throws -> User {
    guard let user = try UserAccounts.find(email: change.email, in: context) else { throw AuthError.unknownUser(change.email) }
    return user
}

/// An action on one existing account: by default it only needs the account to exist.
protocol AccountChange: Action where Input == UserChange, Output == User {}

extension AccountChange {
    public func validate(_ input: UserChange, in context: ActionContext) throws {
        _ = try account(input, context)
    }
}

public struct ChangeRole: AccountChange {
    public static let id = "auth.change-role"
    public static let permission = AuthPermissions.manageUsers

    public init() {}

    public func validate(_ input: UserChange, in context: ActionContext) throws {
        _ = try account(input, context)
        guard input.role != nil else { throw InputError("auth.error.role-required") }
    }

    public func perform(_ input: UserChange, in context: ActionContext) throws -> User {
        let user = try account(input, context)
        let role = input.role ?? user.role
        try context.database.execute("UPDATE auth_users SET role = :role WHERE school_id = :school_id AND id = :id",
                                     ["role": .text(role.rawValue), "id": .text(user.id)])
        // Access tokens carry the role: the old one must not keep working on a phone.
        if role != user.role { try context.revokeTokens(ofUser: user.id) }
        context.auditDetail = "\(user.email): \(user.role.rawValue) -> \(role.rawValue)"
        return try UserAccounts.find(id: user.id, in: context) ?? user
    }
}

/// Suspends an account (its CLI sessions and API tokens stop working at once) or reinstates it.
public struct SetSuspended: AccountChange {
    public static let id = "auth.set-suspended"
    public static let permission = AuthPermissions.manageUsers

    public init() {}

    public func perform(_ input: UserChange, in context: ActionContext) throws -> User {
        let user = try account(input, context)
        let status: UserStatus = input.suspended == false ? .active : .suspended
        try context.database.execute("UPDATE auth_users SET status = :status WHERE school_id = :school_id AND id = :id",
                                     ["status": .text(status.rawValue), "id": .text(user.id)])
        if status == .suspended { try context.revokeTokens(ofUser: user.id) }
        context.auditDetail = "\(user.email): \(status.rawValue)"
        return try UserAccounts.find(id: user.id, in: context) ?? user
    }
}

/// Sets a new password chosen by an administrator; the user's sessions and API tokens are ended.
public struct ResetPassword: AccountChange, PreparedAction {
    public static let id = "auth.reset-password"
    public static let permission = AuthPermissions.manageUsers

    public init() {}

    public func validate(_ input: UserChange, in context: ActionContext) throws {
        let user = try account(input, context)
        try PasswordRules.check(input.password ?? "", email: user.email)
    }

    public func prepare(_ input: UserChange, in context: ActionContext) throws -> PreparedPasswords {
        guard (try? validate(input, in: context)) != nil else { return .none }
        return try .make([input.password ?? ""], context)
    }

    public func perform(_ input: UserChange, in context: ActionContext) throws -> User {
        let user = try account(input, context)
        let hash = try PreparedPasswords.hashes([input.password ?? ""], context)[0]
        try context.database.execute("UPDATE auth_users SET password_hash = :hash WHERE school_id = :school_id AND id = :id",
                                     ["hash": .text(hash), "id": .text(user.id)])
        try context.database.execute("UPDATE auth_sessions SET revoked_at = :now WHERE school_id = :school_id AND user_id = :id AND revoked_at IS NULL",
                                     ["now": SQLValue(context.now), "id": .text(user.id)])
        try context.revokeTokens(ofUser: user.id)
        context.auditDetail = user.email
        return user
    }
}

/// Lifts a lock from too many failed sign-ins; earlier failures stop counting.
public struct UnlockUser: AccountChange {
    public static let id = "auth.unlock-user"
    public static let permission = AuthPermissions.manageUsers

    public init() {}

    public func perform(_ input: UserChange, in context: ActionContext) throws -> User {
        let user = try account(input, context)
        try context.database.execute(
            "UPDATE auth_users SET locked_until = NULL, unlocked_at = :now WHERE school_id = :school_id AND id = :id",
            ["now": SQLValue(context.now), "id": .text(user.id)])
        context.auditDetail = user.email
        return try UserAccounts.find(id: user.id, in: context) ?? user
    }
}
