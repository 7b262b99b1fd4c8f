import Core
import Foundation

/// The live invitation a link's secret names in this school, with its account: unused, unexpired,
/// and the account still active. Anything else is the same "no such invitation".
enum LiveInvitation {
    static func find(secret: String, _ context: ActionContext) throws -> (id: String, user: User)? {
        guard let row = try context.database.fetchOne("""
            SELECT i.id AS invitation_id, i.expires_at AS invitation_expires_at, i.accepted_at, u.* FROM auth_invitations i
            JOIN auth_users u ON u.school_id = i.school_id AND u.id = i.user_id
            WHERE i.school_id = :school_id AND i.token_hash = :hash
            """, ["hash": .text(InvitationPolicy.hash(secret))]) else { return nil }
        let user = User(row: row)
        guard (row["accepted_at"] as String?) == nil, (row["invitation_expires_at"] as Date?).map({ $0 > context.now }) == true,
              user.status == .active else { return nil }
        return (row.string("invitation_id"), user)
    }
}

/// Who a live invitation is for, so its page can greet them; nil for any other link.
public struct ShowInvitation: Action {
    public struct Input: Codable, Sendable {
        /// The secret after the school id in the link's token.
        public var secret: String
        public init(secret: String) { self.secret = secret }
    }

    public static let id = "auth.show-invitation"
    public static let permission = AuthPermissions.signIn
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> User? {
        try LiveInvitation.find(secret: input.secret, context)?.user
    }
}

/// Accepts an invitation: the person's own password, checked by the password rules first (a
/// refused one changes nothing and leaves the link working), then the link is used up.
public struct AcceptInvitation: PreparedAction {
    public struct Input: Codable, Sendable {
        public var secret: String
        public var password: String
        public init(secret: String, password: String) {
            self.secret = secret
            self.password = password
        }
    }

    public static let id = "auth.accept-invitation"
    public static let permission = AuthPermissions.signIn

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        guard let (_, user) = try LiveInvitation.find(secret: input.secret, context) else { throw AuthError.invitationInvalid }
        try PasswordRules.check(input.password, email: user.email)
    }

    public func prepare(_ input: Input, in context: ActionContext) throws -> PreparedPasswords {
        guard (try? validate(input, in: context)) != nil else { return .none }
        return try .make([input.password], context)
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> User {
        guard let (invitation, user) = try LiveInvitation.find(secret: input.secret, context) else { throw AuthError.invitationInvalid }
        let hash = try PreparedPasswords.hashes([input.password], context)[0]
        try context.database.execute("UPDATE auth_invitations SET accepted_at = :now WHERE school_id = :school_id AND id = :id",
                                     ["now": SQLValue(context.now), "id": .text(invitation)])
        try context.database.execute("UPDATE auth_users SET password_hash = :hash WHERE school_id = :school_id AND id = :id",
                                     ["hash": .text(hash), "id": .text(user.id)])
        // Whoever held the account before (an import's one-time code) is signed out.
        try context.database.execute("UPDATE auth_sessions SET revoked_at = :now WHERE school_id = :school_id AND user_id = :id AND revoked_at IS NULL",
                                     ["now": SQLValue(context.now), "id": .text(user.id)])
        try context.revokeTokens(ofUser: user.id)
        context.auditDetail = user.email
        return user
    }
}
