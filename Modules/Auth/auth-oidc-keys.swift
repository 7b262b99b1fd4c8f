import AsyncHTTPClient
import Foundation
import JWTKit
import NIOCore

/// A provider's discovery document and signing keys, fetched with AsyncHTTPClient and kept.
///
/// Keys are kept an hour. A token whose `kid` the kept set lacks makes one refetch (the provider
/// may have rotated), but not more than once a minute per issuer: a stream of made-up `kid`s
/// cannot turn us into a client hammering the provider.
actor OpenIDKeyCache {
    static let shared = OpenIDKeyCache()

    struct Discovery: Decodable, Sendable {
        let issuer: String
        let authorizationEndpoint: String?
        let tokenEndpoint: String?
        let jwksURI: String

        enum CodingKeys: String, CodingKey {
            case issuer
            case authorizationEndpoint = "authorization_endpoint"
            case tokenEndpoint = "token_endpoint"
            case jwksURI = "jwks_uri"
        }
    }

    struct Entry: Sendable {
        let discovery: Discovery
        let keys: JWTKeyCollection
        let kids: Set<String>
        let fetchedAt: Date
    }

    static let lifetime: TimeInterval = 3600
    static let refetchInterval: TimeInterval = 60
    static let maximumBody = 1 << 20

    private var entries: [String: Entry] = [:]

    /// The issuer's discovery and keys; refetched when stale, or once a minute at most when `kid` is unknown.
    func entry(issuer: String, kid: String? = nil, now: Date = Date()) async throws -> Entry {
        if let kept = entries[issuer] {
            let fresh = now.timeIntervalSince(kept.fetchedAt) < Self.lifetime
            let knowsKid = kid.map(kept.kids.contains) ?? true
            if fresh && (knowsKid || now.timeIntervalSince(kept.fetchedAt) < Self.refetchInterval) { return kept }
        }
        let entry = try await fetch(issuer: issuer, now: now)
        entries[issuer] = entry
        return entry
    }

    private func fetch(issuer: String, now: Date) async throws -> Entry {
        let base = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
        let discovery = try JSONDecoder().decode(Discovery.self, from: try await Self.get(base + "/.well-known/openid-configuration"))
        // OpenID Connect Discovery §4.3: the document must name exactly the issuer it was fetched for.
        guard discovery.issuer == issuer, IssuerAddress.isAcceptable(discovery.jwksURI) else { throw OpenIDRefusal.discovery }
        let jwks = try JSONDecoder().decode(JWKS.self, from: try await Self.get(discovery.jwksURI))
        let keys = JWTKeyCollection()
        var kids: Set<String> = []
        for jwk in jwks.keys {
            // A key of a type jwt-kit cannot use (an encryption key, say) is left out, not fatal.
            guard let kid = jwk.keyIdentifier, (try? await keys.add(jwk: jwk)) != nil else { continue }
            kids.insert(kid.string)
        }
        return Entry(discovery: discovery, keys: keys, kids: kids, fetchedAt: now)
    }

    static func get(_ address: String) async throws -> Data {
        var request = HTTPClientRequest(url: address)
        request.headers.add(name: "Accept", value: "application/json")
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        guard response.status == .ok else { throw OpenIDRefusal.discovery }
        let body = try await response.body.collect(upTo: maximumBody)
        return Data(body.readableBytesView)
    }
}
