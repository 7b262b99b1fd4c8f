import Foundation

extension SyncWire {
    public struct SnapshotItem<Value: Codable & Sendable>: Codable, Sendable {
        public var type: String
        public var id: String
        public var data: Value

        enum CodingKeys: String, CodingKey { case type, id, data }

        public init(type: String, id: String, data: Value) {
            self.type = type
            self.id = id
            self.data = data
        }
    }

    /// One page of a snapshot: `after` is null on the last page.
    public struct SnapshotPage<Value: Codable & Sendable>: Codable, Sendable {
        public var items: [SnapshotItem<Value>]
        /// Where the next page starts; nil on the last page.
        public var after: String?
        /// The pull cursor as of the snapshot's first page.
        public var cursor: String

        enum CodingKeys: String, CodingKey { case items, after, cursor }

        public init(items: [SnapshotItem<Value>], after: String?, cursor: String) {
            self.items = items
            self.after = after
            self.cursor = cursor
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(items, forKey: .items)
            try container.encodeNullable(after, forKey: .after)
            try container.encode(cursor, forKey: .cursor)
        }
    }
}

extension SyncWire.SnapshotItem: Equatable where Value: Equatable {}
extension SyncWire.SnapshotPage: Equatable where Value: Equatable {}
