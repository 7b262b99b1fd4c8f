import Core

/// New passwords hashed before the write transaction (`PreparedAction`). bcrypt at the school's
/// cost takes about a quarter of a second; inside the write transaction it would hold every
/// school's writes that long (SQLite has one writer), and a batch of accounts would hold them
/// for minutes. `prepare` hashes in a read transaction; `perform` takes the hashes when they
/// were made at the cost the school has now, else hashes again.
///
/// `prepare` never refuses: a password the rules refuse is not hashed, and `validate` refuses
/// it in the write transaction as before (so a replayed request still answers its first result).
public struct PreparedPasswords: Sendable {
    let cost: Int
    /// One hash per password given to `make`, in order.
    let hashes: [String]

    static func make(_ passwords: [String], _ context: ActionContext) throws -> PreparedPasswords {
        let cost = try context.setting(AuthSettings.passwordHashCost)
        return PreparedPasswords(cost: cost, hashes: passwords.map { PasswordHasher.hash($0, cost: cost) })
    }

    /// Nothing hashed: the input will be refused by `validate`.
    static let none = PreparedPasswords(cost: 0, hashes: [])

    /// The hashes of `passwords`: the prepared ones if made for as many passwords at today's cost.
    static func hashes(_ passwords: [String], _ context: ActionContext) throws -> [String] {
        let cost = try context.setting(AuthSettings.passwordHashCost)
        if let prepared = context.prepared(as: PreparedPasswords.self), prepared.cost == cost, prepared.hashes.count == passwords.count {
            return prepared.hashes
        }
        return passwords.map { PasswordHasher.hash($0, cost: cost) }
    }
}
