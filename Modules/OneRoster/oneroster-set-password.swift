import Auth
import Core
import Foundation

/// Sets the password of an account an import created, with the one-time code its administrator
/// handed over. Anyone may try (the code is the proof); a wrong, used or expired code gets one
/// answer. The new password follows Auth's rules and is set by Auth's `ResetPassword`, which
/// also ends any sessions.
public struct RedeemSetPasswordCode: Action {
    public struct Input: Codable, Sendable {
        public var email: String
        public var code: String
        public var password: String
        public init(email: String, code: String, password: String) {
            self.email = email
            self.code = code
            self.password = password
        }
    }

    public static let id = "oneroster.set-password"
    public static let permission = OneRosterPermissions.setPassword

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        let account = try account(input, context)
        try PasswordRules.check(input.password, email: account.email)
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> User {
        let account = try account(input, context)
        // The code stands in for the administrator's permission, for this one account.
        _ = try context.published(by: ResetPassword.moduleID) { try ResetPassword().perform(UserChange(email: account.email, password: input.password), in: context) }
        try context.database.execute("UPDATE oneroster_set_password_codes SET used_at = :now WHERE school_id = :school_id AND user_id = :user",
                                     ["now": SQLValue(context.now), "user": .text(account.id)])
        context.auditDetail = account.email
        return account
    }

    /// The account, if the code is its current, unused, unexpired one.
    private func account(_ input: Input, _ context: ActionContext) throws -> User {
        try TextInput.check(input.code, field: "code", maxLength: 40)
        guard let account = try UserAccounts.find(email: input.email, in: context),
              let row = try context.database.fetchOne("""
                SELECT code_hash, expires_at, used_at FROM oneroster_set_password_codes WHERE school_id = :school_id AND user_id = :user
                """, ["user": .text(account.id)]),
              row["used_at"] as String? == nil, let expires: Date = row["expires_at"], expires > context.now,
              row.string("code_hash") == SetPasswordCodes.hash(input.code)
        else { throw OneRosterError.badCode }
        return account
    }
}
