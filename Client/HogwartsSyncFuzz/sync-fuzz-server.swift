import Attendance
import Auth
import Core
import Foundation
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

    /// - Parameter database: a PostgreSQL URL to run on, or nil for a SQLite file in a folder of its own.
    public init(database: String? = nil) throws {
        directory = FileManager.default.temporaryDirectory.appending(path: "hogwarts-sync-fuzz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        databasePath = database ?? directory.appending(path: "hogwarts.sqlite").path
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
        try Self.ledger(of: clientID, in: databasePath)
    }

    /// The sync ledger of one client in the database at `location` (a fuzz run's or a test's server).
    public static func ledger(of clientID: String, in location: String) throws -> [(seq: Int64, id: String, status: String)] {
        try DatabaseProbe.strings("""
            SELECT CAST(mutation_seq AS TEXT) || '|' || mutation_id || '|' || status FROM kernel_sync_mutations
            WHERE client_id = ? ORDER BY mutation_seq
            """, [clientID], in: location).map { line in
            let parts = fields(line)
            return (Int64(parts[0]) ?? -1, parts[1], parts[2])
        }
    }

    /// How many messages carry each client id, read straight from the server's database once.
    public func messageCopies() throws -> [String: Int] {
        try counts("SELECT client_id || '|' || CAST(COUNT(*) AS TEXT) FROM messages_messages WHERE client_id IS NOT NULL GROUP BY client_id")
    }

    /// Why the server refused mutations, by error code, over every client.
    public func rejections() throws -> [String: Int] {
        try counts("""
            SELECT COALESCE(error_code, '?') || '|' || CAST(COUNT(*) AS TEXT) FROM kernel_sync_mutations
            WHERE status = 'rejected' GROUP BY COALESCE(error_code, '?')
            """)
    }

    /// A count read straight from the server's database.
    public func count(_ sql: String) throws -> Int {
        try Self.count(sql, in: databasePath)
    }

    /// `COUNT(*)` of `sql`, its `?`s bound to `arguments`, in the database at `location`.
    public static func count(_ sql: String, _ arguments: [String] = [], in location: String) throws -> Int {
        try DatabaseProbe.strings("SELECT CAST((\(sql)) AS TEXT)", arguments, in: location).first.flatMap { Int($0) } ?? 0
    }

    /// `key|count` rows as a dictionary.
    private func counts(_ sql: String) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for line in try DatabaseProbe.strings(sql, in: databasePath) {
            let parts = Self.fields(line)
            counts[parts[0]] = Int(parts[1]) ?? 0
        }
        return counts
    }

    /// The `|`-separated fields of a row, padded to three.
    private static func fields(_ line: String) -> [String] {
        let parts = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        return parts + Array(repeating: "", count: max(0, 3 - parts.count))
    }
}

enum FuzzSetupError: Error, CustomStringConvertible {
    case noDemoSchool
    var description: String { "the demo created no school: run `hogwarts demo` by hand to see why" }
}
