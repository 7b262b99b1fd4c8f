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

    init(schoolID: SchoolID, connection: Database) {
        self.schoolID = schoolID
        self.connection = connection
    }

    /// Runs a statement that returns no rows (INSERT, UPDATE, DELETE, ...).
    public func execute(_ sql: String, _ arguments: SQLArguments = [:]) throws {
        let bound = try scoped(sql, arguments)
        try withStorageErrors { try connection.cachedStatement(sql: sql).execute(arguments: bound) }
    }

    public func fetchAll(_ sql: String, _ arguments: SQLArguments = [:]) throws -> [SQLRow] {
        let bound = try scoped(sql, arguments)
        return try withStorageErrors { try Row.fetchAll(connection.cachedStatement(sql: sql), arguments: bound).map(SQLRow.init) }
    }

    public func fetchOne(_ sql: String, _ arguments: SQLArguments = [:]) throws -> SQLRow? {
        let bound = try scoped(sql, arguments)
        return try withStorageErrors { try Row.fetchOne(connection.cachedStatement(sql: sql), arguments: bound).map(SQLRow.init) }
    }

    /// Visits rows one at a time without holding them all: for large reads (a term's results).
    public func forEachRow(_ sql: String, _ arguments: SQLArguments = [:], _ body: (SQLRow) throws -> Void) throws {
        let bound = try scoped(sql, arguments)
        try withStorageErrors {
            let cursor = try Row.fetchCursor(connection.cachedStatement(sql: sql), arguments: bound)
            while let row = try cursor.next() {
                try body(SQLRow(row))
            }
        }
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

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    public var changedRowCount: Int { connection.changesCount }

    private func scoped(_ sql: String, _ arguments: SQLArguments) throws -> StatementArguments {
        guard sql.contains(":school_id") else { throw KernelError.unscopedStatement(sql) }
        var arguments = arguments
        arguments["school_id"] = .text(schoolID)
        return StatementArguments(arguments)
    }
}
