import CLibPQ
import Foundation

/// libpq synchronously, as Core's PostgreSQL engine uses it: the statement prepared once on the
/// connection, each row one `PQexecPrepared` with its values as text, BEGIN and COMMIT as commands.
final class LibPQDriver: DayDriver {
    let name = "libpq (synchronous, as the engine)"
    private let handle: OpaquePointer
    private var prepared = false

    init(url: String, schema: String) throws {
        guard let handle = PQconnectdb(url) else { throw DriverError(description: "libpq: out of memory") }
        guard PQstatus(handle) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(handle))
            PQfinish(handle)
            throw DriverError(description: "libpq: \(message)")
        }
        self.handle = handle
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
        try command("SET search_path TO \(schema)")
    }

    func close() { PQfinish(handle) }

    func command(_ sql: String) throws {
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        try check(result)
    }

    func upsert(_ parameters: [String]) throws {
        if !prepared {
            let result = PQprepare(handle, "upsert", AttendanceDay.upsert, Int32(parameters.count), nil)
            defer { PQclear(result) }
            try check(result)
            prepared = true
        }
        // As the engine does: each value copied to a C string for the call.
        let storage = parameters.map { strdup($0) }
        defer { storage.forEach { free($0) } }
        let pointers: [UnsafePointer<CChar>?] = storage.map { $0.map { UnsafePointer($0) } }
        let result = PQexecPrepared(handle, "upsert", Int32(pointers.count), pointers, nil, nil, 0)
        defer { PQclear(result) }
        try check(result)
    }

    private func check(_ result: OpaquePointer?) throws {
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let message = result.flatMap { PQresultErrorMessage($0) }.map { String(cString: $0) } ?? String(cString: PQerrorMessage(handle))
            throw DriverError(description: "libpq: \(message)")
        }
    }
}
