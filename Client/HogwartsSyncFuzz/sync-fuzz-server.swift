import Attendance
import Auth
import Core
import Foundation
import GRDB
import Grades
import Messages
import Students
import Timetable

/// The server side of a fuzz run: the demo schools in a temporary database, a kernel that can be
/// restarted on the same file, and the ledger and tables read straight from the database.
public final class FuzzServer: @unchecked Sendable {
    public let databasePath: String
    /// The first demo school, where every device signs in (some demo emails exist in both schools).
    public let schoolID: String
    private let directory: URL

    /// Every module that shares data with offline apps.
    public static func modules() -> [any AppModule] {
        [AuthModule(), StudentsModule(), TimetableModule(), AttendanceModule(), GradesModule(), MessagesModule()]
    }

    public init() throws {
        directory = FileManager.default.temporaryDirectory.appending(path: "hogwarts-sync-fuzz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        databasePath = directory.appending(path: "hogwarts.sqlite").path
        let kernel = try Kernel(databasePath: databasePath, modules: Self.modules(), language: .en)
        try kernel.migrate()
        let schools = try kernel.createDemoSchools()
        for school in schools { try kernel.activateSync(school.id) }
        guard let first = schools.first else { throw FuzzSetupError.noDemoSchool }
        schoolID = first.id
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// A server process starting: a new kernel and router on the same database file.
    public func start() throws -> RouterTransport {
        RouterTransport(kernel: try Kernel(databasePath: databasePath, modules: Self.modules(), language: .en))
    }

    /// The server's sync ledger for one client: (seq, mutation id, status), in seq order.
    public func ledger(of clientID: String) throws -> [(seq: Int64, id: String, status: String)] {
        try reader().read { db in
            try Row.fetchAll(db, sql: "SELECT mutation_seq, mutation_id, status FROM kernel_sync_mutations WHERE client_id = ? ORDER BY mutation_seq",
                             arguments: [clientID]).map { ($0["mutation_seq"], $0["mutation_id"], $0["status"]) }
        }
    }

    /// How many messages carry each client id, read straight from the server's database once.
    public func messageCopies() throws -> [String: Int] {
        try reader().read { db in
            var copies: [String: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT client_id, COUNT(*) AS copies FROM messages_messages WHERE client_id IS NOT NULL GROUP BY client_id") {
                copies[row["client_id"]] = row["copies"]
            }
            return copies
        }
    }

    /// Why the server refused mutations, by error code, over every client.
    public func rejections() throws -> [String: Int] {
        try reader().read { db in
            var codes: [String: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT COALESCE(error_code, '?') AS code, COUNT(*) AS n FROM kernel_sync_mutations WHERE status = 'rejected' GROUP BY 1") {
                codes[row["code"]] = row["n"]
            }
            return codes
        }
    }

    /// A count read straight from the server's database.
    public func count(_ sql: String, _ arguments: StatementArguments = []) throws -> Int {
        try reader().read { db in try Int.fetchOne(db, sql: sql, arguments: arguments) ?? 0 }
    }

    private func reader() throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        return try DatabaseQueue(path: databasePath, configuration: configuration)
    }
}

enum FuzzSetupError: Error, CustomStringConvertible {
    case noDemoSchool
    var description: String { "the demo created no school: run `hogwarts demo` by hand to see why" }
}
