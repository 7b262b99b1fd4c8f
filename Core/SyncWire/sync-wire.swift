import Foundation

/// The offline sync wire protocol v1 (docs/sync-protocol.md), defined once for the server
/// (Core) and the client library (HogwartsClient): keys, their order, explicit nulls and the
/// reset's nesting live here, so the two sides cannot drift apart.
///
/// The shapes are generic over the JSON value of their payloads (`args`, `data`, `current`,
/// `result`) because the two sides keep different values on purpose: the server's `APIValue`
/// keeps whole numbers as `Int` (a stored payload is written back byte for byte), the client's
/// `JSONValue` has one number case. Each side names its value once, e.g.
/// `SyncPushMutation = SyncWire.Mutation<APIValue>` and `Wire.Mutation = SyncWire.Mutation<JSONValue>`.
/// Foundation only: an app links this without the server's dependencies.
public enum SyncWire {
    public static let schemaVersion = 1
    /// The server takes at most this many mutations in one push.
    public static let maximumMutations = 100
    /// Changes or snapshot items in one page, unless the client asks for another limit.
    public static let defaultLimit = 500
    public static let maximumLimit = 1000
}

extension KeyedEncodingContainer {
    /// Writes `null` rather than leaving the key out: the protocol names the key, and a client
    /// that decodes it strictly (Android's kotlinx) fails on a missing one.
    mutating func encodeNullable<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
}
