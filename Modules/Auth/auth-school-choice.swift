import Core
import Foundation

/// One password for an email with accounts in several schools (the web console's school choice).
///
/// `CheckPassword` checks the password in one school exactly as `SignIn` does (one bcrypt, a
/// decoy for an unknown email, the lockout after five wrong passwords, the attempt and the audit)
/// but opens no session: it answers with a proof of the account as it was checked. The console
/// keeps the proofs of the schools where the password was right in a short-lived signed ticket;
/// `SignInChosenSchool` then opens the session in the school the person chose, once the console
/// has checked its ticket, and refuses when the account changed meanwhile (a new password, a
/// suspension, a lock). Neither is a route or a command: only the console runs them.
public struct CheckPassword: PreparedAction {
    public struct Input: Codable, Sendable {
        public var email: String
        public var password: String
        public init(email: String, password: String) {
            self.email = email
            self.password = password
        }
    }

    /// The proof when the password is right and the account may sign in; nil when refused.
    public struct Output: Codable, Sendable {
        public let proof: String?
    }

    public static let id = "auth.check-password"
    public static let permission = AuthPermissions.signIn

    public init() {}

    public func prepare(_ input: Input, in context: ActionContext) throws -> SignIn.PasswordCheck {
        let signIn = SignIn()
        let (_, row) = try signIn.account(.init(email: input.email, password: input.password), context)
        return try signIn.check(input.password, against: row, context)
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Output {
        let signIn = SignIn()
        let asSignIn = SignIn.Input(email: input.email, password: input.password, opensSession: false)
        let (email, row) = try signIn.account(asSignIn, context)
        let prepared = context.prepared(as: SignIn.PasswordCheck.self)
        let passwordMatches = try prepared.flatMap { $0.hash == row?.string("password_hash") ? $0.matches : nil }
            ?? signIn.check(input.password, against: row, context).matches
        guard let row else {
            _ = try signIn.refuse(email: email, user: nil, reason: "unknown-email", context)
            return Output(proof: nil)
        }
        let user = User(row: row)
        if let lockedUntil = user.lockedUntil, lockedUntil > context.now {
            _ = try signIn.refuse(email: email, user: user, reason: "locked", context)
            return Output(proof: nil)
        }
        guard passwordMatches else {
            _ = try signIn.refuse(email: email, user: user, reason: "wrong-password", context)
            try signIn.lockIfTooManyFailures(user, context)
            return Output(proof: nil)
        }
        guard user.status == .active else {
            _ = try signIn.refuse(email: email, user: user, reason: "suspended", context)
            return Output(proof: nil)
        }
        try signIn.recordAttempt(email: email, user: user, outcome: "password-checked", context)
        context.auditDetail = "password checked (one password, school to choose): \(email)"
        return Output(proof: SchoolChoiceProof.of(row))
    }
}

/// Opens a console session in the school the person chose after `CheckPassword` accepted their
/// password there. The caller (the console) has checked its signed, single-use ticket; this
/// action checks that the account is the one the password was checked against.
public struct SignInChosenSchool: Action {
    public struct Input: Codable, Sendable {
        public var email: String
        public var proof: String
        public init(email: String, proof: String) {
            self.email = email
            self.proof = proof
        }
    }

    public static let id = "auth.sign-in-chosen-school"
    public static let permission = AuthPermissions.signIn

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> SignInResult {
        let signIn = SignIn()
        let (email, row) = try signIn.account(.init(email: input.email, password: ""), context)
        guard let row else { return try signIn.refuse(email: email, user: nil, reason: "unknown-email", context) }
        let user = User(row: row)
        guard SchoolChoiceProof.matches(input.proof, SchoolChoiceProof.of(row)) else {
            return try signIn.refuse(email: email, user: user, reason: "password-changed", context)
        }
        if let lockedUntil = user.lockedUntil, lockedUntil > context.now {
            return try signIn.refuse(email: email, user: user, reason: "locked", context)
        }
        guard user.status == .active else { return try signIn.refuse(email: email, user: user, reason: "suspended", context) }
        try signIn.recordAttempt(email: email, user: user, outcome: "signed-in", context)
        let token = SessionPolicy.newToken()
        let expiresAt = context.now.addingTimeInterval(SessionPolicy.lifetime)
        try context.database.insert(into: "auth_sessions", [
            "token_hash": .text(SessionPolicy.hash(token)), "user_id": .text(user.id),
            "created_at": SQLValue(context.now), "expires_at": SQLValue(expiresAt),
        ])
        context.auditDetail = "signed-in (school chosen after one password): \(email)"
        return SignInResult(token: token, user: user, expiresAt: expiresAt)
    }
}

/// Whether this email has an active account in this school (for the console's "Switch school").
public struct FindActiveAccount: Action {
    public struct Input: Codable, Sendable {
        public var email: String
        public init(email: String) { self.email = email }
    }

    public static let id = "auth.find-active-account"
    public static let permission = AuthPermissions.signIn
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> Bool {
        try UserAccounts.find(email: input.email, in: context)?.status == .active
    }
}

/// What ties a school choice to the account as its password was checked: a digest of the
/// account's id and password hash, so a password changed in between ends the choice. It says
/// nothing about the password (the hash is bcrypt's, and only its digest leaves the module).
enum SchoolChoiceProof {
    static func of(_ row: SQLRow) -> String {
        String(Digest.sha256Hex(Data("hogwarts-school-choice\n\(row.string("id"))\n\(row.string("password_hash"))".utf8)).prefix(32))
    }

    /// Equal proofs, compared in time that does not depend on where they differ.
    static func matches(_ given: String, _ expected: String) -> Bool {
        guard given.utf8.count == expected.utf8.count else { return false }
        return zip(given.utf8, expected.utf8).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
