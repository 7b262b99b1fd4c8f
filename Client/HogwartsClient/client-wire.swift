import Foundation

/// The sync wire protocol v1 (README, "Offline sync"): the requests this client sends and the
/// answers it reads. Keys are explicit so the JSON never depends on Swift names.
public enum Wire {
    public static let schemaVersion = 1
    /// The server takes at most this many mutations in one push.
    public static let maximumBatch = 100

    public struct Mutation: Codable, Sendable, Equatable {
        public var seq: Int64
        public var id: String
        public var name: String
        public var args: JSONValue
        public var clientTime: String
        public var baseVersion: Int64?

        enum CodingKeys: String, CodingKey { case seq, id, name, args, clientTime, baseVersion }

        public init(seq: Int64, id: String, name: String, args: JSONValue, clientTime: String, baseVersion: Int64? = nil) {
            self.seq = seq
            self.id = id
            self.name = name
            self.args = args
            self.clientTime = clientTime
            self.baseVersion = baseVersion
        }

        /// `baseVersion` is written as null rather than left out: the protocol names the key.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(seq, forKey: .seq)
            try container.encode(id, forKey: .id)
            try container.encode(name, forKey: .name)
            try container.encode(args, forKey: .args)
            try container.encode(clientTime, forKey: .clientTime)
            try container.encode(baseVersion, forKey: .baseVersion)
        }
    }

    public struct PushRequest: Codable, Sendable {
        public var clientId: String
        public var schemaVersion: Int
        public var mutations: [Mutation]
        enum CodingKeys: String, CodingKey { case clientId, schemaVersion, mutations }
        public init(clientId: String, schemaVersion: Int = Wire.schemaVersion, mutations: [Mutation]) {
            self.clientId = clientId
            self.schemaVersion = schemaVersion
            self.mutations = mutations
        }
    }

    public enum ResultStatus: String, Codable, Sendable {
        case applied, duplicate, rejected
    }

    public struct MutationResult: Codable, Sendable, Equatable {
        public var seq: Int64
        public var status: ResultStatus
        public var code: String?
        public var error: String?
        public var current: JSONValue?
        public var result: JSONValue?
        enum CodingKeys: String, CodingKey { case seq, status, code, error, current, result }
        public init(seq: Int64, status: ResultStatus, code: String? = nil, error: String? = nil, current: JSONValue? = nil, result: JSONValue? = nil) {
            self.seq = seq
            self.status = status
            self.code = code
            self.error = error
            self.current = current
            self.result = result
        }
    }

    public struct Stopped: Codable, Sendable, Equatable {
        public var reason: String
        public var expectedSeq: Int64?
        enum CodingKeys: String, CodingKey { case reason, expectedSeq }
        public init(reason: String, expectedSeq: Int64?) {
            self.reason = reason
            self.expectedSeq = expectedSeq
        }
    }

    public struct PushResponse: Codable, Sendable {
        public var lastMutationSeq: Int64
        public var results: [MutationResult]
        public var stopped: Stopped?
        enum CodingKeys: String, CodingKey { case lastMutationSeq, results, stopped }
        public init(lastMutationSeq: Int64, results: [MutationResult], stopped: Stopped? = nil) {
            self.lastMutationSeq = lastMutationSeq
            self.results = results
            self.stopped = stopped
        }
    }

    public enum Operation: String, Codable, Sendable {
        case upsert, delete
    }

    public struct Change: Codable, Sendable, Equatable {
        public var seq: Int64
        public var type: String
        public var id: String
        public var op: Operation
        public var data: JSONValue?
        enum CodingKeys: String, CodingKey { case seq, type, id, op, data }
        public init(seq: Int64, type: String, id: String, op: Operation, data: JSONValue?) {
            self.seq = seq
            self.type = type
            self.id = id
            self.op = op
            self.data = data
        }
    }

    public struct Reset: Codable, Sendable, Equatable {
        public var reason: String
        public init(reason: String) { self.reason = reason }
    }

    /// A page of changes, or a reset the client must answer with a snapshot.
    public struct PullResponse: Codable, Sendable {
        public var changes: [Change]?
        public var cursor: String?
        public var hasMore: Bool?
        public var lastMutationSeq: Int64?
        public var reset: Reset?
        enum CodingKeys: String, CodingKey { case changes, cursor, hasMore, lastMutationSeq, reset }
        public init(changes: [Change]? = nil, cursor: String? = nil, hasMore: Bool? = nil, lastMutationSeq: Int64? = nil, reset: Reset? = nil) {
            self.changes = changes
            self.cursor = cursor
            self.hasMore = hasMore
            self.lastMutationSeq = lastMutationSeq
            self.reset = reset
        }
    }

    public struct SnapshotItem: Codable, Sendable, Equatable {
        public var type: String
        public var id: String
        public var data: JSONValue
        enum CodingKeys: String, CodingKey { case type, id, data }
        public init(type: String, id: String, data: JSONValue) {
            self.type = type
            self.id = id
            self.data = data
        }
    }

    public struct SnapshotPage: Codable, Sendable {
        public var items: [SnapshotItem]
        public var after: String?
        public var cursor: String
        enum CodingKeys: String, CodingKey { case items, after, cursor }
        public init(items: [SnapshotItem], after: String?, cursor: String) {
            self.items = items
            self.after = after
            self.cursor = cursor
        }
    }

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
