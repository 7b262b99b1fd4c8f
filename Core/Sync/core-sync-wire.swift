import Foundation

/// `POST /api/v1/sync/push`'s body (camelCase on the wire, see the README's "Offline sync").
public struct SyncPushRequest: Codable, Sendable {
    public let clientId: String
    public let schemaVersion: Int
    public let mutations: [SyncPushMutation]

    public init(clientId: String, schemaVersion: Int = SyncProtocol.schemaVersion, mutations: [SyncPushMutation]) {
        self.clientId = clientId
        self.schemaVersion = schemaVersion
        self.mutations = mutations
    }
}

public struct SyncPushMutation: Codable, Sendable {
    public let seq: Int
    public let id: String
    public let name: String
    public let args: APIValue
    public let clientTime: String?
    public let baseVersion: Int?

    public init(seq: Int, id: String, name: String, args: APIValue, clientTime: String? = nil, baseVersion: Int? = nil) {
        self.seq = seq
        self.id = id
        self.name = name
        self.args = args
        self.clientTime = clientTime
        self.baseVersion = baseVersion
    }

    enum CodingKeys: String, CodingKey { case seq, id, name, args, clientTime, baseVersion }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(seq, forKey: .seq)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(args, forKey: .args)
        try container.encode(Nullable(clientTime), forKey: .clientTime)
        try container.encode(Nullable(baseVersion), forKey: .baseVersion)
    }
}

/// How one mutation of a push ended.
public enum SyncMutationStatus: String, Codable, Sendable, CaseIterable {
    case applied, duplicate, rejected
}

public struct SyncPushResult: Encodable, Sendable, Equatable {
    public let seq: Int
    public let status: SyncMutationStatus
    /// For a rejection (and the duplicate of one): the stable code, the message in the caller's language.
    public let code: String?
    public let error: String?
    /// The server's value when the rejection is a conflict.
    public let current: APIValue?
    /// The action's output, for an applied mutation (and the duplicate of one).
    public let result: APIValue?

    enum CodingKeys: String, CodingKey { case seq, status, code, error, current, result }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(seq, forKey: .seq)
        try container.encode(status, forKey: .status)
        try container.encode(Nullable(code), forKey: .code)
        try container.encode(Nullable(error), forKey: .error)
        try container.encode(Nullable(current), forKey: .current)
        try container.encode(Nullable(result), forKey: .result)
    }
}

/// Why a push stopped before its last mutation: a gap in the client's sequence.
public struct SyncStop: Encodable, Sendable, Equatable {
    public let reason: String
    public let expectedSeq: Int
}

public struct SyncPushResponse: Encodable, Sendable {
    public let lastMutationSeq: Int
    public let results: [SyncPushResult]
    public let stopped: SyncStop?

    enum CodingKeys: String, CodingKey { case lastMutationSeq, results, stopped }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(lastMutationSeq, forKey: .lastMutationSeq)
        try container.encode(results, forKey: .results)
        try container.encode(Nullable(stopped), forKey: .stopped)
    }
}

/// One change in a pull: an upsert carries the entity's data, a delete null.
public struct SyncChange: Encodable, Sendable, Equatable {
    public let seq: Int
    public let type: String
    public let id: String
    public let op: String
    public let data: APIValue?

    enum CodingKeys: String, CodingKey { case seq, type, id, op, data }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(seq, forKey: .seq)
        try container.encode(type, forKey: .type)
        try container.encode(id, forKey: .id)
        try container.encode(op, forKey: .op)
        try container.encode(Nullable(data), forKey: .data)
    }
}

/// Why a client must start again from a snapshot (its outbox is kept).
public enum SyncResetReason: String, Encodable, Sendable {
    case cursorExpired, scopeChanged, schemaChanged
}

/// A pull: a page of changes, or a reset.
public enum SyncPullResponse: Encodable, Sendable {
    case changes([SyncChange], cursor: String, hasMore: Bool, lastMutationSeq: Int)
    case reset(SyncResetReason)

    enum CodingKeys: String, CodingKey { case changes, cursor, hasMore, lastMutationSeq, reset }
    enum ResetKeys: String, CodingKey { case reason }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .changes(let changes, let cursor, let hasMore, let lastMutationSeq):
            try container.encode(changes, forKey: .changes)
            try container.encode(cursor, forKey: .cursor)
            try container.encode(hasMore, forKey: .hasMore)
            try container.encode(lastMutationSeq, forKey: .lastMutationSeq)
        case .reset(let reason):
            var reset = container.nestedContainer(keyedBy: ResetKeys.self, forKey: .reset)
            try reset.encode(reason, forKey: .reason)
        }
    }
}

public struct SyncSnapshotItem: Encodable, Sendable, Equatable {
    public let type: String
    public let id: String
    public let data: APIValue
}

public struct SyncSnapshotResponse: Encodable, Sendable {
    public let items: [SyncSnapshotItem]
    /// Where the next page starts; nil on the last page.
    public let after: String?
    /// The pull cursor as of the snapshot's first page.
    public let cursor: String

    enum CodingKeys: String, CodingKey { case items, after, cursor }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(items, forKey: .items)
        try container.encode(Nullable(after), forKey: .after)
        try container.encode(cursor, forKey: .cursor)
    }
}

public enum SyncProtocol {
    public static let schemaVersion = 1
    public static let maximumMutations = 100
    public static let defaultLimit = 500
    public static let maximumLimit = 1000
}
