import CryptoExtras
import Foundation

/// Firebase Cloud Messaging's HTTP v1 API: a JWT signed with the service account's key is
/// exchanged for an access token (kept until shortly before it expires), which authorizes
/// `POST /v1/projects/<project>/messages:send`.
struct FCMSender {
    let configuration: FCMConfiguration
    let extraCA: String?

    static let scope = "https://www.googleapis.com/auth/firebase.messaging"

    static var snakeCase: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }

    func send(_ push: PushPayload, now: Date) throws -> SendOutcome {
        let account = try serviceAccount()
        let base = configuration.baseURL.hasSuffix("/") ? String(configuration.baseURL.dropLast()) : configuration.baseURL
        let access = try accessToken(account, now: now)
        let answer = try PushHTTP.post("\(base)/v1/projects/\(account.projectId)/messages:send",
                                       headers: [("authorization", "Bearer \(access)"), ("content-type", "application/json")],
                                       body: try body(push), extraCA: extraCA)
        let error = (try? JSONDecoder().decode(ErrorAnswer.self, from: answer.body))?.error
        let codes = [error?.status ?? ""] + (error?.details ?? []).compactMap(\.errorCode)
        switch answer.status {
        case 200..<300: return .delivered
        // The app was removed, or the token was never one: never again.
        case 404 where codes.contains("UNREGISTERED") || codes.contains("NOT_FOUND"):
            return .tokenGone("FCM 404 UNREGISTERED")
        case 400 where (error?.message ?? "").localizedCaseInsensitiveContains("registration token"):
            return .tokenGone("FCM 400 invalid registration token")
        case 401:
            PushTokenCache.shared.forget(cacheKey(account))
            fallthrough
        default:
            throw PushRetry(service: "FCM", status: answer.status, reason: codes.filter { !$0.isEmpty }.joined(separator: " "), retryAfter: answer.retryAfter)
        }
    }

    func body(_ push: PushPayload) throws -> Data {
        let message = FCMBody(message: .init(token: push.token, notification: .init(title: push.title, body: push.body),
                                             data: ["link": push.link, "type": push.type, "notification": push.notification]))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(message)
    }

    func serviceAccount() throws -> ServiceAccount {
        let data: Data
        do { data = try Data(contentsOf: URL(filePath: configuration.serviceAccountPath)) } catch {
            throw PushSetupError(detail: "cannot read the FCM service-account file \(configuration.serviceAccountPath): put the JSON key from Firebase there")
        }
        guard let account = try? Self.snakeCase.decode(ServiceAccount.self, from: data) else {
            throw PushSetupError(detail: "the FCM service-account file \(configuration.serviceAccountPath) lacks client_email, private_key, token_uri or project_id: download it again from Firebase")
        }
        return account
    }

    func cacheKey(_ account: ServiceAccount) -> String { "fcm|\(account.clientEmail)|\(account.tokenUri)" }

    /// Google's access token for the service account, from the cache while it lasts.
    func accessToken(_ account: ServiceAccount, now: Date) throws -> String {
        try PushTokenCache.shared.token(cacheKey(account), now: now) {
            guard let key = try? _RSA.Signing.PrivateKey(pemRepresentation: account.privateKey) else {
                throw PushSetupError(detail: "the private_key in \(configuration.serviceAccountPath) is not an RSA key: download the file again from Firebase")
            }
            let issued = Int(now.timeIntervalSince1970)
            var header = ["alg": "RS256", "typ": "JWT"]
            header["kid"] = account.privateKeyId
            let assertion = try PushJWT.rs256(header: header, claims: Claims(iss: account.clientEmail, scope: Self.scope, aud: account.tokenUri,
                                                                             iat: issued, exp: issued + 3600), key: key)
            let form = "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=\(assertion)"
            let answer = try PushHTTP.post(account.tokenUri, headers: [("content-type", "application/x-www-form-urlencoded")],
                                           body: Data(form.utf8), extraCA: extraCA)
            guard (200..<300).contains(answer.status), let token = try? Self.snakeCase.decode(TokenAnswer.self, from: answer.body) else {
                throw PushRetry(service: "Google's token service", status: answer.status, reason: String(decoding: answer.body.prefix(200), as: UTF8.self),
                                retryAfter: answer.retryAfter)
            }
            // A minute early, so a token never expires between the cache and Google.
            return (token.accessToken, now.addingTimeInterval(TimeInterval(token.expiresIn ?? 3600) - 60))
        }
    }

    /// Google's snake_case fields, read with `convertFromSnakeCase`.
    struct ServiceAccount: Decodable {
        let clientEmail: String
        let privateKey: String
        let privateKeyId: String?
        let tokenUri: String
        let projectId: String
    }

    struct Claims: Encodable {
        let iss: String
        let scope: String
        let aud: String
        let iat: Int
        let exp: Int
    }

    struct TokenAnswer: Decodable {
        let accessToken: String
        let expiresIn: Int?
    }

    struct ErrorAnswer: Decodable {
        struct Detail: Decodable {
            let errorCode: String?
        }

        struct Failure: Decodable {
            let status: String?
            let message: String?
            let details: [Detail]?
        }

        let error: Failure
    }
}

struct FCMBody: Encodable {
    struct Message: Encodable {
        let token: String
        let notification: PushWords
        let data: [String: String]
    }

    let message: Message
}
