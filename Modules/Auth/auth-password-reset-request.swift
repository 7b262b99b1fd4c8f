import Core
import Foundation

/// Mails a new 6-digit code to an account of this school that asked to reset its password.
///
/// Unknown, malformed and suspended emails get no code but the same work: one bcrypt hash at the
/// codes' cost, made before the write (`PreparedAction`), then one write transaction with its
/// audit record. A new code replaces the account's previous one.
public struct RequestPasswordReset: PreparedAction {
    public struct Input: Codable, Sendable {
        public var email: String
        public init(email: String) { self.email = email }
    }

    /// The code and its hash, made outside the write transaction.
    public struct PreparedCode: Sendable {
        let code: String
        let hash: String

        static func make() -> PreparedCode {
            let code = PasswordResetPolicy.newCode()
            return PreparedCode(code: code, hash: PasswordHasher.hash(code, cost: PasswordResetPolicy.codeHashCost))
        }
    }

    public static let id = "auth.request-password-reset"
    public static let permission = AuthPermissions.signIn

    public init() {}

    public func prepare(_ input: Input, in context: ActionContext) throws -> PreparedCode {
        .make()
    }

    /// True when a code was made and mailed (the API never tells the caller).
    public func perform(_ input: Input, in context: ActionContext) throws -> Bool {
        let prepared = context.prepared(as: PreparedCode.self) ?? .make()
        guard let user = try ResetAccount.find(input.email, context), user.status == .active else {
            context.auditDetail = "no code (unknown or suspended): \(ResetAccount.printable(input.email))"
            context.auditOutcome = .failed
            return false
        }
        // One statement, not a delete then an insert: two asks at once (a double tap, two servers)
        // would both delete nothing on PostgreSQL and the second insert would break the key.
        try context.database.execute("""
            INSERT INTO auth_password_resets (school_id, user_id, code_hash, created_at, expires_at, attempts, used_at)
            VALUES (:school_id, :user, :hash, :created, :expires, 0, NULL)
            ON CONFLICT (school_id, user_id) DO UPDATE SET code_hash = excluded.code_hash, created_at = excluded.created_at,
                expires_at = excluded.expires_at, attempts = 0, used_at = NULL
            """, ["user": .text(user.id), "hash": .text(prepared.hash), "created": SQLValue(context.now),
                  "expires": SQLValue(context.now.addingTimeInterval(PasswordResetPolicy.codeLifetime))])
        let language = user.language ?? context.school.language
        let words = Localizer(language: language, catalog: AuthModule().strings, surface: .web)
        let minutes = String(Int(PasswordResetPolicy.codeLifetime / 60))
        try context.publish(AccountMailRequested(
            userID: user.id, email: user.email, displayName: user.displayName, language: language, kind: "password-reset",
            subject: words("auth.reset.mail.subject", ["code": prepared.code]),
            text: words("auth.reset.mail.body", ["code": prepared.code, "minutes": minutes, "school": context.school.name.text(in: language)])))
        context.auditDetail = "code mailed: \(user.email)"
        return true
    }
}

/// The account an email names in this school, read the way sign-in reads it: a control
/// character cannot be in a stored email, so such an email is unknown.
enum ResetAccount {
    static func find(_ email: String, _ context: ActionContext) throws -> User? {
        guard TextInput.problem(in: email, maxLength: UserAccounts.maximumEmailLength) == nil else { return nil }
        return try UserAccounts.findRow(email: email, in: context).map(User.init(row:))
    }

    /// The email as the audit may print it.
    static func printable(_ email: String) -> String {
        UserAccounts.normalize(TextInput.printable(email))
    }
}
