import Core
import Crypto
import CryptoExtras
import Foundation

/// Compact JSON Web Tokens as the push services want them: ES256 for APNs, RS256 for Google's
/// token exchange. Signed here with swift-crypto, synchronously, as senders run.
enum PushJWT {
    static func es256(header: some Encodable, claims: some Encodable, key: P256.Signing.PrivateKey) throws -> String {
        let input = try signingInput(header, claims)
        return input + "." + Base64URL.encode(try key.signature(for: Data(input.utf8)).rawRepresentation)
    }

    static func rs256(header: some Encodable, claims: some Encodable, key: _RSA.Signing.PrivateKey) throws -> String {
        let input = try signingInput(header, claims)
        return input + "." + Base64URL.encode(try key.signature(for: SHA256.hash(data: Data(input.utf8)), padding: .insecurePKCS1v1_5).rawRepresentation)
    }

    static func signingInput(_ header: some Encodable, _ claims: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Base64URL.encode(try encoder.encode(header)) + "." + Base64URL.encode(try encoder.encode(claims))
    }
}

/// Tokens worth keeping between deliveries, process-wide: APNs' provider token (Apple refuses one
/// renewed more than every 20 minutes and one older than an hour) and FCM's access token.
final class PushTokenCache: @unchecked Sendable {
    static let shared = PushTokenCache()

    // Guarded by `lock`: the outbox runners of several schools may send at once.
    private let lock = NSLock()
    private var tokens: [String: (value: String, until: Date)] = [:]

    /// The cached token for `key` while `now` is before its end, else a new one from `make`.
    func token(_ key: String, now: Date, make: () throws -> (value: String, until: Date)) throws -> String {
        if let cached = lock.withLock({ tokens[key] }), now < cached.until { return cached.value }
        let fresh = try make()
        lock.withLock { tokens[key] = fresh }
        return fresh.value
    }

    /// Forgets a token the service refused, so the next delivery makes a new one.
    func forget(_ key: String) {
        _ = lock.withLock { tokens.removeValue(forKey: key) }
    }
}
