import Foundation
import GRDB

/// The client's local database: the server's view of the user's scope (`entities`), the
/// optimistic effects of what is still queued (`overlay`), the outbox, the failed list and the
/// session. What the user sees is `overlay` laid over `entities`.
public final class ClientStore: Sendable {
    public let queue: DatabaseQueue

    /// - Parameter path: a file, or nil for an in-memory store (tests).
    public init(path: String?) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        queue = try path.map { try DatabaseQueue(path: $0, configuration: configuration) } ?? DatabaseQueue(configuration: configuration)
        try Self.migrator.migrate(queue)
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("001-client") { db in
            try db.execute(sql: """
                CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
                CREATE TABLE entities (type TEXT NOT NULL, id TEXT NOT NULL, data TEXT NOT NULL, PRIMARY KEY (type, id));
                CREATE TABLE overlay (type TEXT NOT NULL, id TEXT NOT NULL, data TEXT, mutation_seq INTEGER NOT NULL, PRIMARY KEY (type, id));
                CREATE TABLE outbox (
                    seq INTEGER PRIMARY KEY NOT NULL, id TEXT NOT NULL UNIQUE, name TEXT NOT NULL, args TEXT NOT NULL,
                    client_time TEXT NOT NULL, base_version INTEGER, state TEXT NOT NULL DEFAULT 'pending',
                    attempts INTEGER NOT NULL DEFAULT 0, last_error TEXT);
                CREATE TABLE failed (
                    seq INTEGER PRIMARY KEY NOT NULL, id TEXT NOT NULL, name TEXT NOT NULL, args TEXT NOT NULL,
                    client_time TEXT NOT NULL, code TEXT, message TEXT, current TEXT, failed_at TEXT NOT NULL);
                """)
        }
        return migrator
    }
}

/// Session and sync state kept in `meta`.
enum MetaKey: String {
    case clientId, nextSeq, cursor, lastMutationSeq, server, accessToken, refreshToken, user
}

extension Database {
    func meta(_ key: MetaKey) throws -> String? {
        try String.fetchOne(self, sql: "SELECT value FROM meta WHERE key = ?", arguments: [key.rawValue])
    }

    func setMeta(_ key: MetaKey, _ value: String?) throws {
        if let value {
            try execute(sql: "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                        arguments: [key.rawValue, value])
        } else {
            try execute(sql: "DELETE FROM meta WHERE key = ?", arguments: [key.rawValue])
        }
    }
}

/// A queued mutation as the outbox holds it.
public struct PendingMutation: Sendable, Equatable {
    public enum State: String, Sendable {
        /// Will be sent on the next sync.
        case pending
        /// Retries ran out (1, 2, 4 s): shown as "Waiting to sync — Retry"; still first in line.
        case waiting
    }

    public let seq: Int64
    public let id: String
    public let name: String
    public let args: JSONValue
    public let clientTime: String
    public let baseVersion: Int64?
    public let state: State
    public let attempts: Int
    public let lastError: String?

    init(row: Row) throws {
        seq = row["seq"]
        id = row["id"]
        name = row["name"]
        args = try JSONValue.parse(row["args"])
        clientTime = row["client_time"]
        baseVersion = row["base_version"]
        state = State(rawValue: row["state"]) ?? .pending
        attempts = row["attempts"]
        lastError = row["last_error"]
    }

    var wire: Wire.Mutation {
        Wire.Mutation(seq: Int(seq), id: id, name: name, args: args, clientTime: clientTime, baseVersion: baseVersion.map { Int($0) })
    }
}

/// A mutation the server refused for good, with its reason; "retry" queues it again.
public struct FailedMutation: Sendable, Equatable {
    public let seq: Int64
    public let id: String
    public let name: String
    public let args: JSONValue
    public let code: String?
    public let message: String?
    /// The server's value when the refusal was a conflict.
    public let current: JSONValue?
    public let failedAt: String

