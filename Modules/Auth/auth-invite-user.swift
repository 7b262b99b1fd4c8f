import Core
import Foundation

/// Invites a person: a new account (with a role and no password anyone knows) or an existing one
/// that has never had a password its owner chose (an import's accounts), and a mail with a link
/// to set the password. A new invitation replaces the account's unused ones.
public struct InviteUser: Action {
    public struct Input: Codable, Sendable {
        public var email: String
        /// Needed for a new account; an existing account keeps its name.
        public var displayName: String?
        /// Needed for a new account; for an existing one, nil or its own role.
        public var role: Role?
        public init(email: String, displayName: String? = nil, role: Role? = nil) {
            self.email = email
            self.displayName = displayName
            self.role = role
        }
    }

    public struct Output: Codable, Sendable {
        public let user: User
        public let expiresAt: Date
        /// Whether the account was made by this invitation.
        public let created: Bool
    }

    public static let id = "auth.invite-user"
    public static let permission = AuthPermissions.manageUsers

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        if let user = try UserAccounts.find(email: input.email, in: context) {
            guard user.status == .active else { throw InputError("auth.error.invite-suspended", ["email": user.email]) }
            if let role = input.role, role != user.role { throw InputError("auth.error.invite-other-role", ["email": user.email, "role": user.role.rawValue]) }
            return
        }
        _ = try CreateUser.checkFields(email: input.email, displayName: input.displayName ?? "", password: nil, context)
        guard input.role != nil else { throw InputError("auth.error.role-required") }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Output {
        var created = false
        let user: User
        if let existing = try UserAccounts.find(email: input.email, in: context) {
            user = existing
        } else {
            // A well-formed hash no password matches, at the cost of the school's real ones: a
            // sign-in before the invitation is accepted takes as long as any wrong password.
            let unusable = PasswordHasher.decoy(cost: max(10, try UserAccounts.hashCost(in: context)))
            user = try UserAccounts.insert(id: context.newID(), email: input.email, displayName: (input.displayName ?? "").trimmingCharacters(in: .whitespaces),
                                           role: input.role ?? .user, passwordHash: unusable, in: context)
            created = true
        }
        let secret = InvitationPolicy.newSecret()
        let expiresAt = context.now.addingTimeInterval(InvitationPolicy.lifetime)
        try context.database.execute("DELETE FROM auth_invitations WHERE school_id = :school_id AND user_id = :user AND accepted_at IS NULL",
                                     ["user": .text(user.id)])
        try context.database.insert(into: "auth_invitations", [
            "id": .text(context.newID()), "user_id": .text(user.id), "token_hash": .text(InvitationPolicy.hash(secret)),
            "invited_by": .text(context.principal.userID), "created_at": SQLValue(context.now), "expires_at": SQLValue(expiresAt),
        ])
        let language = user.language ?? context.school.language
        let words = Localizer(language: language, catalog: AuthModule().strings, surface: .web)
        let school = context.school.name.text(in: language)
        let until = expiresAt.formatted(Date.FormatStyle(date: .long, time: .omitted, locale: Locale(identifier: language.rawValue), timeZone: context.timeZone))
        try context.publish(AccountMailRequested(
            userID: user.id, email: user.email, displayName: user.displayName, language: language, kind: "invitation",
            subject: words("auth.invite.mail.subject", ["school": school]),
            text: words("auth.invite.mail.body", ["school": school, "role": words("auth.role.\(user.role.rawValue)"), "until": until, "link": "{link}"]),
            linkPath: InvitationPolicy.path + "?token=" + context.school.id + "." + secret))
        context.auditDetail = "\(user.email) as \(user.role.rawValue)\(created ? " (new account)" : "")"
        return Output(user: user, expiresAt: expiresAt, created: created)
    }
}
