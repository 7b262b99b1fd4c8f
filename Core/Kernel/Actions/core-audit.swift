import Foundation
import HogwartsBase

/// How an audited operation ended.
public enum AuditOutcome: String, Codable, Sendable {
    case succeeded = "SUCCEEDED"
    /// Refused before running: the principal lacked the permission.
    case denied = "DENIED"
    /// A retry with a request id already applied: answered from the first result.
    case replayed = "REPLAYED"
    /// Attempted and refused for a reason recorded in the detail (a failed sign-in, say).
    case failed = "FAILED"
}

/// One line of the audit log: who did what, in which school, when, and how it ended.
public struct AuditEntry: Codable, Sendable, Hashable {
    public let schoolID: SchoolID?
    public let userID: String
    public let role: Role
    public let action: String
    public let requestID: String?
    public let outcome: AuditOutcome
    public let detail: String?
    public let at: Date
}

enum AuditRecords {
    static func append(school: SchoolID?, principal: Principal, action: String, requestID: String? = nil, outcome: AuditOutcome, detail: String?, at time: Date, in db: any StorageConnection) throws {
        // Prepared once per connection (as every statement on the seam): every write action appends one.
        try db.execute(sql: """
            INSERT INTO kernel_audit (school_id, user_id, role, action, request_id, outcome, detail, at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [school, principal.userID, principal.role.rawValue, action, requestID, outcome.rawValue, detail, time])
    }
}

extension Kernel {
    /// Records something that happened outside any action, such as a sign-in attempt for an
    /// email no school knows. `school` is nil when no school is involved.
    public func recordAudit(action: String, principal: Principal, school: SchoolID?, outcome: AuditOutcome, detail: String?) throws {
        try store.write { db in
            try AuditRecords.append(school: school, principal: principal, action: action, outcome: outcome, detail: detail, at: now(), in: db)
        }
    }

    /// Audit entries recorded outside any school, newest first.
    public func platformAuditLog(limit: Int = 100) throws -> [AuditEntry] {
        try store.read { db in
            try requireMigrated(db)
            return try db.fetchAll(sql: "SELECT * FROM kernel_audit WHERE school_id IS NULL ORDER BY id DESC LIMIT ?", arguments: [limit]).map(AuditEntry.init(row:))
        }
    }

    /// The school's audit log, newest first.
    public func auditLog(for schoolReference: String, limit: Int = 100) throws -> [AuditEntry] {
        try store.read { db in
            try requireMigrated(db)
            let school = try SchoolRecords.find(schoolReference, in: db)
            return try db.fetchAll(sql: "SELECT * FROM kernel_audit WHERE school_id = ? ORDER BY id DESC LIMIT ?", arguments: [school.id, limit]).map(AuditEntry.init(row:))
        }
    }
}

extension AuditEntry {
    package init(row: SQLRow) {
        self.init(
            schoolID: row["school_id"], userID: row.string("user_id"), role: Role(rawValue: row.string("role")) ?? .user,
            action: row.string("action"), requestID: row["request_id"], outcome: AuditOutcome(rawValue: row.string("outcome")) ?? .succeeded,
            detail: row["detail"], at: (row["at"] as String?).flatMap(SQLDateFormat.date(from:)) ?? Date(timeIntervalSince1970: 0))
    }
}
