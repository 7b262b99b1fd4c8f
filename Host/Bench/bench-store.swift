import Foundation
import GRDB

/// A value the setup binds: GRDB's on SQLite, its text on PostgreSQL.
typealias BenchValue = (any DatabaseValueConvertible)?

/// The bench's own access to its database for setup (the school's rows written straight with
/// SQL, not measured): the same statements and rows on either engine. Floors do not go through
/// it: each is written for its engine's driver (GRDB, or libpq in `BenchPostgres`).
enum BenchStore {
    case sqlite(DatabaseQueue)
    case postgres(BenchPostgres)

    /// Runs `work` in one write transaction.
    func write(_ work: (BenchWriter) throws -> Void) throws {
        switch self {
        case .sqlite(let queue): try queue.write { db in try work(BenchWriter(target: .sqlite(db))) }
        case .postgres(let connection): try connection.transaction { try work(BenchWriter(target: .postgres(connection))) }
        }
    }

    /// After a large seed: the WAL folded into the file and truncated, so a setup of millions of
    /// rows does not hold gigabytes of WAL on disk through the scenarios after it.
    func checkpoint() throws {
        if case .sqlite(let queue) = self { try queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") } }
    }

    /// Every row of a read, each column as text (NULL as "").
    func rows(_ sql: String, _ values: [BenchValue] = []) throws -> [[String]] {
        switch self {
        case .sqlite(let queue):
            try queue.read { db in
                try Row.fetchAll(db, sql: sql, arguments: StatementArguments(values)).map { row in
                    (0..<row.count).map { index in Self.text((row[index] as DatabaseValue)) ?? "" }
                }
            }
        case .postgres(let connection):
            try connection.transaction(readOnly: true) { try connection.rows(sql, values.map(Self.text)).map { $0.map { $0 ?? "" } } }
        }
    }

    /// A value as PostgreSQL's text input reads it.
    static func text(_ value: BenchValue) -> String? {
        guard let value else { return nil }
        switch value.databaseValue.storage {
        case .null: return nil
        case .int64(let number): return String(number)
        case .double(let number): return String(number)
        case .string(let text): return text
        case .blob(let data): return "\\x" + data.map { String(format: "%02x", $0) }.joined()
        }
    }
}

/// One write transaction's statements, each prepared once and reused.
struct BenchWriter {
    enum Target {
        case sqlite(Database)
        case postgres(BenchPostgres)
    }

    let target: Target

    func execute(_ sql: String, _ values: [BenchValue]) throws {
        switch target {
        case .sqlite(let db): try db.cachedStatement(sql: sql).execute(arguments: StatementArguments(values))
        case .postgres(let connection): try connection.execute(sql, values.map(BenchStore.text))
        }
    }
}
