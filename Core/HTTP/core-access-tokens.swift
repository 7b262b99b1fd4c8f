import Foundation
import JWTKit
import NIOPosix
import Synchronization
import HogwartsBase
import HogwartsKernel

/// What the API's tokens carry (JWT HS256). Access tokens: `sub, email, school_id, role, type:"access"`
/// for 24 hours; refresh tokens: `sub, school_id, type:"refresh"` for 7 days. Both name their
/// family (`sid`), so signing out or a stolen refresh token ends every token of that sign-in.
package struct TokenClaims: JWTPayload {
    var sub: SubjectClaim
    var email: String?
    var schoolID: String
    var role: String?
    var name: String?
    var type: String
    var sid: String
    /// The refresh token's place in its family: only the newest may be exchanged.
    var gen: Int?
    var iat: IssuedAtClaim
    var exp: ExpirationClaim

    package init(sub: SubjectClaim, email: String?, schoolID: String, role: String?, name: String?, type: String, sid: String, gen: Int?, iat: IssuedAtClaim, exp: ExpirationClaim) {
        self.sub = sub
        self.email = email
        self.schoolID = schoolID
        self.role = role
        self.name = name
        self.type = type
        self.sid = sid
        self.gen = gen
        self.iat = iat
        self.exp = exp
    }

    enum CodingKeys: String, CodingKey {
        case sub, email, role, name, type, sid, gen, iat, exp
        case schoolID = "school_id"
    }

    /// Expiry is checked against the kernel's clock by `AccessTokens`, not the wall clock here.
    package func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// A freshly issued pair of tokens.
public struct TokenPair: Sendable {
    public let accessToken: String
    public let refreshToken: String
    public let accessExpiresAt: Date
    public let principal: Principal
}

/// Who an access token belongs to, once its signature, type, expiry and family are checked.
public struct VerifiedAccess: Sendable {
    public let principal: Principal
    public let schoolID: SchoolID
    public let email: String?
    public let family: String
    /// When the token stops being accepted: a live stream opened with it ends then.
    public let expiresAt: Date
}

/// Signs and checks the API's tokens. The signing keys live in the database (made at first
/// start, added by `hogwarts keys rotate`), so tokens survive a restart and a rotated key keeps
/// verifying until the last token it signed has expired.
public final class AccessTokens: Sendable {
    public static let accessLifetime: TimeInterval = 24 * 3600
    public static let refreshLifetime = TokenStore.refreshLifetime
    /// How often a server looks for keys and sign-outs made by another process.
    static let refreshInterval: TimeInterval = 1

    let kernel: Kernel
    let threadPool: NIOThreadPool
    private let keys = JWTKeyCollection()
    private let state = Mutex(State())
    private let liveFamilies = LiveFamilies()

    private struct State {
        var signingKey: String?
        var knownKeys: Set<String> = []
        /// Token headers already read, by their text: every token a key signs has the same header,
        /// so each request need not decode it again (only headers naming a known key; a few at most).
        var headerKids: [Substring: String] = [:]
        var revokedFamilies: Set<String> = []
        /// Access tokens whose signature this process has checked, by their whole text: a phone
        /// sends the same token all day, and checking it again (HMAC and a JSONDecoder pass) was
        /// 3% of a register read. Only the signature is remembered: type, expiry and sign-out are
        /// checked on every request. Keys are only ever added, so a remembered token stays one
        /// the keys would accept.
        var verifiedAccess: [String: TokenClaims] = [:]
        var checkedAt: Date = .distantPast
        var keysLoadedAt: Date = .distantPast
    }

    public init(kernel: Kernel, threadPool: NIOThreadPool) {
        self.kernel = kernel
        self.threadPool = threadPool
    }

    /// Loads the signing keys, making the first one on a new database.
    public func prepare() async throws {
        try await loadKeysIfNeeded(kid: nil)
    }

    /// Opens a new token family for a principal who has just proved who they are.
    public func issue(for principal: Principal, email: String?) async throws -> TokenPair {
        guard let schoolID = principal.schoolID else { throw APIError.unauthenticated }
        let kernel = kernel
        let family = UUID().uuidString.lowercased()
        let now = kernel.now()
        try await ActionLanes.writes.runIfActive {
            try kernel.tokenStore.openFamily(family, school: schoolID, user: principal.userID, role: principal.role, at: now,
                                             expiresAt: now.addingTimeInterval(Self.refreshLifetime))
        }
        return try await sign(principal, email: email, family: family, generation: 0, at: now)
    }

    /// Exchanges a refresh token for a new pair. Only the newest refresh token of a family works:
    /// presenting an older one means it was copied, so the whole family is revoked.
    public func refresh(_ token: String) async throws -> TokenPair {
        let claims = try await verified(token, type: "refresh")
        guard let generation = claims.gen else { throw APIError.invalidToken }
        let kernel = kernel
        let now = kernel.now()
        let outcome = try await ActionLanes.writes.runIfActive {
            try kernel.tokenStore.advance(claims.sid, school: claims.schoolID, from: generation, at: now)
        }
        switch outcome {
        case .advanced(let userID):
            // The account as it stands now: a suspended user gets nothing, a new role is in the new token.
            let provider = kernel.registry.identityProvider
            let user = try await threadPool.runIfActive { try provider?.currentUser(kernel: kernel, school: claims.schoolID, userID: userID) }
            guard let user else {
                try await ActionLanes.writes.runIfActive { try kernel.tokenStore.revoke(claims.sid, school: claims.schoolID, reason: "account-changed", at: now) }
                markRevoked(claims.schoolID, claims.sid)
                throw APIError.invalidToken
            }
            // The family holds the role its access tokens carry; one opened before families had a role gets it here.
            try await ActionLanes.writes.runIfActive { try kernel.tokenStore.setRole(user.principal.role, family: claims.sid, school: claims.schoolID) }
            liveFamilies.forget(Self.familyKey(claims.schoolID, claims.sid))
            return try await sign(user.principal, email: user.email, family: claims.sid, generation: generation + 1, at: now)
        case .reused:
            markRevoked(claims.schoolID, claims.sid)
            throw APIError(status: 401, code: "REFRESH_TOKEN_REUSED", messageKey: "kernel.api.refresh-reused")
        case .revoked:
            throw APIError.invalidToken
        }
    }

    /// Ends a family: its access and refresh tokens stop working at once.
    public func revoke(_ access: VerifiedAccess) async throws {
        let kernel = kernel
        let now = kernel.now()
        try await ActionLanes.writes.runIfActive { try kernel.tokenStore.revoke(access.family, school: access.schoolID, reason: "signed-out", at: now) }
        markRevoked(access.schoolID, access.family)
    }

    /// Checks an access token: signature by one of our keys, `type:"access"`, expiry, and that its
    /// family is alive and was opened for this person with this role. Any failure is the same 401.
    public func verifyAccess(_ token: String) async throws -> VerifiedAccess {
        let claims = try await verified(token, type: "access")
        guard let roleName = claims.role, let role = Role(rawValue: roleName) else { throw APIError.invalidToken }
        try await refreshStateIfStale()
        let familyKey = Self.familyKey(claims.schoolID, claims.sid)
        if state.withLock({ $0.revokedFamilies.contains(familyKey) }) { throw APIError.invalidToken }
        guard try await liveHolder(of: claims) == LiveFamilies.Holder(userID: claims.sub.value, role: roleName) else { throw APIError.invalidToken }
        let principal = Principal(userID: claims.sub.value, role: role, schoolID: claims.schoolID, displayName: claims.name ?? claims.sub.value)
        return VerifiedAccess(principal: principal, schoolID: claims.schoolID, email: claims.email, family: claims.sid, expiresAt: claims.exp.value)
    }

    /// The family's holder as the database has it, read at most once per `LiveFamilies.lifetime`.
    private func liveHolder(of claims: TokenClaims) async throws -> LiveFamilies.Holder? {
        let key = Self.familyKey(claims.schoolID, claims.sid)
        let now = kernel.now()
        if let remembered = liveFamilies.remembered(key, at: now) { return remembered }
        let kernel = kernel
        let found = try await threadPool.runIfActive { try kernel.tokenStore.liveFamily(claims.sid, school: claims.schoolID, at: now) }
        let holder = found.map { LiveFamilies.Holder(userID: $0.userID, role: $0.role) }
        liveFamilies.remember(key, holder, at: now)
        return holder
    }

    private func verified(_ token: String, type: String) async throws -> TokenClaims {
        let claims: TokenClaims
        if let remembered = state.withLock({ $0.verifiedAccess[token] }) {
            claims = remembered
        } else {
            let kid = kid(of: token)
            try await loadKeysIfNeeded(kid: kid)
            // jwt-kit verifies a token naming a key it does not hold with its default key: only ours may sign.
            guard let kid, state.withLock({ $0.knownKeys.contains(kid) }) else { throw APIError.invalidToken }
            do {
                claims = try await keys.verify(token, as: TokenClaims.self)
            } catch {
                throw APIError.invalidToken
            }
            if claims.type == "access" { remember(token, claims) }
        }
        guard claims.type == type, claims.exp.value > kernel.now() else { throw APIError.invalidToken }
        return claims
    }

    /// Bounded: past the limit the memory starts again (each token is then checked once more).
    private func remember(_ token: String, _ claims: TokenClaims) {
        state.withLock { state in
            if state.verifiedAccess.count >= Self.rememberedTokens { state.verifiedAccess.removeAll(keepingCapacity: true) }
            state.verifiedAccess[token] = claims
        }
    }

    static let rememberedTokens = 10_000

    /// Internal, not private: the tests forge tokens with the real key through it.
    package func sign(_ principal: Principal, email: String?, family: String, generation: Int, at now: Date) async throws -> TokenPair {
        try await loadKeysIfNeeded(kid: nil)
        guard let kid = state.withLock({ $0.signingKey }), let schoolID = principal.schoolID else { throw APIError.internalError }
        let accessExpiry = now.addingTimeInterval(Self.accessLifetime)
        let access = TokenClaims(sub: .init(value: principal.userID), email: email, schoolID: schoolID, role: principal.role.rawValue,
                                 name: principal.displayName, type: "access", sid: family, gen: nil, iat: .init(value: now), exp: .init(value: accessExpiry))
        let refresh = TokenClaims(sub: .init(value: principal.userID), email: nil, schoolID: schoolID, role: nil, name: nil, type: "refresh",
                                  sid: family, gen: generation, iat: .init(value: now), exp: .init(value: now.addingTimeInterval(Self.refreshLifetime)))
        let identifier = JWKIdentifier(string: kid)
        return TokenPair(accessToken: try await keys.sign(access, kid: identifier), refreshToken: try await keys.sign(refresh, kid: identifier),
                         accessExpiresAt: accessExpiry, principal: principal)
    }

    /// Loads the keys at first use, and again when a token names a key this process has not
    /// seen (another process rotated). A first start makes the first key.
    private func loadKeysIfNeeded(kid: String?) async throws {
        // An unknown key id reloads at most once a second: a stream of forged tokens must not
        // turn into a stream of database reads.
        let now = kernel.now()
        let needed = state.withLock { state in
            state.signingKey == nil
                || (kid.map { !state.knownKeys.contains($0) } == true && now.timeIntervalSince(state.keysLoadedAt) >= Self.refreshInterval)
        }
        guard needed else { return }
        let kernel = kernel
        let stored = try await threadPool.runIfActive { try kernel.tokenStore.signingKeys(at: kernel.now()) }
        for key in stored.all {
            await keys.add(hmac: HMACKey(from: key.secret), digestAlgorithm: .sha256, kid: JWKIdentifier(string: key.id))
        }
        state.withLock { state in
            state.signingKey = stored.current
            state.knownKeys = Set(stored.all.map(\.id))
            state.keysLoadedAt = now
        }
    }

    private func refreshStateIfStale() async throws {
        let now = kernel.now()
        guard state.withLock({ now.timeIntervalSince($0.checkedAt) >= Self.refreshInterval }) else { return }
        let kernel = kernel
        let (revoked, current) = try await threadPool.runIfActive {
            (try kernel.tokenStore.revokedFamilies(at: now), try kernel.tokenStore.signingKeys(at: now).current)
        }
        state.withLock { state in
            state.revokedFamilies = Set(revoked.map { Self.familyKey($0.school, $0.family) })
            state.checkedAt = now
            if current != state.signingKey { state.signingKey = nil }
        }
    }

    private func markRevoked(_ school: SchoolID, _ family: String) {
        _ = state.withLock { $0.revokedFamilies.insert(Self.familyKey(school, family)) }
        liveFamilies.forget(Self.familyKey(school, family))
    }

    private static func familyKey(_ school: SchoolID, _ family: String) -> String { school + "/" + family }

    /// The `kid` in a token's header, remembered for a header naming a known key.
    private func kid(of token: String) -> String? {
        let header = token.prefix { $0 != "." }
        if let kid = state.withLock({ $0.headerKids[header] }) { return kid }
        let kid = Self.kid(ofHeader: header)
        if let kid {
            state.withLock { state in
                if state.knownKeys.contains(kid), state.headerKids.count < 32 { state.headerKids[header] = kid }
            }
        }
        return kid
    }

    /// The `kid` in a token's header, read without trusting it, to know whether to reload keys.
    private static func kid(ofHeader header: Substring) -> String? {
        var base64 = header.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        return object["kid"] as? String
    }
}
