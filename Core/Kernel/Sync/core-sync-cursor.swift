import Foundation
import HogwartsBase

/// The pull cursor: opaque to clients, base64 of `{v, school, seq, scopeHash}`. The school makes
/// a cursor useless in another school; the scope hash tells a caller whose scope changed (a
/// teacher who lost a class) to start again from a snapshot.
package struct SyncCursor: Codable, Equatable {
    package static let version = 1
    package let v: Int
    package let school: String
    package let seq: Int
    package let scopeHash: String

    package init(school: String, seq: Int, scopeHash: String) {
        v = Self.version
        self.school = school
        self.seq = seq
        self.scopeHash = scopeHash
    }

    package var text: String {
        (try? JSONEncoder().encode(self)).map { $0.base64EncodedString() } ?? ""
    }

    /// Nil for text that is not a cursor of ours.
    package static func parse(_ text: String) -> SyncCursor? {
        guard let data = Data(base64Encoded: text) else { return nil }
        return try? JSONDecoder().decode(SyncCursor.self, from: data)
    }
}

/// Where the next snapshot page starts: an entity type (by its place in the fixed order), the
/// last id sent of it, and the pull cursor fixed at the first page.
package struct SyncSnapshotPosition: Codable, Equatable {
    let v: Int
    package let school: String
    package let type: Int
    package let after: String
    package let cursor: String

    package init(v: Int, school: String, type: Int, after: String, cursor: String) {
        self.v = v
        self.school = school
        self.type = type
        self.after = after
        self.cursor = cursor
    }

    package var text: String {
        (try? JSONEncoder().encode(self)).map { $0.base64EncodedString() } ?? ""
    }

    package static func parse(_ text: String) -> SyncSnapshotPosition? {
        guard let data = Data(base64Encoded: text) else { return nil }
        return try? JSONDecoder().decode(SyncSnapshotPosition.self, from: data)
    }
}

extension SyncScope {
    /// A short digest of the sorted keys and the types received: equal scopes, equal hashes.
    package var hash: String {
        let text = keys.map(\.rawValue).sorted().joined(separator: "\n") + "\n|\n" + entityTypes.sorted().joined(separator: "\n")
        return String(Digest.sha256Hex(Data(text.utf8)).prefix(16))
    }
}
