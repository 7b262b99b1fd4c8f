import Core
import Foundation

/// What a sign-in gives back: the user when the password was right (with a CLI session's token
/// unless the API asked for none). A refusal carries no reason and no user: the audit log keeps it.
public struct SignInResult: Codable, Sendable {
    public let token: String?
    public let user: User?
    public let expiresAt: Date?

    static let refused = SignInResult(token: nil, user: nil, expiresAt: nil)
}

public enum SessionPolicy {
    public static let lifetime: TimeInterval = 24 * 3600
    public static let failureWindow: TimeInterval = 15 * 60
    public static let lockDuration: TimeInterval = 15 * 60
    public static let failuresBeforeLock = 5

    static func hash(_ token: String) -> String {
        Digest.sha256Hex(Data(token.utf8))
    }

    static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}

/// Checks an email and password in one school and opens a 24-hour session.
///
/// Wrong password, unknown email, suspended and locked accounts all give the same refusal;
/// the attempt table and the audit record say which it was. Five failures within 15 minutes
/// lock the account for 15 minutes.
///
/// Every attempt costs the same: the same reads, then exactly one bcrypt verification at the
/// cost of the school's real hashes (against a decoy when the email is unknown), before any
/// decision. So the time of a refusal tells nobody whether the email exists or is locked.
public struct SignIn: PreparedAction {
    public struct Input: Codable, Sendable {
        public var email: String
        public var password: String
        /// Whether to open a CLI session (a row in `auth_sessions` and its token). The API signs
        /// its own tokens (Core's `AccessTokens`) and passes false: a session token nobody holds
        /// would only sit in the table for 24 hours.
        public var opensSession: Bool
        public init(email: String, password: String, opensSession: Bool = true) {
            self.email = email
            self.password = password
            self.opensSession = opensSession
        }
    }

    public static let id = "auth.sign-in"
    public static let permission = AuthPermissions.signIn

    public init() {}

    /// The bcrypt check, made before the write transaction opens (`PreparedAction`), with the
    /// hash it was made against.
    public struct PasswordCheck: Sendable {
        let hash: String?
        let matches: Bool
    }

    public func prepare(_ input: Input, in context: ActionContext) throws -> PasswordCheck {
        let (_, row) = try account(input, context)
        return try check(input.password, against: row, context)
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> SignInResult {
        let (email, row) = try account(input, context)
        // The check made outside the writer holds if the hash is still the one it was made
        // against; otherwise (a password changed meanwhile, or no check made) check again.
        let prepared = context.prepared(as: PasswordCheck.self)
        let passwordMatches = try prepared.flatMap { $0.hash == row?.string("password_hash") ? $0.matches : nil }
            ?? check(input.password, against: row, context).matches
        guard let user = row.map(User.init(row:)) else {
            return try refuse(email: email, user: nil, reason: "unknown-email", context)
        }
        if let lockedUntil = user.lockedUntil, lockedUntil > context.now {
            return try refuse(email: email, user: user, reason: "locked", context)
        }
        guard passwordMatches else {
            let result = try refuse(email: email, user: user, reason: "wrong-password", context)
            try lockIfTooManyFailures(user, context)
            return result
        }
        guard user.status == .active else {
            return try refuse(email: email, user: user, reason: "suspended", context)
        }
        try recordAttempt(email: email, user: user, outcome: "signed-in", context)
        guard input.opensSession else {
            context.auditDetail = "signed-in (api): \(email)"
            return SignInResult(token: nil, user: user, expiresAt: nil)
        }
        let token = SessionPolicy.newToken()
        let expiresAt = context.now.addingTimeInterval(SessionPolicy.lifetime)
        try context.database.insert(into: "auth_sessions", [
            "token_hash": .text(SessionPolicy.hash(token)), "user_id": .text(user.id),
            "created_at": SQLValue(context.now), "expires_at": SQLValue(expiresAt),
        ])
        context.auditDetail = "signed-in: \(email)"
        return SignInResult(token: token, user: user, expiresAt: expiresAt)
    }

    /// The normalized email and its account row, if any. A control character cannot be in a
    /// stored email: such an email is unknown, and never written raw into the attempts and the audit.
    func account(_ input: Input, _ context: ActionContext) throws -> (email: String, row: SQLRow?) {
        let wellFormed = TextInput.problem(in: input.email, maxLength: UserAccounts.maximumEmailLength) == nil
        let email = UserAccounts.normalize(wellFormed ? input.email : TextInput.printable(input.email))
        return (email, wellFormed ? try UserAccounts.findRow(email: email, in: context) : nil)
    }

    /// Exactly one bcrypt verification, against a decoy of the school's cost when there is no account.
    func check(_ password: String, against row: SQLRow?, _ context: ActionContext) throws -> PasswordCheck {
        let hash = row?.string("password_hash")
        let against = try hash ?? PasswordHasher.decoy(cost: UserAccounts.hashCost(in: context))
        return PasswordCheck(hash: hash, matches: PasswordHasher.verify(password, against: against))
    }

    func refuse(email: String, user: User?, reason: String, _ context: ActionContext) throws -> SignInResult {
        try recordAttempt(email: email, user: user, outcome: reason, context)
        context.auditDetail = "refused (\(reason)): \(email)"
        context.auditOutcome = .failed
        return .refused
    }

    func recordAttempt(email: String, user: User?, outcome: String, _ context: ActionContext) throws {
        try context.database.insert(into: "auth_sign_in_attempts", [
            "email": .text(email), "user_id": SQLValue(user?.id), "outcome": .text(outcome), "at": SQLValue(context.now),
        ])
    }

    /// Counts wrong passwords in the last 15 minutes (since any unlock) and locks on the fifth.
    func lockIfTooManyFailures(_ user: User, _ context: ActionContext) throws {
        let windowStart = context.now.addingTimeInterval(-SessionPolicy.failureWindow)
        let failures: Int = try context.database.fetchValue("""
            SELECT COUNT(*) FROM auth_sign_in_attempts a JOIN auth_users u ON u.school_id = a.school_id AND u.id = a.user_id
            WHERE a.school_id = :school_id AND a.user_id = :user AND a.outcome = 'wrong-password'
              AND a.at >= :window AND (u.unlocked_at IS NULL OR a.at > u.unlocked_at)
            """, ["user": .text(user.id), "window": SQLValue(windowStart)]) ?? 0
        guard failures >= SessionPolicy.failuresBeforeLock else { return }
        let until = context.now.addingTimeInterval(SessionPolicy.lockDuration)
        try context.database.execute(
            "UPDATE auth_users SET locked_until = :until WHERE school_id = :school_id AND id = :id",
            ["until": SQLValue(until), "id": .text(user.id)])
        context.auditDetail = "refused (wrong-password), locked until \(until.formatted(.iso8601)): \(user.email)"
    }
}

/// Whether an email has an account in this school, so `login` can offer a choice of schools.
public struct FindAccount: Action {
    public struct Input: Codable, Sendable {
        public var email: String
        public init(email: String) { self.email = email }
    }

