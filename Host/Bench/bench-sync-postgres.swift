import Core
import Foundation

/// The offline sync floors on PostgreSQL: the same rows and reads as the SQLite floors in
/// bench-sync.swift, through libpq (`BenchPostgres`) without the platform.
extension BenchSchool {
    /// One mutation's rows (see the SQLite `syncPushFloor`), inside the caller's transaction.
    func syncPushFloor(_ db: BenchPostgres, seq: Int, classID: String, students: [String], date: String, period: String) throws {
        let school = "floor-sync"
        let upsert = """
            INSERT INTO attendance_records (school_id, id, student_id, class_id, date, period, status, method, marked_by, marked_at)
            VALUES (?, ?, ?, ?, ?, ?, 'PRESENT', 'MANUAL', 'teacher-0', '2026-11-22T06:00:00.000Z')
            ON CONFLICT (school_id, student_id, date, period) DO UPDATE SET status = excluded.status, marked_at = excluded.marked_at
            """
        let change = """
            INSERT INTO kernel_sync_changes (school_id, seq, scope_key, entity_type, entity_id, op, payload, origin_client_id, origin_mutation_seq)
            VALUES (?, ?, ?, 'attendance.record', ?, 'upsert', ?, 'floor-client', ?)
            """
        var changeSeq = try db.rows("SELECT seq FROM kernel_sync_clock WHERE school_id = ?", [school]).first.flatMap { $0[0].flatMap { Int($0) } } ?? 0
        for student in students {
            let id = "\(student)\(date)\(period)"
            try db.execute(upsert, [school, id, student, classID, date, period])
            changeSeq += 1
            let payload = """
                {"id":"\(id)","studentId":"\(student)","classId":"\(classID)","date":"\(date)","period":"\(period)","status":"PRESENT",\
                "note":null,"method":"MANUAL","markedBy":"teacher-0","markedAt":"2026-11-22T06:00:00.000Z"}
                """
            for key in ["class:\(classID)", "student:\(student)", "attendance:all"] {
                try db.execute(change, [school, String(changeSeq), key, id, payload, String(seq)])
            }
        }
        try db.execute("INSERT INTO kernel_sync_clock (school_id, seq) VALUES (?, ?) ON CONFLICT (school_id) DO UPDATE SET seq = excluded.seq",
                       [school, String(changeSeq)])
        try db.execute("""
            INSERT INTO kernel_sync_mutations (client_id, mutation_seq, mutation_id, name, status, result, at)
            VALUES ('floor-client', ?, ?, 'attendance.take@1', 'applied', '{}', '2026-11-22T06:00:00.000Z')
            """, [String(seq), "floor-\(seq)"])
        try db.execute("""
            INSERT INTO kernel_sync_clients (client_id, school_id, user_id, last_mutation_seq, created_at, last_seen_at)
            VALUES ('floor-client', ?, 'teacher-0', ?, '2026-11-22T06:00:00.000Z', '2026-11-22T06:00:00.000Z')
            ON CONFLICT (client_id) DO UPDATE SET last_mutation_seq = excluded.last_mutation_seq
            """, [school, String(seq)])
    }

    /// The teacher's change rows in pages, in one read snapshot; returns how many were read.
    /// The scope keys travel as a JSON array, as on SQLite (`jsonb_array_elements_text` for `json_each`).
    func syncPullFloor(_ db: BenchPostgres, keys: [String]) throws -> Int {
        try db.transaction(readOnly: true) {
            var count = 0
            var after = 0
            while true {
                let rows = try db.rows("""
                    SELECT seq, entity_type, entity_id, op, payload FROM kernel_sync_changes
                    WHERE school_id = ? AND scope_key IN (SELECT jsonb_array_elements_text(CAST(? AS jsonb))) AND seq > ? ORDER BY seq LIMIT ?
                    """, [school.id, SyncScope.json(keys), String(after), String(SyncProtocol.defaultLimit)])
                count += rows.count
                guard rows.count == SyncProtocol.defaultLimit, let last = rows.last?[0].flatMap({ Int($0) }) else { break }
                after = last
            }
            return count
        }
    }
}
