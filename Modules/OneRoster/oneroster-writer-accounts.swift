import Auth
import Core
import Foundation

/// Accounts: created through Auth's own checks (`CreateUser`'s validation) with no usable
/// password and a one-time set-password code instead; changed through its actions.
extension OneRosterWriter {
    mutating func accounts() throws {
        try OneRosterCall.require(CreateUser.self, context)
        // A well-formed hash at the school's cost that no password matches: signing in to such an
        // account costs what a wrong password costs, and never succeeds.
        let unusable = PasswordHasher.decoy(cost: try context.setting(AuthSettings.passwordHashCost))
        let expires = SetPasswordCodes.expiry(context)
        let total = plan.users.count
        let label = context.localizer("oneroster.progress.accounts")
        for (index, user) in plan.users.enumerated() {
            if index % 500 == 0 { context.progress?(index, total, label) }
            guard let email = user.email else { continue }
            if user.deleted {
                if let id = ids.target(OneRosterKind.user, user.sourcedId), let account = ids.account(id: id), account.status == .active {
                    try OneRosterCall.run(SetSuspended.self, UserChange(email: account.email, suspended: true), context)
                    count("accounts", \.archived)
                }
                continue
            }
            if let id = ids.target(OneRosterKind.user, user.sourcedId), let account = ids.account(id: id) {
                try update(account, to: user)
                continue
            }
            if let account = ids.accounts[email] {
                ids.set(OneRosterKind.user, user.sourcedId, account.id)
                try update(account, to: user)
                continue
            }
            let name = "\(user.givenName) \(user.familyName)"
            try at("users", user.row, "email") {
                try CreateUser().validate(.init(email: email, displayName: name, role: user.role, password: Self.placeholderPassword), in: context)
            }
            let account = try UserAccounts.insert(id: context.newID(), email: email, displayName: name, role: user.role, passwordHash: unusable, in: context)
            ids.remember(account: account)
            ids.set(OneRosterKind.user, user.sourcedId, account.id)
            codes.append(try SetPasswordCodes.issue(for: account, expires: expires, context))
            if !user.enabled { try OneRosterCall.run(SetSuspended.self, UserChange(email: email, suspended: true), context) }
            count("accounts", \.created)
        }
    }

    /// A known account follows the set: its role (through `ChangeRole`) and whether it may sign in.
    private mutating func update(_ account: User, to user: OneRosterPlan.User) throws {
        var changed = false
        if account.role != user.role {
            try at("users", user.row, "role") { try OneRosterCall.run(ChangeRole.self, UserChange(email: account.email, role: user.role), context) }
            changed = true
        }
        if (account.status == .suspended) == user.enabled {
            try OneRosterCall.run(SetSuspended.self, UserChange(email: account.email, suspended: !user.enabled), context)
            changed = true
        }
        if changed { count("accounts", \.updated) }
    }

    /// A password that passes the rules (no email's name is made of these signs), given only so
    /// `CreateUser` checks everything else; it is never hashed or stored.
    private static let placeholderPassword = "Or⟐⟑⟒⟓⟔⟕⟖⟗"
}

/// One-time set-password codes: the code is shown once; only its SHA-256 is kept.
enum SetPasswordCodes {
    static let validDays = 14
    private static let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")

    /// When codes issued now expire: the time, and the day as the administrator reads it.
    static func expiry(_ context: ActionContext) -> (at: Date, day: String) {
        let at = context.now.addingTimeInterval(TimeInterval(validDays * 86_400))
        return (at, CivilDate(at, in: context.timeZone).description)
    }

    /// 12 characters of 32: 60 bits from one draw of the system's generator; each code works once, before it expires.
    static func issue(for account: User, expires: (at: Date, day: String), _ context: ActionContext) throws -> SetPasswordCode {
        var generator = SystemRandomNumberGenerator()
        let bits = generator.next() as UInt64
        let code = String((0..<12).map { alphabet[Int((bits >> (UInt64($0) * 5)) & 31)] })
        try context.database.execute("""
            INSERT INTO oneroster_set_password_codes (school_id, user_id, code_hash, created_at, expires_at, used_at)
            VALUES (:school_id, :user, :hash, :now, :expires, NULL)
            ON CONFLICT (school_id, user_id) DO UPDATE SET code_hash = excluded.code_hash, created_at = excluded.created_at,
                expires_at = excluded.expires_at, used_at = NULL
            """, ["user": .text(account.id), "hash": .text(hash(code)), "now": SQLValue(context.now), "expires": SQLValue(expires.at)])
        return SetPasswordCode(email: account.email, code: code, expiresOn: expires.day)
    }

    static func hash(_ code: String) -> String {
        Digest.sha256Hex(Data(code.uppercased().replacingOccurrences(of: "-", with: "").utf8))
    }
}
