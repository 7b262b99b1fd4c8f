import GRDB
import HogwartsBase

/// A GRDB connection inside one transaction, seen through the seam.
final class SQLiteConnection: StorageConnection {
    let database: Database

    init(_ database: Database) {
        self.database = database
    }

    var dialect: any SQLDialect { SQLiteDialect() }

    func execute(_ sql: String, _ bindings: SQLBindings, refusingWrites: Bool) throws {
        try withStorageErrors { try statement(sql, refusingWrites: refusingWrites).execute(arguments: StatementArguments(bindings)) }
    }

    func query(_ sql: String, _ bindings: SQLBindings, refusingWrites: Bool, _ row: (SQLColumns) throws -> Bool) throws {
        try withStorageErrors {
            let cursor = try Row.fetchCursor(statement(sql, refusingWrites: refusingWrites), arguments: StatementArguments(bindings))
            while let next = try cursor.next() {
                guard try row(SQLColumns(source: SQLiteColumns(current: next))) else { return }
            }
        }
    }

    func executeScript(_ sql: String) throws {
        try withStorageErrors { try database.execute(sql: sql) }
    }

    var changedRowCount: Int { database.changesCount }

    func tableExists(_ table: String) throws -> Bool {
        try withStorageErrors { try database.tableExists(table) }
    }

    func tableNames() throws -> Set<String> {
        try withStorageErrors {
            Set(try String.fetchAll(database, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"))
        }
    }

    func columnNames(in table: String) throws -> [String] {
        try withStorageErrors { try database.columns(in: table).map(\.name) }
    }

    func triggers(prefixed prefix: String) throws -> [(name: String, table: String, definition: String)] {
        try withStorageErrors {
            try Row.fetchAll(database, sql: "SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE ?",
                             arguments: [prefix + "%"])
                .map { ($0["name"], $0["tbl_name"], $0["sql"] ?? "") }
        }
    }

    /// The connection's prepared statement for `sql` (prepared once, then reused). Writes are
    /// refused per statement rather than with `PRAGMA query_only`, because SQLite expires every
    /// prepared statement of the connection whenever a flag pragma changes, and each would then
    /// be compiled again on its next use.
    private func statement(_ sql: String, refusingWrites: Bool) throws -> Statement {
        let statement = try database.cachedStatement(sql: sql)
        if refusingWrites && !statement.isReadonly { throw KernelError.storage("attempt to write a readonly database") }
        return statement
    }
}

/// The row a GRDB cursor stands on, read by position in place.
struct SQLiteColumns: SQLColumnSource {
    let current: Row

    func text(_ index: Int) -> String? { current[index] }
    func integer(_ index: Int) -> Int? { current[index] }
    func double(_ index: Int) -> Double? { current[index] }
    func value(_ index: Int) -> SQLValue { SQLValue(current[index] as DatabaseValue) }
    var row: SQLRow { SQLRow(current) }
}
