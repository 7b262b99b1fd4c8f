import Core
import Foundation
import GRDB
import Hummingbird
import JWTKit
import NIOCore
import Synchronization

/// The bulk attendance write without the platform: the JWT checked with jwt-kit, the body
/// decoded with `JSONDecoder`, then one transaction through GRDB's own writer (`async write`,
/// one commit and fsync per request, as a plain server would; `synchronous = FULL` as the
/// platform): the class's enrolled students, the class's records of the day, one multi-row
/// upsert of every record and one insert of the changed ones' history, the same rows in the
/// same tables as the platform's write (so the sync triggers fire for both); the answer by
/// `JSONEncoder`. No permission, module switch, teacher check, edit window, audit row or log
/// line. Its body and answer types are its own, not the Attendance module's: it is the write
/// without the platform.
struct BareBulkWrite: Sendable {
    let database: DatabasePool
    let keys: JWTKeyCollection

    static func make(databasePath: String, kernel: Kernel) throws -> BareBulkWrite {
        // The platform's durability: every commit waits for the disk (GRDB's WAL default, NORMAL, does not).
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        let database = try DatabasePool(path: databasePath, configuration: configuration)
        return BareBulkWrite(database: database, keys: try FloorKeys.load(kernel))
    }

    func respond(to request: Request) async throws -> Response {
        guard let claims = await FloorKeys.accessClaims(request, keys) else { return FloorKeys.status(.unauthorized) }
        let buffer = try await request.body.collect(upTo: 1 << 20)
        guard let body = try? JSONDecoder().decode(BulkBody.self, from: Data(buffer: buffer)),
              (1...500).contains(body.records.count) else { return FloorKeys.status(.badRequest) }
        let (school, teacher) = (claims.schoolID, claims.sub.value)
        let markedAt = Self.timestamp.withLock { $0.string(from: Date()) }
        let written = try await database.write { db in try Self.write(body, school: school, by: teacher, at: markedAt, db) }
        guard let written else { return FloorKeys.status(.notFound) }
        let answer = try JSONEncoder().encode(Answer(count: written.count, records: written))
        var response = Response(status: .ok, body: .init(byteBuffer: ByteBuffer(bytes: answer)))
        response.headers[.contentType] = "application/json; charset=utf-8"
        return response
    }

    /// The records as written, or nil when a student is not in the class (nothing written).
    private static func write(_ body: BulkBody, school: String, by teacher: String, at markedAt: String, _ db: Database) throws -> [Answer.Record]? {
        let enrolled = Set(try String.fetchAll(db.cachedStatement(sql: enrolledSQL), arguments: [school, body.sectionID]))
        guard body.records.allSatisfy({ enrolled.contains($0.studentID) }) else { return nil }
        var existing: [String: (id: String, status: String)] = [:]
        for row in try Row.fetchAll(db.cachedStatement(sql: recordsSQL), arguments: [school, body.sectionID, body.date]) {
            existing[row[0]] = (row[1], row[2])
        }
        var upsert: [(any DatabaseValueConvertible)?] = []
        var changes: [(any DatabaseValueConvertible)?] = []
        var written: [Answer.Record] = []
        for record in body.records {
            let before = existing[record.studentID]
            let id = before?.id ?? UUID().uuidString.lowercased()
            upsert += [school, id, record.studentID, body.sectionID, body.date, record.status, teacher, markedAt, record.notes]
            if let before, before.status != record.status { changes += [school, id, before.status, record.status, teacher, markedAt] }
            written.append(.init(id: id, studentId: record.studentID, status: record.status))
        }
        try db.cachedStatement(sql: upsertSQL(body.records.count)).execute(arguments: StatementArguments(upsert))
        if !changes.isEmpty {
            try db.cachedStatement(sql: changesSQL(changes.count / 6)).execute(arguments: StatementArguments(changes))
        }
        return written
    }

    private static let enrolledSQL = "SELECT student_id FROM students_enrolments WHERE school_id = ? AND class_id = ?"
    private static let recordsSQL = "SELECT student_id, id, status FROM attendance_records WHERE school_id = ? AND class_id = ? AND date = ? AND period = 'DAY'"

    private static func upsertSQL(_ count: Int) -> String {
        let values = Array(repeating: "(?, ?, ?, ?, ?, 'DAY', ?, 'MANUAL', ?, ?, ?)", count: count).joined(separator: ", ")
        return """
            INSERT INTO attendance_records (school_id, id, student_id, class_id, date, period, status, method, marked_by, marked_at, notes)
            VALUES \(values)
            ON CONFLICT (school_id, student_id, date, period) DO UPDATE SET
                status = excluded.status, method = excluded.method, class_id = excluded.class_id,
                marked_by = excluded.marked_by, marked_at = excluded.marked_at, notes = excluded.notes
            """
    }

    private static func changesSQL(_ count: Int) -> String {
        "INSERT INTO attendance_changes (school_id, record_id, previous_status, status, changed_by, changed_at) VALUES "
            + Array(repeating: "(?, ?, ?, ?, ?, ?)", count: count).joined(separator: ", ")
    }

    /// Timestamps as the platform stores them (ISO 8601, UTC, milliseconds).
    private static let timestamp = Mutex<ISO8601DateFormatter>({
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }())

    struct BulkBody: Decodable {
        let sectionID: String
        let date: String
        let records: [Record]

        struct Record: Decodable {
            let studentID: String
            let status: String
            let notes: String?

            enum CodingKeys: String, CodingKey {
                case status, notes
                case studentID = "student_id"
            }
        }

        enum CodingKeys: String, CodingKey {
            case records, date
            case sectionID = "section_id"
        }
    }

    struct Answer: Encodable {
        let count: Int
        let records: [Record]

        struct Record: Encodable {
            let id: String
            let studentId: String
            let status: String

            enum CodingKeys: String, CodingKey {
                case id, status
                case studentId = "student_id"
            }
        }
    }
}
