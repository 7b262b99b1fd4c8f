import Foundation
import HogwartsBase

/// The API's signing keys (sealed, see `SigningKeySeal`) and token families, in the kernel's own tables.
package struct TokenStore {
    /// How long a refresh token lasts: a week.
    package static let refreshLifetime: TimeInterval = 7 * 24 * 3600
    let store: KernelStore
    let registry: ModuleRegistry
    let seal: () throws -> SigningKeySeal

    package struct SigningKey {
        package let id: String
        package let secret: Data
    }

    package enum Advance {
        case advanced(userID: String)
        /// An older refresh token of the family came back: the family is now revoked.
        case reused
        case revoked
    }

    /// Every key that may still verify a token, and the one to sign with (the newest). Makes
    /// the first key when there is none.
    package func signingKeys(at now: Date) throws -> (current: String, all: [SigningKey]) {
        if let found = try read(at: now) { return found }
        try addKey(at: now)
        guard let made = try read(at: now) else { throw KernelError.storage("no signing key") }
        return made
    }

    /// Adds a new signing key; the previous one keeps verifying until its last token expires.
    func addKey(at now: Date) throws {
        var generator = SystemRandomNumberGenerator()
        let secret = Data((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        let id = UUID().uuidString.lowercased()
        let sealed = try seal().seal(secret, kid: id)
        try store.write { db in
            try db.execute(sql: "UPDATE kernel_signing_keys SET retired_at = ? WHERE retired_at IS NULL", arguments: [now])
            try db.execute(sql: "INSERT INTO kernel_signing_keys (id, secret, created_at) VALUES (?, ?, ?)", arguments: [id, sealed, now])
        }
    }

    private func read(at now: Date) throws -> (current: String, all: [SigningKey])? {
        // A key retired more than a refresh token's lifetime ago has no valid token left.
        let oldest = now.addingTimeInterval(-Self.refreshLifetime)
        let rows = try store.read { db in
            try db.fetchAll(sql: """
                SELECT id, secret, retired_at FROM kernel_signing_keys
                WHERE retired_at IS NULL OR retired_at > ? ORDER BY created_at DESC
                """, arguments: [oldest])
        }
        let seal = try seal()
        var plain = false
        let keys = try rows.compactMap { row -> SigningKey? in
            guard let opened = try seal.open(row.string("secret"), kid: row.string("id")) else { return nil }
            plain = plain || opened.plain
            return SigningKey(id: row.string("id"), secret: opened.secret)
        }
        if plain { try sealPlainKeys(seal) }
        guard let current = rows.first(where: { ($0["retired_at"] as String?) == nil }).map({ $0.string("id") }) else { return nil }
        return (current, keys)
    }

    /// Keys stored in plain by an older version are sealed where they lie, every one of them, at
    /// the first start that finds one; a server that already sealed them changes nothing.
    private func sealPlainKeys(_ seal: SigningKeySeal) throws {
        try store.write { db in
            let rows = try db.fetchAll(sql: "SELECT id, secret FROM kernel_signing_keys WHERE secret NOT LIKE ?", arguments: [SigningKeySeal.prefix + "%"])
            for row in rows {
                guard let opened = try seal.open(row.string("secret"), kid: row.string("id")), opened.plain else { continue }
                try db.execute(sql: "UPDATE kernel_signing_keys SET secret = ? WHERE id = ? AND secret = ?",
                               arguments: [try seal.seal(opened.secret, kid: row.string("id")), row.string("id"), row.string("secret")])
            }
        }
    }

    package func openFamily(_ family: String, school: SchoolID, user: String, role: Role, at now: Date, expiresAt: Date) throws {
        try store.write { db in
            try db.execute(sql: """
                INSERT INTO kernel_token_families (school_id, id, user_id, role, generation, created_at, expires_at) VALUES (?, ?, ?, ?, 0, ?, ?)
                """, arguments: [school, family, user, role.rawValue, now, expiresAt])
        }
    }

    /// The role a refreshed family's next access token is signed for (the account's role now).
    package func setRole(_ role: Role, family: String, school: SchoolID) throws {
        try store.write { db in
            try db.execute(sql: "UPDATE kernel_token_families SET role = ? WHERE school_id = ? AND id = ?", arguments: [role.rawValue, school, family])
        }
    }

    /// Who a family was opened for and with which role, while it is neither revoked nor expired.
    package func liveFamily(_ family: String, school: SchoolID, at now: Date) throws -> (userID: String, role: String?)? {
        try store.read { db in
            try db.fetchOne(sql: """
                SELECT user_id, role FROM kernel_token_families WHERE school_id = ? AND id = ? AND revoked_at IS NULL AND expires_at > ?
                """, arguments: [school, family, now]).map { ($0.string("user_id"), $0["role"] as String?) }
        }
    }

    /// Moves a family on to its next refresh token, if `generation` is its newest. The move is
    /// made only from that generation: on PostgreSQL a second refresh with the same token at the
    /// same moment waits for the first's row lock, then finds the generation moved on and is
    /// treated as reuse (the family revoked) instead of getting a pair of its own.
    package func advance(_ family: String, school: SchoolID, from generation: Int, at now: Date) throws -> Advance {
        try store.write { db in
            let row = try db.fetchOne(sql: """
                SELECT user_id, generation, revoked_at FROM kernel_token_families WHERE school_id = ? AND id = ?
                """, arguments: [school, family])
            guard let row, (row["revoked_at"] as String?) == nil else { return .revoked }
            if row.int("generation") == generation {
                try db.execute(sql: """
                    UPDATE kernel_token_families SET generation = generation + 1, expires_at = ?
                    WHERE school_id = ? AND id = ? AND generation = ? AND revoked_at IS NULL
                    """, arguments: [now.addingTimeInterval(Self.refreshLifetime), school, family, generation])
                if db.changedRowCount == 1 { return .advanced(userID: row.string("user_id")) }
            }
            try revoke(family, school: school, reason: "refresh-token-reused", at: now, in: db)
            try AuditRecords.append(school: school, principal: Principal(userID: row.string("user_id"), role: .user, schoolID: school, displayName: row.string("user_id")),
                                    action: "kernel.token-refresh", outcome: .denied, detail: "refresh token reused: family \(family) revoked", at: now, in: db)
            return .reused
        }
    }

    package func revoke(_ family: String, school: SchoolID, reason: String, at now: Date) throws {
        try store.write { db in try revoke(family, school: school, reason: reason, at: now, in: db) }
    }

    private func revoke(_ family: String, school: SchoolID, reason: String, at now: Date, in db: any StorageConnection) throws {
        try db.execute(sql: """
            UPDATE kernel_token_families SET revoked_at = ?, revoked_reason = ? WHERE school_id = ? AND id = ? AND revoked_at IS NULL
            """, arguments: [now, reason, school, family])
    }

    /// Revoked families whose tokens could still be presented.
    package func revokedFamilies(at now: Date) throws -> [(school: SchoolID, family: String)] {
        try store.read { db in
            try db.fetchAll(sql: """
                SELECT school_id, id FROM kernel_token_families WHERE revoked_at IS NOT NULL AND expires_at > ?
                """, arguments: [now]).map { ($0.string("school_id"), $0.string("id")) }
        }
    }
}

extension Kernel {
    package var tokenStore: TokenStore { TokenStore(store: store, registry: registry, seal: { try self.signingKeySeal() }) }

    /// The seal of the API signing keys, read (or made) once per process.
    func signingKeySeal() throws -> SigningKeySeal {
        try signingSeal.withLock { loaded in
            if let loaded { return loaded }
            let seal = try SigningKeySeal.load(folder: databaseFolder)
            loaded = seal
            return seal
        }
    }

    /// Every API signing key that still verifies, opened: for `hogwarts-bench`'s floors, which
    /// check tokens without the kernel's own code.
    public func apiSigningKeys() throws -> [(id: String, secret: Data)] {
        try tokenStore.signingKeys(at: now()).all.map { ($0.id, $0.secret) }
    }

    /// `hogwarts keys rotate`: a new key signs from now on; the old one verifies until its tokens expire.
    public func rotateSigningKey() throws {
        try tokenStore.addKey(at: now())
    }
}

extension ActionContext {
    /// Ends every API sign-in of a user in this school, in the running action's transaction:
    /// suspending an account or changing its role or password takes effect on every phone.
    public func revokeTokens(ofUser userID: String) throws {
        try database.connection.execute(sql: """
            UPDATE kernel_token_families SET revoked_at = ?, revoked_reason = 'account-changed'
            WHERE school_id = ? AND user_id = ? AND revoked_at IS NULL
            """, arguments: [now, school.id, userID])
    }
}
