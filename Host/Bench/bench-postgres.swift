import CLibPQ
import Foundation

/// The PostgreSQL floors' connection: libpq directly (the driver Core's PostgreSQL engine uses),
/// without the platform. As the engine does, each statement is prepared once on the connection
/// and run with its values as text, and `?` placeholders become `$1`, `$2`, ...
final class BenchPostgres {
    private let handle: OpaquePointer
    private var prepared: [String: String] = [:]

    init(url: String) throws {
        var why: UnsafePointer<CChar>?
        guard clibpq_load(&why) == 0 else { throw BenchError.failed("libpq: \(why.map { String(cString: $0) } ?? "not found")") }
        guard let handle = PQconnectdb(url) else { throw BenchError.failed("out of memory") }
        guard PQstatus(handle) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(handle))
            PQfinish(handle)
            throw BenchError.failed(message)
        }
        self.handle = handle
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
    }

    deinit { PQfinish(handle) }

    /// A statement outside the statement cache (BEGIN, COMMIT, DDL).
    func command(_ sql: String) throws {
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        try check(result)
    }

    /// `work` in one transaction, committed when it returns, rolled back when it throws.
    func transaction<T>(readOnly: Bool = false, _ work: () throws -> T) throws -> T {
        // Reads as the engine reads: one REPEATABLE READ snapshot.
        try command(readOnly ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN")
        do {
            let result = try work()
            try command("COMMIT")
            return result
        } catch {
            try? command("ROLLBACK")
            throw error
        }
    }

    func execute(_ sql: String, _ values: [String?]) throws {
        PQclear(try run(sql, values))
    }

    /// Every row, each column as text (nil for NULL).
    func rows(_ sql: String, _ values: [String?]) throws -> [[String?]] {
        let result = try run(sql, values)
        defer { PQclear(result) }
        let columns = PQnfields(result)
        return (0..<PQntuples(result)).map { row in
            (0..<columns).map { column in
                PQgetisnull(result, row, column) == 0 ? String(cString: PQgetvalue(result, row, column)) : nil
            }
        }
    }

    private func run(_ sql: String, _ values: [String?]) throws -> OpaquePointer {
        let name = try statement(sql)
        let storage = values.map { $0.flatMap { strdup($0) } }
        defer { storage.forEach { free($0) } }
        let pointers: [UnsafePointer<CChar>?] = storage.map { $0.map { UnsafePointer($0) } }
        guard let result = PQexecPrepared(handle, name, Int32(pointers.count), pointers, nil, nil, 0) else {
            throw BenchError.failed(String(cString: PQerrorMessage(handle)))
        }
        do {
            try check(result)
        } catch {
            PQclear(result)
            throw error
        }
        return result
    }

    private func statement(_ sql: String) throws -> String {
        if let name = prepared[sql] { return name }
        let name = "b\(prepared.count + 1)"
        var text = ""
        var number = 0
        for character in sql {
            if character == "?" {
                number += 1
                text += "$\(number)"
            } else {
                text.append(character)
            }
        }
        let result = PQprepare(handle, name, text, 0, nil)
        defer { PQclear(result) }
        try check(result)
        prepared[sql] = name
        return name
    }

    private func check(_ result: OpaquePointer?) throws {
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            throw BenchError.failed(result.flatMap { PQresultErrorMessage($0) }.map { String(cString: $0) } ?? String(cString: PQerrorMessage(handle)))
        }
    }
}

enum BenchError: Error, CustomStringConvertible {
    case failed(String)
    case sqliteOnly(String)
    case commandFailed(String, [String], String)

    var description: String {
        switch self {
        case .failed(let message): "PostgreSQL: \(message.trimmingCharacters(in: .whitespacesAndNewlines))"
        case .sqliteOnly(let what): "\(what) runs on SQLite only: run it without --database postgres://..."
        case .commandFailed(let command, let arguments, let stderr): "cold start: `\(command) \(arguments.joined(separator: " "))` failed: \(stderr)"
        }
    }
}
