import Core
import Foundation

/// Signs in the existing account of this school whose email an OpenID provider has vouched for.
///
/// The caller has verified the ID token (`IDTokenVerifier`: signature, issuer, audience, times,
/// nonce, `email_verified`, domain); this action is what stays inside the kernel's transaction:
/// the provider must still be configured here, the email must still be in its domain, and the
/// account must exist and be active. An account is made only where the school's
/// `auth.openid-new-accounts` names a role and the provider is held to a domain.
/// Every outcome is recorded as an attempt and audited, as a password sign-in is.
public struct SignInWithOpenID: Action {
    public struct Input: Codable, Sendable {
        public var issuer: String
        public var clientID: String
        public var email: String
        /// The provider's `sub`, for the audit record.
        public var subject: String
        /// The token's nonce, if it has one: each signs in once (console: the one we sent; mobile: any the app set).
        public var nonce: String?
        /// Whether to open a console/CLI session (a row in `auth_sessions` and its token); the API signs its own.
        public var opensSession: Bool
        /// The provider's `name` claim: the display name of an account made at sign-in.
        public var name: String?
        public init(issuer: String, clientID: String, email: String, subject: String, nonce: String?, opensSession: Bool, name: String? = nil) {
            self.name = name
            self.nonce = nonce
            self.issuer = issuer
            self.clientID = clientID
            self.email = email
            self.subject = subject
            self.opensSession = opensSession
        }
    }

    public static let id = "auth.sign-in-openid"
    public static let permission = AuthPermissions.signIn

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> SignInResult {
        let email = UserAccounts.normalize(TextInput.printable(input.email))
        let provider = try OpenIDProvider.all(in: context).first { $0.issuer == input.issuer && $0.clientID == input.clientID }
        guard let provider else { return try refuse(email, nil, "openid-no-provider", context) }
        guard EmailDomain.allows(email, domain: provider.domain) else { return try refuse(email, nil, "openid-domain", context) }
        if let nonce = input.nonce {
            let hash = Digest.sha256Hex(Data((input.issuer + "\n" + nonce).utf8))
            let used: Int = try context.database.fetchValue(
                "SELECT COUNT(*) FROM auth_openid_nonces WHERE school_id = :school_id AND nonce_hash = :hash", ["hash": .text(hash)]) ?? 0
            guard used == 0 else { return try refuse(email, nil, "openid-replayed-nonce", context) }
            try context.database.insert(into: "auth_openid_nonces", ["nonce_hash": .text(hash), "used_at": SQLValue(context.now)])
        }
        guard let user = try UserAccounts.find(email: email, in: context) ?? newAccount(email, input, provider, context) else {
            return try refuse(email, nil, "openid-unknown-email", context)
        }
        guard user.status == .active else { return try refuse(email, user, "suspended", context) }
        if let lockedUntil = user.lockedUntil, lockedUntil > context.now { return try refuse(email, user, "locked", context) }
        try attempt(email, user, "signed-in-openid", context)
        context.auditDetail = "signed-in (openid \(input.issuer), sub \(TextInput.printable(input.subject))): \(email)"
        guard input.opensSession else { return SignInResult(token: nil, user: user, expiresAt: nil) }
        let token = SessionPolicy.newToken()
        let expiresAt = context.now.addingTimeInterval(SessionPolicy.lifetime)
        try context.database.insert(into: "auth_sessions", [
            "token_hash": .text(SessionPolicy.hash(token)), "user_id": .text(user.id),
            "created_at": SQLValue(context.now), "expires_at": SQLValue(expiresAt),
        ])
        return SignInResult(token: token, user: user, expiresAt: expiresAt)
    }

    /// An account for an unknown email, only where the school chose a role for them and the
    /// provider is held to a domain (checked above). Its password matches nothing: the person
    /// signs in through the provider, or sets one with "Forgot your password?".
    private func newAccount(_ email: String, _ input: Input, _ provider: OpenIDProvider, _ context: ActionContext) throws -> User? {
        let chosen = try context.setting(AuthSettings.openIDNewAccounts)
        guard chosen != "off", !provider.domain.isEmpty, let role = Role(rawValue: chosen.uppercased()) else { return nil }
        let name = TextInput.printable(input.name ?? "").trimmingCharacters(in: .whitespaces)
        let unusable = PasswordHasher.decoy(cost: max(10, try UserAccounts.hashCost(in: context)))
        let user = try UserAccounts.insert(id: context.newID(), email: email, displayName: name.isEmpty ? email : String(name.prefix(200)),
                                           role: role, passwordHash: unusable, in: context)
        try attempt(email, user, "openid-new-account", context)
        return user
    }

    private func refuse(_ email: String, _ user: User?, _ reason: String, _ context: ActionContext) throws -> SignInResult {
        try attempt(email, user, reason, context)
        context.auditDetail = "refused (\(reason)): \(email)"
        context.auditOutcome = .failed
        return .refused
    }

    private func attempt(_ email: String, _ user: User?, _ outcome: String, _ context: ActionContext) throws {
        try context.database.insert(into: "auth_sign_in_attempts", [
            "email": .text(email), "user_id": SQLValue(user?.id), "outcome": .text(outcome), "at": SQLValue(context.now),
        ])
    }
}

/// Whether an email is in a provider's allowed domain (empty: any domain).
enum EmailDomain {
    static func allows(_ email: String, domain: String) -> Bool {
        guard !domain.isEmpty else { return true }
        guard let at = email.lastIndex(of: "@") else { return false }
        return email[email.index(after: at)...].lowercased() == domain.lowercased()
    }
}