    init(row: Row) throws {
        seq = row["seq"]
        id = row["id"]
        name = row["name"]
        args = try JSONValue.parse(row["args"])
        code = row["code"]
        message = row["message"]
        current = try (row["current"] as String?).map(JSONValue.parse)
        failedAt = row["failed_at"]
    }
}

/// One entity of the local replica as the user sees it.
public struct LocalEntity: Sendable, Equatable {
    public let type: String
    public let id: String
    public let data: JSONValue
    /// Not yet confirmed by the server (an optimistic effect of a queued mutation).
    public let pending: Bool
}

enum Replica {
    /// The view: the server's entities of `type` with the overlay laid on top.
    static func entities(_ type: String, _ db: Database) throws -> [LocalEntity] {
        var byID: [String: LocalEntity] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT id, data FROM entities WHERE type = ?", arguments: [type]) {
            let id: String = row["id"]
            byID[id] = LocalEntity(type: type, id: id, data: try JSONValue.parse(row["data"]), pending: false)
        }
        for row in try Row.fetchAll(db, sql: "SELECT id, data FROM overlay WHERE type = ?", arguments: [type]) {
            let id: String = row["id"]
            if let text: String = row["data"] {
                byID[id] = LocalEntity(type: type, id: id, data: try JSONValue.parse(text), pending: true)
            } else {
                byID[id] = nil
            }
        }
        return byID.values.sorted { $0.id < $1.id }
    }

    /// The view's entities of `type` whose JSON fields equal the given texts, filtered by SQLite
    /// before anything is decoded: an applier that needs one class's records must not decode the
    /// whole replica (an admin's holds every attendance record of the school) on every write.
    static func entities(_ type: String, matching fields: [(field: String, text: String)], _ db: Database) throws -> [LocalEntity] {
        let condition = fields.map { _ in " AND json_extract(data, ?) = ?" }.joined()
        var arguments: [(any DatabaseValueConvertible)?] = [type]
        for (field, text) in fields { arguments += ["$.\"\(field)\"", text] }
        var found: [LocalEntity] = []
        // A queued effect replaces (or hides) the server's entity of the same id, matching or not.
        for row in try Row.fetchAll(db, sql: """
            SELECT id, data FROM entities WHERE type = ?\(condition)
              AND NOT EXISTS (SELECT 1 FROM overlay WHERE overlay.type = entities.type AND overlay.id = entities.id)
            """, arguments: StatementArguments(arguments)) {
            found.append(LocalEntity(type: type, id: row["id"], data: try JSONValue.parse(row["data"]), pending: false))
        }
        for row in try Row.fetchAll(db, sql: "SELECT id, data FROM overlay WHERE type = ? AND data IS NOT NULL\(condition)",
                                    arguments: StatementArguments(arguments)) {
            found.append(LocalEntity(type: type, id: row["id"], data: try JSONValue.parse(row["data"]), pending: true))
        }
        return found.sorted { $0.id < $1.id }
    }

    static func entity(_ type: String, _ id: String, _ db: Database) throws -> LocalEntity? {
        if let row = try Row.fetchOne(db, sql: "SELECT data FROM overlay WHERE type = ? AND id = ?", arguments: [type, id]) {
            guard let text: String = row["data"] else { return nil }
            return LocalEntity(type: type, id: id, data: try JSONValue.parse(text), pending: true)
        }
        guard let text = try String.fetchOne(db, sql: "SELECT data FROM entities WHERE type = ? AND id = ?", arguments: [type, id]) else { return nil }
        return LocalEntity(type: type, id: id, data: try JSONValue.parse(text), pending: false)
    }

    /// The server's view only (what a snapshot of the scope gives), for comparisons.
    static func serverEntities(_ db: Database) throws -> [String: JSONValue] {
        var all: [String: JSONValue] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT type, id, data FROM entities") {
            let type: String = row["type"]
            let id: String = row["id"]
            all["\(type)/\(id)"] = try JSONValue.parse(row["data"])
        }
        return all
    }

    static func upsert(_ type: String, _ id: String, _ data: JSONValue, _ db: Database) throws {
        try db.execute(sql: "INSERT INTO entities (type, id, data) VALUES (?, ?, ?) ON CONFLICT(type, id) DO UPDATE SET data = excluded.data",
                       arguments: [type, id, try data.text()])
    }

    static func delete(_ type: String, _ id: String, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM entities WHERE type = ? AND id = ?", arguments: [type, id])
    }
}
