import Auth
import Core
import Foundation

/// Accounts: created through Auth's `CreateUsers` (`CreateUser`'s rules, one batch) with no
/// usable password, then either invited by email (`--invite`: Auth's `InviteUser`, a link to set
/// the password) or given a one-time set-password code; changed through its actions.
extension OneRosterWriter {
    mutating func accounts() throws {
        try OneRosterCall.require(CreateUsers.self, context)
        let total = plan.users.count
        let label = context.localizer("oneroster.progress.accounts")
        // New accounts go to Auth in one `CreateUsers` batch, with no password (one no password matches).
        var fresh: [OneRosterPlan.User] = []
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
            fresh.append(user)
        }
        guard !fresh.isEmpty else { return }
        let rows = fresh.map { CreateUsers.Row(email: $0.email ?? "", displayName: "\($0.givenName) \($0.familyName)", role: $0.role) }
        let accounts: [User]
        do {
            accounts = try OneRosterCall.run(CreateUsers.self, .init(users: rows), context)
        } catch let error as BatchRowError {
            throw OneRosterError.invalidSet([OneRosterViolation(file: "users.csv", row: fresh[error.index].row, column: "email",
                                                                reason: context.localizer.message(for: error))])
        }
        let expires = SetPasswordCodes.expiry(context)
        var codes: [(account: User, code: String)] = []
        codes.reserveCapacity(accounts.count)
        for (user, account) in zip(fresh, accounts) {
            ids.remember(account: account)
            ids.set(OneRosterKind.user, user.sourcedId, account.id)
            count("accounts", \.created)
            if invite, user.enabled, Self.canBeMailed(account.email) {
                try at("users", user.row, "email") { try OneRosterCall.run(InviteUser.self, .init(email: account.email), context) }
                invited.append(account.email)
            } else {
                codes.append((account, SetPasswordCodes.newCode()))
            }
        }
        self.codes += try SetPasswordCodes.store(codes, expires: expires, context)
        for (user, account) in zip(fresh, accounts) where !user.enabled {
            try OneRosterCall.run(SetSuspended.self, UserChange(email: account.email, suspended: true), context)
        }
    }

    /// An address a mail can reach: not the `<username>@<school>.invalid` a set without emails gets.
    static func canBeMailed(_ email: String) -> Bool {
        !email.hasSuffix(".invalid")
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

    /// 12 characters of 32: 60 bits from one draw of the system's generator.
    static func newCode() -> String {
        var generator = SystemRandomNumberGenerator()
        let bits = generator.next() as UInt64
        return String((0..<12).map { alphabet[Int((bits >> (UInt64($0) * 5)) & 31)] })
    }

    /// Keeps each code's hash (each works once, before it expires), 100 accounts a statement.
    static func store(_ codes: [(account: User, code: String)], expires: (at: Date, day: String), _ context: ActionContext) throws -> [SetPasswordCode] {
        var start = 0
        while start < codes.count {
            let batch = codes[start..<min(start + 100, codes.count)]
            var arguments: SQLArguments = ["now": SQLValue(context.now), "expires": SQLValue(expires.at)]
            var values: [String] = []
            for (offset, entry) in batch.enumerated() {
                values.append("(:school_id, :u\(offset), :h\(offset), :now, :expires, NULL)")
                arguments["u\(offset)"] = .text(entry.account.id)
                arguments["h\(offset)"] = .text(hash(entry.code))
            }
            try context.database.execute("""
                INSERT INTO oneroster_set_password_codes (school_id, user_id, code_hash, created_at, expires_at, used_at)
                VALUES \(values.joined(separator: ", "))
                ON CONFLICT (school_id, user_id) DO UPDATE SET code_hash = excluded.code_hash, created_at = excluded.created_at,
                    expires_at = excluded.expires_at, used_at = NULL
                """, arguments)
            start += batch.count
        }
        return codes.map { SetPasswordCode(email: $0.account.email, code: $0.code, expiresOn: expires.day) }
    }

    static func hash(_ code: String) -> String {
        Digest.sha256Hex(Data(code.uppercased().replacingOccurrences(of: "-", with: "").utf8))
    }
}
