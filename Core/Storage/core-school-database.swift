import Foundation
import GRDB

/// One school's view of the database inside a transaction: the handle actions and event handlers get.
///
/// Every statement must use the `:school_id` parameter, and the handle binds it to its own
/// school, so a query that forgets the tenant is refused instead of leaking another school's
/// rows. Valid only inside the transaction that created it. Statements are prepared once per
/// connection and reused, so a repeated query costs only its execution.
public final class SchoolDatabase {
    public let schoolID: SchoolID
    let connection: Database
    /// Set while an action validates: a statement that would write is refused. Checked here, per
    /// statement, rather than with `PRAGMA query_only`, because SQLite expires every prepared
    /// statement of the connection whenever a flag pragma changes, and each would then be
    /// compiled again on its next use.
    var isReadOnly = false
    /// The module whose code runs here: a statement naming another module's table is refused
    /// (`core-table-ownership.swift`). Nil for the kernel's own work.
    var boundary: ModuleBoundary?

    init(schoolID: SchoolID, connection: Database) {
        self.schoolID = schoolID
        self.connection = connection
    }

    /// Runs a statement that returns no rows (INSERT, UPDATE, DELETE, ...).
    public func execute(_ sql: String, _ arguments: SQLArguments = [:]) throws {
        let bound = try scoped(sql, arguments)
        try withStorageErrors { try statement(sql).execute(arguments: bound) }
    }

    public func fetchAll(_ sql: String, _ arguments: SQLArguments = [:]) throws -> [SQLRow] {
        let bound = try scoped(sql, arguments)
        return try withStorageErrors { try Row.fetchAll(statement(sql), arguments: bound).map(SQLRow.init) }
    }

    public func fetchOne(_ sql: String, _ arguments: SQLArguments = [:]) throws -> SQLRow? {
        let bound = try scoped(sql, arguments)
        return try withStorageErrors { try Row.fetchOne(statement(sql), arguments: bound).map(SQLRow.init) }
    }

    /// Visits rows one at a time without holding them all: for large reads (a term's results).
    public func forEachRow(_ sql: String, _ arguments: SQLArguments = [:], _ body: (SQLRow) throws -> Void) throws {
        let bound = try scoped(sql, arguments)
        try withStorageErrors {
            let cursor = try Row.fetchCursor(statement(sql), arguments: bound)
            while let row = try cursor.next() {
                try body(SQLRow(row))
            }
        }
    }

    /// Visits rows one at a time by column position, holding neither the rows nor a dictionary
    /// per row: for the largest reads (a term's records counted in one pass). `body` must not
    /// keep its argument.
    public func forEachRow(_ sql: String, _ arguments: SQLArguments = [:], columns body: (SQLColumns) throws -> Void) throws {
        let bound = try scoped(sql, arguments)
        try withStorageErrors {
            let cursor = try Row.fetchCursor(statement(sql), arguments: bound)
            while let row = try cursor.next() {
                try body(SQLColumns(row: row))
            }
        }
    }

    /// Rows decoded straight into values by column position, with no name-keyed dictionary per
    /// row: for hot paths (a class list with its records). `decode` must not keep its argument.
    public func fetchAll<T>(_ sql: String, _ arguments: SQLArguments = [:], decode: (SQLColumns) throws -> T) throws -> [T] {
        try fetchAll(sql, bound: try scoped(sql, arguments), decode: decode)
    }

    private func fetchAll<T>(_ sql: String, bound: StatementArguments, decode: (SQLColumns) throws -> T) throws -> [T] {
        try withStorageErrors {
            let cursor = try Row.fetchCursor(statement(sql), arguments: bound)
            var values: [T] = []
            while let row = try cursor.next() {
                values.append(try decode(SQLColumns(row: row)))
            }
            return values
        }
    }

