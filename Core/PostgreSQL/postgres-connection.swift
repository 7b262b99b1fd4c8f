import CLibPQ
import Foundation
import HogwartsBase

/// One libpq connection. Statements are prepared once per connection (under names `s1`, `s2`,
/// ...) and reused; values travel as text and come back as text, converted by column type.
final class PostgresConnection: StorageConnection {
    let handle: OpaquePointer
    private var prepared: [String: Prepared] = [:]
    private var lastChanged = 0
    private let timeouts: PostgresTimeouts
    /// Set when the server stopped answering: the pool closes this connection instead of reusing it.
    private var givenUp = false

    private struct Prepared {
        let name: String
        let parameters: [PostgresSQL.Parameter]
        let isReadOnly: Bool
    }

    init(conninfo: String, timeouts: PostgresTimeouts) throws {
        try Self.loadLibrary()
        guard let handle = PQconnectdb(timeouts.bounding(conninfo)) else { throw KernelError.storage("PostgreSQL: out of memory") }
        guard PQstatus(handle) == CONNECTION_OK else {
            let message = Self.message(handle)
            PQfinish(handle)
            throw KernelError.databaseUnavailable("PostgreSQL: \(message)")
        }
        self.handle = handle
        self.timeouts = timeouts
        // Notices (an identifier truncated, a table already there) are not errors: keep them off stderr.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
        try command(timeouts.sessionSettings, answerWithin: TimeInterval(timeouts.connect))
    }

    deinit {
        PQfinish(handle)
    }

    /// libpq is loaded on the first connection, not linked (see Drivers/CLibPQ): a machine
    /// without it runs SQLite and is told what to install only when it asks for PostgreSQL.
    static func loadLibrary() throws {
        var why: UnsafePointer<CChar>?
        guard clibpq_load(&why) == 0 else {
            let detail = why.map { String(cString: $0) } ?? "libpq.so.5"
            throw KernelError.storage("PostgreSQL: libpq could not be loaded (\(detail)); install it (Debian: apt install libpq5, macOS: brew install libpq)")
        }
    }

    var isHealthy: Bool { !givenUp && PQstatus(handle) == CONNECTION_OK && PQtransactionStatus(handle) == PQTRANS_IDLE }

    /// The result of what was just sent, waited for at most `seconds` (nil: without end): the
    /// first error of a multi-statement command, else its first result.
    /// Past the time the connection is given up (the pool closes it; the server rolls back
    /// whatever it had begun) and the caller gets `databaseUnavailable`.
    private func awaitResult(_ sent: @autoclosure () -> Int32, within seconds: TimeInterval?) throws -> OpaquePointer {
        // A connection given up on sends nothing more (not even the ROLLBACK after the failure).
        guard !givenUp else { throw KernelError.databaseUnavailable("PostgreSQL: the connection was given up") }
        guard sent() == 1 else { throw giveUp("PostgreSQL: \(Self.message(handle))") }
        let deadline = seconds.map { Date().addingTimeInterval($0) }
        var kept: OpaquePointer?
        while true {
            while PQisBusy(handle) == 1 {
                let remaining = deadline.map { $0.timeIntervalSinceNow }
                if let remaining, remaining <= 0 {
                    if let kept { PQclear(kept) }
                    throw giveUp("PostgreSQL did not answer within \(Int(seconds ?? 0)) s")
                }
                var socket = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
                let waited = poll(&socket, 1, remaining.map { Int32(min(60_000, max(1, ($0 * 1000).rounded(.up)))) } ?? -1)
                if waited < 0 && errno != EINTR || PQconsumeInput(handle) == 0 {
                    if let kept { PQclear(kept) }
                    throw giveUp("PostgreSQL: \(Self.message(handle))")
                }
            }
            guard let result = PQgetResult(handle) else { break }
            if let previous = kept, Self.isError(result) && !Self.isError(previous) {
                PQclear(previous)
                kept = result
            } else if kept == nil {
                kept = result
            } else {
                PQclear(result)
            }
        }
        guard let kept else { throw giveUp("PostgreSQL: \(Self.message(handle))") }
        return kept
    }

    private static func isError(_ result: OpaquePointer) -> Bool {
        let status = PQresultStatus(result)
        return !(status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || status == PGRES_EMPTY_QUERY)
    }

    private func giveUp(_ detail: String) -> KernelError {
        givenUp = true
        return .databaseUnavailable(detail)
    }

