import Foundation
import JWTKit

/// Why an ID token was refused: for the audit record and the tests, never shown to the person.
public enum OpenIDRefusal: String, Error, Sendable {
    case malformed, algorithm, unknownKey, signature, issuer, audience, expired, issuedInFuture, nonce, unverifiedEmail, domain, discovery
}

/// The claims of an ID token we read. The checks are ours (`IDTokenVerifier.check`), made with
/// one clock and one leeway, after jwt-kit has checked the signature.
struct IDTokenClaims: JWTPayload {
    let iss: IssuerClaim
    let aud: AudienceClaim
    let exp: ExpirationClaim
    let iat: IssuedAtClaim
    let sub: SubjectClaim
    let email: String?
    /// Google sends a boolean, Apple the string "true": `BoolClaim` reads both.
    let emailVerified: BoolClaim?
    let nonce: String?
    /// Google Workspace's hosted domain.
    let hd: String?
    let azp: String?
    let name: String?

    enum CodingKeys: String, CodingKey {
        case iss, aud, exp, iat, sub, email, nonce, hd, azp, name
        case emailVerified = "email_verified"
    }

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// What a verified ID token vouches for.
public struct VerifiedIdentity: Sendable, Equatable {
    public let issuer: String
    public let clientID: String
    public let email: String
    public let subject: String
    public let nonce: String?
    /// The person's name as the provider gives it, if it does.
    public let name: String?
}

/// Checks an ID token against one configured provider (OpenID Connect Core §3.1.3.7).
enum IDTokenVerifier {
    /// Asymmetric algorithms only: `none` and the HMAC family (signed with the client secret,
    /// which a public mobile client would hold) are refused before any key is looked at.
    static let algorithms: Set<String> = ["RS256", "RS384", "RS512", "ES256", "ES384", "PS256", "PS384", "PS512"]
    static let leeway: TimeInterval = 60

    static func verify(_ token: String, provider: OpenIDProvider, expectedNonce: String?, cache: OpenIDKeyCache = .shared,
                       now: Date = Date()) async throws -> VerifiedIdentity {
        let header = try Self.header(of: token)
        guard let alg = header["alg"] as? String, algorithms.contains(alg) else { throw OpenIDRefusal.algorithm }
        let kid = header["kid"] as? String
        let entry = try await cache.entry(issuer: provider.issuer, kid: kid, now: now)
        // jwt-kit falls back to its default key for an unknown `kid`: a key the JWKS does not list is refused here first.
        if let kid { guard entry.kids.contains(kid) else { throw OpenIDRefusal.unknownKey } } else if entry.kids.count != 1 { throw OpenIDRefusal.unknownKey }
        let claims: IDTokenClaims
        do { claims = try await entry.keys.verify(token, as: IDTokenClaims.self) } catch { throw OpenIDRefusal.signature }
        return try check(claims, provider: provider, expectedNonce: expectedNonce, now: now)
    }

    static func check(_ claims: IDTokenClaims, provider: OpenIDProvider, expectedNonce: String?, now: Date) throws -> VerifiedIdentity {
        guard claims.iss.value == provider.issuer else { throw OpenIDRefusal.issuer }
        guard claims.aud.value.contains(provider.clientID) else { throw OpenIDRefusal.audience }
        // Several audiences: the party it was issued to must be us (Core §3.1.3.7, item 5).
        if claims.aud.value.count > 1, claims.azp != provider.clientID { throw OpenIDRefusal.audience }
        guard claims.exp.value.addingTimeInterval(leeway) > now else { throw OpenIDRefusal.expired }
        guard claims.iat.value <= now.addingTimeInterval(leeway) else { throw OpenIDRefusal.issuedInFuture }
        if let expectedNonce, claims.nonce != expectedNonce { throw OpenIDRefusal.nonce }
        guard claims.emailVerified?.value == true, let email = claims.email, !email.isEmpty else { throw OpenIDRefusal.unverifiedEmail }
        if !provider.domain.isEmpty {
            guard EmailDomain.allows(email, domain: provider.domain) else { throw OpenIDRefusal.domain }
            // Google names the Workspace domain in `hd`; when present it must be the allowed one too.
            if let hd = claims.hd, hd.lowercased() != provider.domain.lowercased() { throw OpenIDRefusal.domain }
        }
        return VerifiedIdentity(issuer: provider.issuer, clientID: provider.clientID, email: email, subject: claims.sub.value, nonce: claims.nonce,
                                name: claims.name)
    }

    /// The token's decoded header; a token that is not three base64url parts is malformed.
    static func header(of token: String) throws -> [String: Any] {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let data = Base64URL.decode(String(parts[0])),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { throw OpenIDRefusal.malformed }
        return object
    }

    /// The unverified issuer and audiences, only to pick which configured provider to verify against.
    static func unverifiedIssuerAndAudiences(of token: String) -> (issuer: String, audiences: [String])? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let data = Base64URL.decode(String(parts[1])),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let issuer = object["iss"] as? String else { return nil }
        let audiences = (object["aud"] as? [String]) ?? [(object["aud"] as? String)].compactMap { $0 }
        return (issuer, audiences)
    }
}

enum Base64URL {
    static func decode(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }

    static func encode(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
