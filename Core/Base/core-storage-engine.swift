import Foundation

/// Progress of long work (migrations, imports, demo data): current step of total, and a label.
public typealias ProgressReporter = @Sendable (_ done: Int, _ total: Int, _ label: String) -> Void

/// The storage engine seam: everything in Core and every module reaches the database through
/// these protocols. Each engine lives in its own folder (`SQLite/`, the embedded default) and
/// is the only code that knows its driver.
package protocol StorageEngine: AnyObject, Sendable {
    /// The file path, or the server's address without its password: what messages name.
    var location: String { get }
    /// True when every read works and a write is refused (a read-only file or mount).
    var isReadOnly: Bool { get }
    /// The folder file-path settings resolve against: the database file's, or the working directory for a server.
    var folder: URL { get }
    /// The engine's own SQL: trigger DDL and anything else that is not one text on every engine.
    var dialect: any SQLDialect { get }

    /// Runs `work` in one read transaction: a consistent snapshot that never waits for the writer.
    func read<T>(_ work: (any StorageConnection) throws -> T) throws -> T
    /// Runs `work` in one write transaction, committed when it returns and rolled back when it throws.
    func write<T>(_ work: (any StorageConnection) throws -> T) throws -> T

    /// The engine's own verdict on the stored data (`hogwarts check`).
    func checkIntegrity() -> IntegrityReport
    /// A consistent copy at `destination` (which must not exist), taken while others keep writing.
    func backup(to destination: String, progress: ProgressReporter?) throws
    /// Replaces the contents with the Hogwarts backup at `source`, first copying the current
    /// contents to `safetyCopy`.
    func restore(from source: String, safetyCopy: String, progress: ProgressReporter?) throws
}

/// One connection inside one transaction; valid only inside the `read` or `write` that handed it out.
/// Statements are prepared once per connection and reused, so a repeated query costs only its run.
package protocol StorageConnection: AnyObject {
    var dialect: any SQLDialect { get }

    /// Runs one statement that returns no rows. With `refusingWrites`, a statement that would
    /// change the database is refused (an action's validation).
    func execute(_ sql: String, _ bindings: SQLBindings, refusingWrites: Bool) throws
    /// Runs one statement and hands each row to `row` by position until it returns false.
    /// `row` must not keep its argument.
    func query(_ sql: String, _ bindings: SQLBindings, refusingWrites: Bool, _ row: (SQLColumns) throws -> Bool) throws
    /// Runs several statements separated by `;` (migrations, trigger DDL), none of them prepared for reuse.
    func executeScript(_ sql: String) throws

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changedRowCount: Int { get }

    // The catalog, asked in the engine's own terms.
    func tableExists(_ table: String) throws -> Bool
    func tableNames() throws -> Set<String>
    func columnNames(in table: String) throws -> [String]
    /// The triggers whose names start with `prefix`, each with the definition `SQLDialect.rowTrigger`
    /// produced for it (compared as text to decide whether it must be replaced).
    func triggers(prefixed prefix: String) throws -> [(name: String, table: String, definition: String)]
}

/// A statement's arguments: `?` placeholders take `positional` in order, `:name` ones `named`.
package struct SQLBindings {
    package var positional: [SQLValue]
    package var named: SQLArguments

    package init(positional: [SQLValue] = [], named: SQLArguments = [:]) {
        self.positional = positional
        self.named = named
    }

    package init(_ values: [(any SQLValueConvertible)?]) {
        positional = values.map { $0?.sqlValue ?? .null }
        named = [:]
    }
}

/// The kernel's own statements: GRDB-shaped helpers over the seam, every statement prepared once.
extension StorageConnection {
    package func execute(sql: String, arguments: [(any SQLValueConvertible)?] = []) throws {
        try execute(sql, SQLBindings(arguments), refusingWrites: false)
    }

    package func fetchAll(sql: String, arguments: [(any SQLValueConvertible)?] = []) throws -> [SQLRow] {
        var rows: [SQLRow] = []
        try query(sql, SQLBindings(arguments), refusingWrites: false) { columns in
            rows.append(columns.row)
            return true
        }
        return rows
    }

    package func fetchOne(sql: String, arguments: [(any SQLValueConvertible)?] = []) throws -> SQLRow? {
        var found: SQLRow?
        try query(sql, SQLBindings(arguments), refusingWrites: false) { columns in
            found = columns.row
            return false
        }
        return found
    }

    /// The first column of the first row, converted to `T`; nil when there is no row or it is NULL.
    package func fetchValue<T: SQLValueConvertible>(_ type: T.Type, sql: String, arguments: [(any SQLValueConvertible)?] = []) throws -> T? {
        var found: T?
        try query(sql, SQLBindings(arguments), refusingWrites: false) { columns in
            found = T(sqlValue: columns.value(0))
            return false
        }
        return found
    }

    /// The first column of every row, converted to `T` (rows where it does not convert are skipped).
    package func fetchValues<T: SQLValueConvertible>(_ type: T.Type, sql: String, arguments: [(any SQLValueConvertible)?] = []) throws -> [T] {
        var values: [T] = []
        try query(sql, SQLBindings(arguments), refusingWrites: false) { columns in
            if let value = T(sqlValue: columns.value(0)) { values.append(value) }
            return true
        }
        return values
    }
}