    var dialect: any SQLDialect { PostgresDialect() }

    func execute(_ sql: String, _ bindings: SQLBindings, refusingWrites: Bool) throws {
        let result = try run(sql, bindings, refusingWrites: refusingWrites)
        PQclear(result)
    }

    func query(_ sql: String, _ bindings: SQLBindings, refusingWrites: Bool, _ row: (SQLColumns) throws -> Bool) throws {
        let result = try run(sql, bindings, refusingWrites: refusingWrites)
        defer { PQclear(result) }
        let rows = PQntuples(result)
        let types = (0..<PQnfields(result)).map { PQftype(result, $0) }
        var index: Int32 = 0
        while index < rows {
            guard try row(SQLColumns(source: PostgresColumns(result: result, rowIndex: index, types: types))) else { return }
            index += 1
        }
    }

    func executeScript(_ sql: String) throws {
        let result = PQexec(handle, PostgresSQL.portableSchema(sql))
        defer { PQclear(result) }
        try check(result, sql: sql)
    }

    var changedRowCount: Int { lastChanged }

    func tableExists(_ table: String) throws -> Bool {
        try fetchValue(Bool.self, sql: "SELECT 1 FROM pg_catalog.pg_tables WHERE schemaname = current_schema() AND tablename = ?", arguments: [table.lowercased()]) ?? false
    }

    func tableNames() throws -> Set<String> {
        Set(try fetchValues(String.self, sql: "SELECT tablename FROM pg_catalog.pg_tables WHERE schemaname = current_schema()"))
    }

    func columnNames(in table: String) throws -> [String] {
        try fetchValues(String.self, sql: """
            SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position
            """, arguments: [table.lowercased()])
    }

    func triggers(prefixed prefix: String) throws -> [(name: String, table: String, definition: String)] {
        try fetchAll(sql: """
            SELECT t.tgname AS name, c.relname AS tbl, COALESCE(obj_description(t.oid, 'pg_trigger'), '') AS definition
            FROM pg_catalog.pg_trigger t JOIN pg_catalog.pg_class c ON c.oid = t.tgrelid
            JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = current_schema() AND NOT t.tgisinternal AND starts_with(t.tgname, ?)
            """, arguments: [prefix]).map { ($0.string("name"), $0.string("tbl"), $0.string("definition")) }
    }

    /// Runs a simple command (BEGIN, COMMIT, ROLLBACK) outside the statement cache. A BEGIN never
    /// waits on anyone's lock, so a server that has not answered it within `answer` seconds is
    /// not answering at all: the connection is given up and the caller gets a prompt 503.
    func command(_ sql: String, answerWithin answer: TimeInterval? = nil) throws {
        let result = try awaitResult(PQsendQuery(handle, sql), within: answer ?? timeouts.statementAnswer)
        defer { PQclear(result) }
        try check(result, sql: sql)
    }

    private func run(_ sql: String, _ bindings: SQLBindings, refusingWrites: Bool) throws -> OpaquePointer {
        let statement = try prepare(sql, bindings)
        if refusingWrites && !statement.isReadOnly { throw KernelError.storage("attempt to write a readonly database") }
        let values: [String?] = statement.parameters.map { parameter in
            let value: SQLValue
            switch parameter {
            case .positional(let index): value = index < bindings.positional.count ? bindings.positional[index] : .null
            case .named(let name): value = bindings.named[name] ?? .null
            }
            return Self.text(value)
        }
        let sent = Self.withCStrings(values) { pointers in
            PQsendQueryPrepared(handle, statement.name, Int32(values.count), pointers, nil, nil, 0)
        }
        let result = try awaitResult(sent, within: timeouts.statementAnswer)
        do {
            try check(result, sql: sql)
        } catch {
            PQclear(result)
            throw error
        }
        lastChanged = Int(String(cString: PQcmdTuples(result))) ?? 0
        return result
    }

