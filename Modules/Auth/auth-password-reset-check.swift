import Core
import Foundation

/// One bcrypt check of a code against an account's live code (against a decoy of the same cost
/// when the email or its code is unknown, so the time says nothing), and the verdict: the account
/// when the code is right, unused, unexpired and has not taken too many wrong tries. A wrong code
/// counts a try on the account's code.
public struct ResetCodeCheck: Sendable {
    let hash: String?
    let matches: Bool

    /// The check made before the write transaction (`PreparedAction.prepare`).
    static func make(email: String, code: String, _ context: ActionContext) throws -> ResetCodeCheck {
        let row = try liveCode(email, context)
        let hash = row?.string("code_hash")
        let against = hash ?? PasswordHasher.decoy(cost: PasswordResetPolicy.codeHashCost)
        return ResetCodeCheck(hash: hash, matches: PasswordResetPolicy.isWellFormed(code) && PasswordHasher.verify(code, against: against))
    }

    /// The account the code unlocks, or nil (and one more try counted on a real code).
    static func accept(email: String, code: String, prepared: ResetCodeCheck?, _ context: ActionContext) throws -> User? {
        guard let user = try ResetAccount.find(email, context), user.status == .active else {
            if prepared == nil { _ = try make(email: email, code: code, context) }
            return nil
        }
        let row = try liveCode(email, context)
        // The prepared check holds if the code is still the one it was made against.
        let matches = try prepared.flatMap { $0.hash == row?.string("code_hash") ? $0.matches : nil } ?? make(email: email, code: code, context).matches
        guard let row else { return nil }
        let usable = (row["used_at"] as String?) == nil && (row["expires_at"] as Date?).map { $0 > context.now } == true
            && row.int("attempts") < PasswordResetPolicy.maximumAttempts
        guard usable, matches else {
            if usable {
                try context.database.execute(
                    "UPDATE auth_password_resets SET attempts = attempts + 1 WHERE school_id = :school_id AND user_id = :user", ["user": .text(user.id)])
            }
            return nil
        }
        return user
    }

    private static func liveCode(_ email: String, _ context: ActionContext) throws -> SQLRow? {
        guard TextInput.problem(in: email, maxLength: UserAccounts.maximumEmailLength) == nil else { return nil }
        return try context.database.fetchOne("""
            SELECT r.code_hash, r.expires_at, r.attempts, r.used_at FROM auth_password_resets r
            JOIN auth_users u ON u.school_id = r.school_id AND u.id = r.user_id
            WHERE r.school_id = :school_id AND u.email = :email
            """, ["email": .text(UserAccounts.normalize(email))])
    }
}

/// Whether a code is right for an email in this school, without using it up: the contract's
/// `verify-otp`, which a phone calls before asking for the new password. A wrong code counts a try.
public struct VerifyResetCode: PreparedAction {
    public struct Input: Codable, Sendable {
        public var email: String
        public var code: String
        public init(email: String, code: String) {
            self.email = email
            self.code = code
        }
    }

    public static let id = "auth.verify-reset-code"
    public static let permission = AuthPermissions.signIn

    public init() {}

    public func prepare(_ input: Input, in context: ActionContext) throws -> ResetCodeCheck {
        try .make(email: input.email, code: input.code, context)
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Bool {
        guard let user = try ResetCodeCheck.accept(email: input.email, code: input.code, prepared: context.prepared(as: ResetCodeCheck.self), context) else {
            context.auditDetail = "code refused: \(ResetAccount.printable(input.email))"
            context.auditOutcome = .failed
            return false
        }
        context.auditDetail = "code accepted: \(user.email)"
        return true
    }
}