    public static let id = "auth.find-account"
    public static let permission = AuthPermissions.signIn
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> Bool {
        try UserAccounts.find(email: input.email, in: context) != nil
    }
}

/// Who a session token belongs to, if it is still valid.
public struct ResolveSession: Action {
    public struct Input: Codable, Sendable {
        public var token: String
        public init(token: String) { self.token = token }
    }

    public enum State: String, Codable, Sendable {
        case valid, expired, invalid
    }

    public struct Output: Codable, Sendable {
        public let state: State
        public let user: User?
    }

    public static let id = "auth.resolve-session"
    public static let permission = AuthPermissions.signIn
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> Output {
        let row = try context.database.fetchOne("""
            SELECT s.expires_at, s.revoked_at, u.* FROM auth_sessions s
            JOIN auth_users u ON u.school_id = s.school_id AND u.id = s.user_id
            WHERE s.school_id = :school_id AND s.token_hash = :hash
            """, ["hash": .text(SessionPolicy.hash(input.token))])
        guard let row, row["revoked_at"] as String? == nil else { return Output(state: .invalid, user: nil) }
        let user = User(row: row)
        guard user.status == .active else { return Output(state: .invalid, user: nil) }
        guard let expiresAt: Date = row["expires_at"], expiresAt > context.now else { return Output(state: .expired, user: nil) }
        return Output(state: .valid, user: user)
    }
}

/// Ends a session: the token stops working at once.
public struct SignOut: Action {
    public struct Input: Codable, Sendable {
        public var token: String
        public init(token: String) { self.token = token }
    }

    public static let id = "auth.sign-out"
    public static let permission = AuthPermissions.signIn

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> Bool {
        try context.database.execute(
            "UPDATE auth_sessions SET revoked_at = :now WHERE school_id = :school_id AND token_hash = :hash AND revoked_at IS NULL",
            ["now": SQLValue(context.now), "hash": .text(SessionPolicy.hash(input.token))])
        return context.database.changedRowCount > 0
    }
}

/// An account as it stands now, if it may still sign in: what an API refresh is exchanged for.
public struct CurrentUser: Action {
    public struct Input: Codable, Sendable {
        public var userID: String
        public init(userID: String) { self.userID = userID }
    }

    public static let id = "auth.current-user"
    public static let permission = AuthPermissions.signIn
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> User? {
        guard let user = try UserAccounts.find(id: input.userID, in: context), user.status == .active else { return nil }
        return user
    }
}