    /// The statement prepared for `sql` on this connection. Parameter types are left for the
    /// server to infer from where each is used; where it cannot (`? IS NULL` alone), they are
    /// taken from the first values bound.
    private func prepare(_ sql: String, _ bindings: SQLBindings) throws -> Prepared {
        if let known = prepared[sql] { return known }
        let (text, parameters) = PostgresSQL.numbered(sql)
        let name = "s\(prepared.count + 1)"
        // A failed prepare aborts the transaction it runs in: a savepoint lets the retry run.
        let inTransaction = PQtransactionStatus(handle) == PQTRANS_INTRANS
        if inTransaction { try command("SAVEPOINT hogwarts_prepare") }
        let byValue: [Oid] = parameters.map { parameter in
            let value: SQLValue
            switch parameter {
            case .positional(let index): value = index < bindings.positional.count ? bindings.positional[index] : .null
            case .named(let key): value = bindings.named[key] ?? .null
            }
            switch value {
            case .integer: return 20
            case .real: return 701
            case .blob: return 17
            case .text, .null: return 25
            }
        }
        var result: OpaquePointer?
        if Self.testsParameterForNull(text) {
            // `(:day IS NULL OR t.day = :day)`: without types the server fails it ("could not
            // determine data type", logged as an ERROR on every connection), so they are given.
            result = PQprepare(handle, name, text, Int32(parameters.count), try inferredTypes(text, byValue: byValue, inTransaction: inTransaction))
        } else {
            result = PQprepare(handle, name, text, Int32(parameters.count), nil)
            if PQresultStatus(result) != PGRES_COMMAND_OK, let code = Self.errorCode(result), code == "42P18" || code == "42P08" {
                // "could not determine data type of parameter" elsewhere: say what the types are.
                PQclear(result)
                if inTransaction { try command("ROLLBACK TO SAVEPOINT hogwarts_prepare") }
                result = PQprepare(handle, name, text, Int32(parameters.count), try inferredTypes(text, byValue: byValue, inTransaction: inTransaction))
            }
        }
        if inTransaction && PQresultStatus(result) == PGRES_COMMAND_OK { try command("RELEASE SAVEPOINT hogwarts_prepare") }
        defer { PQclear(result) }
        try check(result, sql: sql)
        let statement = Prepared(name: name, parameters: parameters, isReadOnly: Self.isReadOnly(text))
        prepared[sql] = statement
        return statement
    }

    /// The parameters' types where PostgreSQL cannot infer them alone: `(:day IS NULL OR t.day = :day)`
    /// tests the parameter before it is compared, and PostgreSQL types a parameter where it first
    /// meets it. A probe without the bare `$n IS [NOT] NULL` tests lets the comparisons type each
    /// one; a parameter the probe leaves untyped (or a probe that fails) takes its value's type.
    private func inferredTypes(_ text: String, byValue: [Oid], inTransaction: Bool) throws -> [Oid] {
        let probe = text.replacingOccurrences(of: Self.nullTest, with: "TRUE", options: [.regularExpression, .caseInsensitive])
        guard probe != text else { return byValue }
        // A parameter only ever tested for NULL is gone from the probe: its value's type holds it.
        let hints: [Oid] = byValue.indices.map { index in
            probe.range(of: "\\$\(index + 1)(?![0-9])", options: .regularExpression) == nil ? byValue[index] : 0
        }
        let prepared = PQprepare(handle, "", probe, Int32(hints.count), hints)
        defer { PQclear(prepared) }
        guard PQresultStatus(prepared) == PGRES_COMMAND_OK else {
            if inTransaction { try command("ROLLBACK TO SAVEPOINT hogwarts_prepare") }
            return byValue
        }
        let described = PQdescribePrepared(handle, "")
        defer { PQclear(described) }
        guard PQresultStatus(described) == PGRES_COMMAND_OK, Int(PQnparams(described)) == hints.count else { return byValue }
        return hints.indices.map { index in
            let inferred = PQparamtype(described, Int32(index))
            return inferred == 0 ? byValue[index] : inferred
        }
    }

    /// A bare `$n IS [NOT] NULL`, which gives the server no type for `$n`.
    private static let nullTest = #"\$[0-9]+\s+IS\s+(NOT\s+)?NULL\b"#

    static func testsParameterForNull(_ text: String) -> Bool {
        text.range(of: nullTest, options: [.regularExpression, .caseInsensitive]) != nil
    }

