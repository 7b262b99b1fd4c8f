import Foundation
import HogwartsBase

/// One school's view of the database inside a transaction: the handle actions and event handlers get.
///
/// Every statement must use the `:school_id` parameter, and the handle binds it to its own
/// school, so a query that forgets the tenant is refused instead of leaking another school's
/// rows. Valid only inside the transaction that created it. Statements are prepared once per
/// connection and reused, so a repeated query costs only its execution.
public final class SchoolDatabase {
    public let schoolID: SchoolID
    package let connection: any StorageConnection
    /// Set while an action validates: a statement that would write is refused, per statement, by
    /// the engine (see `StorageConnection.execute(_:_:refusingWrites:)`).
    var isReadOnly = false
    /// The module whose code runs here: a statement naming another module's table is refused
    /// (`core-table-ownership.swift`). Nil for the kernel's own work.
    package var boundary: ModuleBoundary?

    init(schoolID: SchoolID, connection: any StorageConnection) {
        self.schoolID = schoolID
        self.connection = connection
    }

    /// Runs a statement that returns no rows (INSERT, UPDATE, DELETE, ...).
    public func execute(_ sql: String, _ arguments: SQLArguments = [:]) throws {
        let bound = try scoped(sql, arguments)
        try connection.execute(sql, bound, refusingWrites: isReadOnly)
    }

    public func fetchAll(_ sql: String, _ arguments: SQLArguments = [:]) throws -> [SQLRow] {
        let bound = try scoped(sql, arguments)
        var rows: [SQLRow] = []
        try connection.query(sql, bound, refusingWrites: isReadOnly) { columns in
            rows.append(columns.row)
            return true
        }
        return rows
    }

    public func fetchOne(_ sql: String, _ arguments: SQLArguments = [:]) throws -> SQLRow? {
        let bound = try scoped(sql, arguments)
        var found: SQLRow?
        try connection.query(sql, bound, refusingWrites: isReadOnly) { columns in
            found = columns.row
            return false
        }
        return found
    }

    /// Visits rows one at a time without holding them all: for large reads (a term's results).
    public func forEachRow(_ sql: String, _ arguments: SQLArguments = [:], _ body: (SQLRow) throws -> Void) throws {
        let bound = try scoped(sql, arguments)
        try connection.query(sql, bound, refusingWrites: isReadOnly) { columns in
            try body(columns.row)
            return true
        }
    }

    /// Visits rows one at a time by column position, holding neither the rows nor a dictionary
    /// per row: for the largest reads (a term's records counted in one pass). `body` must not
    /// keep its argument.
    public func forEachRow(_ sql: String, _ arguments: SQLArguments = [:], columns body: (SQLColumns) throws -> Void) throws {
        let bound = try scoped(sql, arguments)
        try connection.query(sql, bound, refusingWrites: isReadOnly) { columns in
            try body(columns)
            return true
        }
    }

    /// Rows decoded straight into values by column position, with no name-keyed dictionary per
    /// row: for hot paths (a class list with its records). `decode` must not keep its argument.
    public func fetchAll<T>(_ sql: String, _ arguments: SQLArguments = [:], decode: (SQLColumns) throws -> T) throws -> [T] {
        try fetchAll(sql, bound: try scoped(sql, arguments), decode: decode)
    }

    private func fetchAll<T>(_ sql: String, bound: SQLBindings, decode: (SQLColumns) throws -> T) throws -> [T] {
        var values: [T] = []
        try connection.query(sql, bound, refusingWrites: isReadOnly) { columns in
            values.append(try decode(columns))
            return true
        }
        return values
    }

    /// Runs a statement whose `?` parameters take `values` in order, beside the named ones
    /// (`:school_id`, and any in `named`, each bound once however often the text repeats it):
    /// for hot paths (a register's rows), where a dictionary key per value costs more than the write.
    public func execute(_ sql: String, _ named: SQLArguments = [:], values: [SQLValue]) throws {
        let bound = try scoped(sql, named, values: values)
        try connection.execute(sql, bound, refusingWrites: isReadOnly)
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

    /// Makes another transaction of this school that asks for the same `key` wait until this one
    /// ends, so a read-then-write (what a register already holds, then its marks) is never
    /// interleaved with another writer's. Call it before the read. Free on SQLite, whose writers
    /// already take turns; on PostgreSQL an advisory lock held until commit. Allowed while validating.
    public func serializeWriters(on key: String) throws {
        guard let lock = connection.dialect.writerLock else { return }
        _ = try connection.fetchOne(sql: lock, arguments: ["\(schoolID)|\(key)"])
    }

    /// The clause to end a SELECT of queued work with (`... LIMIT 100 \(database.skipLockedRows)`):
    /// several runners on several servers then share the queue instead of each taking every row.
    /// Claim each row with a guarded UPDATE as well (`... WHERE state = 'PENDING' RETURNING id`).
    public var skipLockedRows: String { connection.dialect.skipLockedRows }

    /// Runs `body` with writes refused (an action's validation), then allows them again.
    func readOnly<T>(_ body: () throws -> T) throws -> T {
        let wasReadOnly = isReadOnly
        isReadOnly = true
        defer { isReadOnly = wasReadOnly }
        return try body()
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    public var changedRowCount: Int { connection.changedRowCount }

    private func scoped(_ sql: String, _ arguments: SQLArguments) throws -> SQLBindings {
        guard Self.namesSchool(sql) else { throw KernelError.unscopedStatement(sql) }
        try boundary?.check(sql)
        var arguments = arguments
        arguments["school_id"] = .text(schoolID)
        return SQLBindings(named: arguments)
    }

    private func scoped(_ sql: String, _ named: SQLArguments, values: [SQLValue]) throws -> SQLBindings {
        guard Self.namesSchool(sql) else { throw KernelError.unscopedStatement(sql) }
        try boundary?.check(sql)
        var named = named
        named["school_id"] = .text(schoolID)
        return SQLBindings(positional: values, named: named)
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
