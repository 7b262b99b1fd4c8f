import Foundation
import HogwartsSyncWire

/// What this client sends and reads: the sync wire shapes (HogwartsSyncWire, defined once for
/// the server and this client) with `JSONValue` as their payloads, and the sign-in answers.
/// Keys are explicit so the JSON never depends on Swift names.
public enum Wire {
    public typealias Mutation = SyncWire.Mutation<JSONValue>
    public typealias PushRequest = SyncWire.PushRequest<JSONValue>
    public typealias ResultStatus = SyncWire.Status
    public typealias MutationResult = SyncWire.MutationResult<JSONValue>
    public typealias Stopped = SyncWire.Stop
    public typealias PushResponse = SyncWire.PushResponse<JSONValue>
    public typealias Operation = SyncWire.Operation
    public typealias Change = SyncWire.Change<JSONValue>
    public typealias ResetReason = SyncWire.ResetReason
    public typealias PullResponse = SyncWire.PullResponse<JSONValue>
    public typealias SnapshotItem = SyncWire.SnapshotItem<JSONValue>
    public typealias SnapshotPage = SyncWire.SnapshotPage<JSONValue>

    /// The API's one error shape.
    public struct ErrorBody: Codable, Sendable {
        public var error: String?
        public var code: String?
        enum CodingKeys: String, CodingKey { case error, code }
    }

    /// The mobile contract's AuthResponse (snake_case there: `access_token`, ...).
    public struct AuthResponse: Codable, Sendable {
        public var accessToken: String
        public var refreshToken: String
        public var expiresAt: Int64?
        public var user: AuthUser
        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token", refreshToken = "refresh_token", expiresAt = "expires_at", user
        }
    }

    public struct AuthUser: Codable, Sendable, Equatable {
        public var id: String
        public var email: String
        public var schoolId: String
        public var role: String
        public var givenName: String?
        public var familyName: String?
        enum CodingKeys: String, CodingKey {
            case id, email, schoolId = "school_id", role, givenName = "given_name", familyName = "family_name"
        }
        public init(id: String, email: String, schoolId: String, role: String, givenName: String? = nil, familyName: String? = nil) {
            self.id = id
            self.email = email
            self.schoolId = schoolId
            self.role = role
            self.givenName = givenName
            self.familyName = familyName
        }
    }

    /// Sync answers: camelCase per the protocol; snake_case keys are read too, so a server that
    /// answers in the mobile contract's style still works.
    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }

    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
