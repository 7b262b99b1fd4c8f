import Foundation

extension SyncWire {
    public enum Operation: String, Codable, Sendable {
        case upsert, delete
    }

    /// One change in a pull: an upsert carries the entity's data, a delete null.
    public struct Change<Value: Codable & Sendable>: Codable, Sendable {
        public var seq: Int
        public var type: String
        public var id: String
        public var op: Operation
        public var data: Value?

        enum CodingKeys: String, CodingKey { case seq, type, id, op, data }

        public init(seq: Int, type: String, id: String, op: Operation, data: Value?) {
            self.seq = seq
            self.type = type
            self.id = id
            self.op = op
            self.data = data
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(seq, forKey: .seq)
            try container.encode(type, forKey: .type)
            try container.encode(id, forKey: .id)
            try container.encode(op, forKey: .op)
            try container.encodeNullable(data, forKey: .data)
        }
    }

    /// Why a client must start again from a snapshot (its outbox is kept). Open rather than an
    /// enum: the server names these three, and a client answers any reason, even a later
    /// server's, the same way.
    public struct ResetReason: RawRepresentable, Codable, Sendable, Hashable {
        public static let cursorExpired = ResetReason(rawValue: "cursorExpired")
        public static let scopeChanged = ResetReason(rawValue: "scopeChanged")
        public static let schemaChanged = ResetReason(rawValue: "schemaChanged")

        public let rawValue: String

        public init(rawValue: String) { self.rawValue = rawValue }

        public init(from decoder: any Decoder) throws {
            rawValue = try decoder.singleValueContainer().decode(String.self)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }
    }

    /// A pull: a page of changes, or `{"reset":{"reason":...}}`.
    public enum PullResponse<Value: Codable & Sendable>: Codable, Sendable {
        case changes([Change<Value>], cursor: String, hasMore: Bool, lastMutationSeq: Int)
        case reset(ResetReason)

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

        /// Read as leniently as the client always has: only the cursor is required. No `changes`
        /// is none, no `hasMore` the last page, no `lastMutationSeq` 0 (acknowledges nothing: a
        /// client's seqs start at 1).
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if container.contains(.reset), try !container.decodeNil(forKey: .reset) {
                let reset = try container.nestedContainer(keyedBy: ResetKeys.self, forKey: .reset)
                self = .reset(try reset.decode(ResetReason.self, forKey: .reason))
                return
            }
            self = .changes(try container.decodeIfPresent([Change<Value>].self, forKey: .changes) ?? [],
                            cursor: try container.decode(String.self, forKey: .cursor),
                            hasMore: try container.decodeIfPresent(Bool.self, forKey: .hasMore) ?? false,
                            lastMutationSeq: try container.decodeIfPresent(Int.self, forKey: .lastMutationSeq) ?? 0)
        }
    }
}

extension SyncWire.Change: Equatable where Value: Equatable {}
extension SyncWire.PullResponse: Equatable where Value: Equatable {}
