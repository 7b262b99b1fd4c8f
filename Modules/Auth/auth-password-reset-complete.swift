import Core
import Foundation

/// Sets a new password with an emailed code: the code is used up, a lock from failed sign-ins is
/// lifted, and every CLI session and API token family of the account ends.
///
/// The password rules are checked first (`validate`): a weak password changes nothing, not even
/// the code's count of tries. The code check and the new hash are made before the write.
public struct CompletePasswordReset: PreparedAction {
    public struct Input: Codable, Sendable {
        public var email: String
        public var code: String
        public var newPassword: String
        public init(email: String, code: String, newPassword: String) {
            self.email = email
            self.code = code
            self.newPassword = newPassword
        }
    }

    public struct Prepared: Sendable {
        let check: ResetCodeCheck
        let passwords: PreparedPasswords
    }

    public static let id = "auth.complete-password-reset"
    public static let permission = AuthPermissions.signIn

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        try PasswordRules.check(input.newPassword, email: UserAccounts.normalize(input.email))
    }

    public func prepare(_ input: Input, in context: ActionContext) throws -> Prepared {
        let check = try ResetCodeCheck.make(email: input.email, code: input.code, context)
        let rulesHold = (try? PasswordRules.check(input.newPassword, email: UserAccounts.normalize(input.email))) != nil
        return Prepared(check: check, passwords: rulesHold ? try .make([input.newPassword], context) : .none)
    }

    /// True when the password was changed.
    public func perform(_ input: Input, in context: ActionContext) throws -> Bool {
        let prepared = context.prepared(as: Prepared.self)
        guard let user = try ResetCodeCheck.accept(email: input.email, code: input.code, prepared: prepared?.check, context) else {
            context.auditDetail = "code refused: \(ResetAccount.printable(input.email))"
            context.auditOutcome = .failed
            return false
        }
        let cost = try context.setting(AuthSettings.passwordHashCost)
        let hash = prepared.flatMap { $0.passwords.cost == cost ? $0.passwords.hashes.first : nil }
            ?? PasswordHasher.hash(input.newPassword, cost: cost)
        try context.database.execute("UPDATE auth_password_resets SET used_at = :now WHERE school_id = :school_id AND user_id = :id",
                                     ["now": SQLValue(context.now), "id": .text(user.id)])
        try context.database.execute("""
            UPDATE auth_users SET password_hash = :hash, locked_until = NULL, unlocked_at = :now WHERE school_id = :school_id AND id = :id
            """, ["hash": .text(hash), "now": SQLValue(context.now), "id": .text(user.id)])
        try context.database.execute("UPDATE auth_sessions SET revoked_at = :now WHERE school_id = :school_id AND user_id = :id AND revoked_at IS NULL",
                                     ["now": SQLValue(context.now), "id": .text(user.id)])
        try context.revokeTokens(ofUser: user.id)
        context.auditDetail = "password reset by code: \(user.email)"
        return true
    }
}
