import Foundation

extension SyncWire {
    /// One queued mutation of a push: `clientTime` and `baseVersion` are written as null when
    /// there is none.
    public struct Mutation<Value: Codable & Sendable>: Codable, Sendable {
        public var seq: Int
        public var id: String
        public var name: String
        public var args: Value
        public var clientTime: String?
        public var baseVersion: Int?

        enum CodingKeys: String, CodingKey { case seq, id, name, args, clientTime, baseVersion }

        public init(seq: Int, id: String, name: String, args: Value, clientTime: String? = nil, baseVersion: Int? = nil) {
            self.seq = seq
            self.id = id
            self.name = name
            self.args = args
            self.clientTime = clientTime
            self.baseVersion = baseVersion
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(seq, forKey: .seq)
            try container.encode(id, forKey: .id)
            try container.encode(name, forKey: .name)
            try container.encode(args, forKey: .args)
            try container.encodeNullable(clientTime, forKey: .clientTime)
            try container.encodeNullable(baseVersion, forKey: .baseVersion)
        }
    }

    /// `POST /api/v1/sync/push`'s body.
    public struct PushRequest<Value: Codable & Sendable>: Codable, Sendable {
        public var clientId: String
        public var schemaVersion: Int
        public var mutations: [Mutation<Value>]

        enum CodingKeys: String, CodingKey { case clientId, schemaVersion, mutations }

        public init(clientId: String, schemaVersion: Int = SyncWire.schemaVersion, mutations: [Mutation<Value>]) {
            self.clientId = clientId
            self.schemaVersion = schemaVersion
            self.mutations = mutations
        }
    }

    /// How one mutation of a push ended.
    public enum Status: String, Codable, Sendable, CaseIterable {
        case applied, duplicate, rejected
    }

    /// One mutation's answer; every key is written, null when it has no value.
    public struct MutationResult<Value: Codable & Sendable>: Codable, Sendable {
        public var seq: Int
        public var status: Status
        /// For a rejection (and the duplicate of one): the stable code, the message in the caller's language.
        public var code: String?
        public var error: String?
        /// The server's value when the rejection is a conflict.
        public var current: Value?
        /// The action's output, for an applied mutation (and the duplicate of one).
        public var result: Value?

        enum CodingKeys: String, CodingKey { case seq, status, code, error, current, result }

        public init(seq: Int, status: Status, code: String? = nil, error: String? = nil, current: Value? = nil, result: Value? = nil) {
            self.seq = seq
            self.status = status
            self.code = code
            self.error = error
            self.current = current
            self.result = result
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(seq, forKey: .seq)
            try container.encode(status, forKey: .status)
            try container.encodeNullable(code, forKey: .code)
            try container.encodeNullable(error, forKey: .error)
            try container.encodeNullable(current, forKey: .current)
            try container.encodeNullable(result, forKey: .result)
        }
    }

    /// Why a push stopped before its last mutation: a gap in the client's sequence. The server
    /// always names `expectedSeq`; a client reads an answer without it too.
    public struct Stop: Codable, Sendable, Equatable {
        public var reason: String
        public var expectedSeq: Int?

        enum CodingKeys: String, CodingKey { case reason, expectedSeq }

        public init(reason: String, expectedSeq: Int?) {
            self.reason = reason
            self.expectedSeq = expectedSeq
        }
    }

    /// A push's answer: `stopped` is null when every mutation was taken.
    public struct PushResponse<Value: Codable & Sendable>: Codable, Sendable {
        public var lastMutationSeq: Int
        public var results: [MutationResult<Value>]
        public var stopped: Stop?

        enum CodingKeys: String, CodingKey { case lastMutationSeq, results, stopped }

        public init(lastMutationSeq: Int, results: [MutationResult<Value>], stopped: Stop? = nil) {
            self.lastMutationSeq = lastMutationSeq
            self.results = results
            self.stopped = stopped
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(lastMutationSeq, forKey: .lastMutationSeq)
            try container.encode(results, forKey: .results)
            try container.encodeNullable(stopped, forKey: .stopped)
        }
    }
}

extension SyncWire.Mutation: Equatable where Value: Equatable {}
extension SyncWire.PushRequest: Equatable where Value: Equatable {}
extension SyncWire.MutationResult: Equatable where Value: Equatable {}
extension SyncWire.PushResponse: Equatable where Value: Equatable {}
