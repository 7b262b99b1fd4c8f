import Foundation
import HogwartsBase

/// One named, append-only schema change owned by a module.
///
/// Write portable SQL (plain types, no SQLite-only functions) and give every table a
/// `school_id` column: the kernel refuses a module migration that creates a table without one.
public struct Migration: Sendable, Hashable {
    /// Stable and ordered, e.g. `001-create-notes`. Never renamed once released.
    public let id: String
    public let sql: String

    public init(_ id: String, sql: String) {
        self.id = id
        self.sql = sql
    }

    /// SHA-256 of the SQL text: an applied migration whose text changed is refused.
    public var checksum: String {
        Digest.sha256Hex(Data(sql.utf8))
    }
}

/// Where one declared migration stands in a database.
public struct MigrationStatus: Codable, Sendable, Hashable {
    public let module: ModuleID
    public let migration: String
    public let appliedAt: Date?
    public var isApplied: Bool { appliedAt != nil }
}