    /// Whether a statement only reads: its first word, past any `WITH` clause, is SELECT (or VALUES).
    static func isReadOnly(_ sql: String) -> Bool {
        let words = sql.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "(" }).map { $0.uppercased() }
        guard let first = words.first else { return true }
        if first == "SELECT" || first == "VALUES" || first == "SHOW" { return true }
        if first == "WITH" {
            return !words.contains { ["INSERT", "UPDATE", "DELETE"].contains($0) }
        }
        return false
    }

    private func check(_ result: OpaquePointer?, sql: String) throws {
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || status == PGRES_EMPTY_QUERY else {
            let detail = (result.flatMap { PQresultErrorMessage($0) }.map { String(cString: $0) } ?? Self.message(handle))
                .trimmingCharacters(in: .whitespacesAndNewlines)
            if PQstatus(handle) != CONNECTION_OK || Self.isTransient(Self.errorCode(result)) { throw KernelError.databaseUnavailable(detail) }
            throw KernelError.storage(detail)
        }
    }

    /// SQLSTATEs that say "not now" rather than "never": the connection is gone (08), a timeout
    /// (55P03 lock, 57014 statement, 25P03 idle in transaction), the server is shutting down or
    /// starting (57P0x), a standby refusing a write after failover (25006), or a deadlock (40P01).
    static func isTransient(_ code: String?) -> Bool {
        guard let code else { return false }
        return code.hasPrefix("08") || code.hasPrefix("57P") || ["55P03", "57014", "25P03", "25006", "40P01", "40001"].contains(code)
    }

    private static func errorCode(_ result: OpaquePointer?) -> String? {
        guard let result, let code = PQresultErrorField(result, Int32(UInt8(ascii: "C"))) else { return nil }
        return String(cString: code)
    }

    static func message(_ handle: OpaquePointer) -> String {
        String(cString: PQerrorMessage(handle)).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A value as PostgreSQL's text input reads it; nil for NULL.
    static func text(_ value: SQLValue) -> String? {
        switch value {
        case .null: nil
        case .integer(let number): String(number)
        case .real(let number): String(number)
        case .text(let text): text
        case .blob(let data): "\\x" + data.map { String(format: "%02x", $0) }.joined()
        }
    }

    private static func withCStrings<R>(_ values: [String?], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
        let storage: [UnsafeMutablePointer<CChar>?] = values.map { $0.flatMap { strdup($0) } }
        defer { storage.forEach { free($0) } }
        return body(storage.map { $0.map { UnsafePointer($0) } })
    }
}

/// One row of a libpq result, read in place.
struct PostgresColumns: SQLColumnSource {
    let result: OpaquePointer
    let rowIndex: Int32
    let types: [Oid]

    private func raw(_ index: Int) -> String? {
        let column = Int32(index)
        guard PQgetisnull(result, rowIndex, column) == 0 else { return nil }
        return String(cString: PQgetvalue(result, rowIndex, column))
    }

    func text(_ index: Int) -> String? {
        guard let raw = raw(index) else { return nil }
        return types[index] == 16 ? (raw == "t" ? "1" : "0") : raw
    }

    func integer(_ index: Int) -> Int? {
        guard let raw = raw(index) else { return nil }
        if types[index] == 16 { return raw == "t" ? 1 : 0 }
        return Int(raw) ?? Double(raw).map { Int($0) }
    }

    func double(_ index: Int) -> Double? {
        raw(index).flatMap(Double.init)
    }

    func value(_ index: Int) -> SQLValue {
        guard let raw = raw(index) else { return .null }
        switch types[index] {
        case 16: return .integer(raw == "t" ? 1 : 0)
        case 20, 21, 23, 26: return Int64(raw).map(SQLValue.integer) ?? .text(raw)
        case 700, 701: return Double(raw).map(SQLValue.real) ?? .text(raw)
        // numeric: SUM and AVG of integers; a whole number stays an integer, as SQLite gives it.
        case 1700: return Int64(raw).map(SQLValue.integer) ?? Double(raw).map(SQLValue.real) ?? .text(raw)
        case 17: return .blob(Self.bytes(fromHex: raw))
        default: return .text(raw)
        }
    }

    var row: SQLRow {
        // Sized once: grown a column at a time, a row's dictionary was resized several times.
        var columns = [String: SQLValue](minimumCapacity: types.count)
        for index in 0..<types.count {
            columns[String(cString: PQfname(result, Int32(index)))] = value(index)
        }
        return SQLRow(columns: columns)
    }

    private static func bytes(fromHex text: String) -> Data {
        var data = Data()
        let digits = Array(text.utf8.dropFirst(2))
        data.reserveCapacity(digits.count / 2)
        var index = 0
        func nibble(_ byte: UInt8) -> UInt8 { byte <= 0x39 ? byte - 0x30 : (byte | 0x20) - 0x61 + 10 }
        while index + 1 < digits.count {
            data.append(nibble(digits[index]) << 4 | nibble(digits[index + 1]))
            index += 2
        }
        return data
    }
}
