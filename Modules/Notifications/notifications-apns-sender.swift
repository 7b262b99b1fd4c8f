import Crypto
import Foundation

/// Apple's push service: one HTTP/2 POST per device to `/3/device/<token>`, signed with the
/// school's `.p8` key (token authentication, no certificate per app).
struct APNsSender {
    let configuration: APNsConfiguration
    let extraCA: String?

    /// Apple refuses a provider token older than an hour and one renewed more often than every 20 minutes.
    static let tokenLifetime: TimeInterval = 40 * 60

    func send(_ push: PushPayload, now: Date) throws -> SendOutcome {
        let base = configuration.baseURL.hasSuffix("/") ? String(configuration.baseURL.dropLast()) : configuration.baseURL
        let jwt = try providerToken(now: now)
        let headers = [
            ("authorization", "bearer \(jwt)"), ("apns-topic", configuration.topic), ("apns-push-type", "alert"),
            ("apns-priority", push.priority == .low ? "5" : "10"), ("apns-collapse-id", push.collapseID), ("content-type", "application/json"),
        ]
        let answer = try PushHTTP.post("\(base)/3/device/\(push.token)", headers: headers, body: try body(push), extraCA: extraCA)
        let reason = (try? JSONDecoder().decode(Reason.self, from: answer.body))?.reason ?? ""
        switch answer.status {
        case 200..<300: return .delivered
        // The app was removed or the token belongs to another environment or app: never again.
        case 410: return .tokenGone("APNs 410 \(reason)")
        case 400 where reason == "BadDeviceToken" || reason == "DeviceTokenNotForTopic": return .tokenGone("APNs 400 \(reason)")
        case 403 where reason == "ExpiredProviderToken" || reason == "InvalidProviderToken":
            PushTokenCache.shared.forget(cacheKey)
            fallthrough
        default:
            throw PushRetry(service: "APNs", status: answer.status, reason: reason, retryAfter: answer.retryAfter)
        }
    }

    /// The `aps` dictionary Apple reads, and what the app needs to open the right screen.
    func body(_ push: PushPayload) throws -> Data {
        let message = APNsBody(aps: .init(alert: PushWords(title: push.title, body: push.body), badge: push.badge, sound: "default"),
                               link: push.link, type: push.type, notification: push.notification)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(message)
    }

    var cacheKey: String { "apns|\(configuration.keyPath)|\(configuration.keyID)|\(configuration.teamID)" }

    func providerToken(now: Date) throws -> String {
        try PushTokenCache.shared.token(cacheKey, now: now) {
            let pem: String
            do { pem = try String(contentsOfFile: configuration.keyPath, encoding: .utf8) } catch {
                throw PushSetupError(detail: "cannot read the APNs key file \(configuration.keyPath): put the .p8 file from Apple there, readable by the server")
            }
            guard let key = try? P256.Signing.PrivateKey(pemRepresentation: pem) else {
                throw PushSetupError(detail: "the APNs key file \(configuration.keyPath) is not an ES256 .p8 key: download the key again from Apple")
            }
            let token = try PushJWT.es256(header: ["alg": "ES256", "kid": configuration.keyID],
                                          claims: Claims(iss: configuration.teamID, iat: Int(now.timeIntervalSince1970)), key: key)
            return (token, now.addingTimeInterval(Self.tokenLifetime))
        }
    }

    struct Claims: Encodable {
        let iss: String
        let iat: Int
    }

    struct Reason: Decodable {
        let reason: String
    }
}

/// The title and text a phone shows, as both services name them.
struct PushWords: Encodable {
    let title: String
    let body: String
}

struct APNsBody: Encodable {
    struct APS: Encodable {
        let alert: PushWords
        let badge: Int?
        let sound: String
    }

    let aps: APS
    let link: String
    let type: String
    let notification: String
}

/// A push configuration that cannot work until someone fixes it (a missing key file, say).
struct PushSetupError: Error, CustomStringConvertible {
    let detail: String
    var description: String { detail }
}