    /// Runs a statement whose `?` parameters take `values` in order, beside the named ones
    /// (`:school_id`, and any in `named`, each bound once however often the text repeats it):
    /// for hot paths (a register's rows), where a dictionary key per value costs more than the write.
    public func execute(_ sql: String, _ named: SQLArguments = [:], values: [SQLValue]) throws {
        let bound = try scoped(sql, named, values: values)
        try withStorageErrors { try statement(sql).execute(arguments: bound) }
    }

    /// Rows decoded by column position, with `?` parameters taking `values` in order beside the named ones.
    public func fetchAll<T>(_ sql: String, _ named: SQLArguments = [:], values: [SQLValue], decode: (SQLColumns) throws -> T) throws -> [T] {
        try fetchAll(sql, bound: try scoped(sql, named, values: values), decode: decode)
    }

    /// The first column of the first row, converted to `T`.
    public func fetchValue<T: SQLValueConvertible>(_ sql: String, _ arguments: SQLArguments = [:]) throws -> T? {
        try fetchOne(sql, arguments)?.columns.values.first.flatMap { T(sqlValue: $0) }
    }

    /// Inserts one row into `table`, filling `school_id` with this handle's school.
    public func insert(into table: String, _ values: SQLArguments) throws {
        let columns = values.keys.filter { $0 != "school_id" }.sorted()
        let names = (["school_id"] + columns).joined(separator: ", ")
        let placeholders = ([":school_id"] + columns.map { ":\($0)" }).joined(separator: ", ")
        try execute("INSERT INTO \(table) (\(names)) VALUES (\(placeholders))", values)
    }

    /// Runs `body` with writes refused (an action's validation), then allows them again.
    func readOnly<T>(_ body: () throws -> T) throws -> T {
        let wasReadOnly = isReadOnly
        isReadOnly = true
        defer { isReadOnly = wasReadOnly }
        return try body()
    }

    /// The connection's prepared statement for `sql` (prepared once, then reused); while
    /// read-only, a statement that would change the database is refused as SQLite refuses it.
    private func statement(_ sql: String) throws -> Statement {
        try boundary?.check(sql)
        let statement = try connection.cachedStatement(sql: sql)
        if isReadOnly && !statement.isReadonly { throw KernelError.storage("attempt to write a readonly database") }
        return statement
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    public var changedRowCount: Int { connection.changesCount }

    private func scoped(_ sql: String, _ arguments: SQLArguments) throws -> StatementArguments {
        guard Self.namesSchool(sql) else { throw KernelError.unscopedStatement(sql) }
        var arguments = arguments
        arguments["school_id"] = .text(schoolID)
        return StatementArguments(arguments)
    }

    private func scoped(_ sql: String, _ named: SQLArguments, values: [SQLValue]) throws -> StatementArguments {
        guard Self.namesSchool(sql) else { throw KernelError.unscopedStatement(sql) }
        var named = named
        named["school_id"] = .text(schoolID)
        // As existentials built here: GRDB's generic initializer over `DatabaseValue`s reads each
        // one through a key path, unspecialized across modules (several times the cost).
        var arguments = StatementArguments(values.map { $0.databaseValue as (any DatabaseValueConvertible)? })
        _ = arguments.append(contentsOf: StatementArguments(named))
        return arguments
    }

    /// Whether the text binds `:school_id`, searched as bytes (Foundation's `contains` costs
    /// several times more, on every statement an action runs).
    static func namesSchool(_ sql: String) -> Bool {
        let needle = schoolParameter
        return sql.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard bytes.count >= needle.count else { return false }
            var start = 0
            while start <= bytes.count - needle.count {
                if bytes[start] == needle[0] {
                    var matched = 1
                    while matched < needle.count && bytes[start + matched] == needle[matched] { matched += 1 }
                    if matched == needle.count { return true }
                }
                start += 1
            }
            return false
        } ?? sql.contains(":school_id")
    }

    private static let schoolParameter = Array(":school_id".utf8)
}
