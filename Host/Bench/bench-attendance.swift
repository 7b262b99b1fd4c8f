import Attendance
import Core
import Foundation
import GRDB

/// The attendance scenarios: a whole day taken register by register and as one batch, each
/// beside its floor, and the whole school's statistics over a term's history.
extension BenchSchool {
    /// Every student in every period, class by class, as teachers do it (one action and one
    /// commit per register), beside the floor that also commits once per register; `pass` 2 is
    /// the update path.
    func attendanceDay(pass: Int) throws -> Figure {
        var rows = 0
        let ours = try Clock.time {
            for code in classCodes {
                for period in Self.periods {
                    let result = try run(TakeAttendance.self, .init(classCode: code, period: period, marks: marks(pass: pass)))
                    rows += result.totals.counted
                }
            }
        }
        let oursPeak = Clock.lastPeakMegabytes
        let members = try classMembers()
        let floor = try Clock.time {
            for students in members.values {
                for period in Self.periods {
                    if let postgres {
                        try postgres.transaction { try upsertFloor(postgres, school: "floor-register", students: students, periods: [period], pass: pass) }
                    } else {
                        try raw.write { db in try upsertFloor(db, school: "floor-register", students: students, periods: [period], pass: pass) }
                    }
                }
            }
        }
        let floorPeak = Clock.lastPeakMegabytes
        return Figure(scenario: "attendance day, \(classCodes.count) classes x 8 periods, one action per register\(pass == 1 ? "" : ", again (update)")",
                      rows: rows, seconds: ours, floorSeconds: floor, floorKind: "one commit per register", target: "2x",
                      oursPeakMegabytes: oursPeak, floorPeakMegabytes: floorPeak)
    }

    /// The whole day as one batch action (`attendance.take-batch`: every register in one
    /// transaction, all or nothing), beside the one-transaction floor (the same rows with one
    /// prepared statement and one commit). It marks the previous school day, so that its first
    /// pass is a first marking too.
    func attendanceDayOneTransaction(pass: Int) throws -> Figure {
        let students = try store.rows("SELECT id FROM students_students WHERE school_id = ?", [school.id]).map { $0[0] }
        let floor = try Clock.time {
            if let postgres {
                try postgres.transaction { try upsertFloor(postgres, school: "floor", students: students, periods: Self.periods, pass: pass) }
            } else {
                try raw.write { db in try upsertFloor(db, school: "floor", students: students, periods: Self.periods, pass: pass) }
            }
        }
        let floorPeak = Clock.lastPeakMegabytes
        var day = CivilDate(Date(), in: TimeZone(identifier: school.timeZone) ?? .gmt).adding(days: -1)
        while day.weekday > 4 { day = day.adding(days: -1) }
        let registers = classCodes.flatMap { code in
            Self.periods.map { TakeAttendance.Input(classCode: code, date: day.description, period: $0, marks: marks(pass: pass)) }
        }
        var rows = 0
        let ours = try Clock.time {
            rows = try run(TakeRegisters.self, .init(registers: registers)).registers.reduce(0) { $0 + $1.totals.counted }
        }
        return Figure(scenario: "attendance day, \(classCodes.count) classes x 8 periods, one batch action\(pass == 1 ? "" : ", again (update)")",
                      rows: rows, seconds: ours, floorSeconds: floor, floorKind: "one transaction", target: "3x",
                      oursPeakMegabytes: Clock.lastPeakMegabytes, floorPeakMegabytes: floorPeak)
    }

    private func marks(pass: Int) -> [AttendanceMark] {
        [AttendanceMark(student: String(1 + pass), status: pass == 1 ? .absent : .late)]
    }

    /// Each class's student ids by class code, in one read (not measured).
    func classMembers() throws -> [String: [String]] {
        let rows = try store.rows("""
            SELECT c.code, e.student_id FROM students_enrolments e JOIN students_classes c ON c.school_id = e.school_id AND c.id = e.class_id
            WHERE e.school_id = ?
            """, [school.id])
        var members: [String: [String]] = [:]
        for row in rows { members[row[0], default: []].append(row[1]) }
        return members
    }

    func upsertFloor(_ db: Database, school: String, students: [String], periods: [String], pass: Int) throws {
        let upsert = try db.cachedStatement(sql: """
            INSERT INTO attendance_records (school_id, id, student_id, class_id, date, period, status, method, marked_by, marked_at)
            VALUES (?, ?, ?, 'c', '2026-11-22', ?, ?, 'MANUAL', 'bench', '2026-11-22T06:00:00.000Z')
            ON CONFLICT (school_id, student_id, date, period) DO UPDATE SET status = excluded.status, marked_at = excluded.marked_at
            """)
        for student in students {
            for period in periods { try upsert.execute(arguments: [school, "\(student)\(period)", student, period, pass == 1 ? "PRESENT" : "LATE"]) }
        }
    }

    /// The same upsert and rows through libpq (Benchmarks/postgres-drivers runs this day through PostgresNIO too).
    func upsertFloor(_ db: BenchPostgres, school: String, students: [String], periods: [String], pass: Int) throws {
        let upsert = """
            INSERT INTO attendance_records (school_id, id, student_id, class_id, date, period, status, method, marked_by, marked_at)
            VALUES (?, ?, ?, 'c', '2026-11-22', ?, ?, 'MANUAL', 'bench', '2026-11-22T06:00:00.000Z')
            ON CONFLICT (school_id, student_id, date, period) DO UPDATE SET status = excluded.status, marked_at = excluded.marked_at
            """
        for student in students {
            for period in periods { try db.execute(upsert, [school, "\(student)\(period)", student, period, pass == 1 ? "PRESENT" : "LATE"]) }
        }
    }

    /// Writes `statsDays` school days of whole-day history (setup, not measured).
    func seedAttendanceHistory() throws -> (from: String, to: String) {
        let today = CivilDate(Date(), in: TimeZone(identifier: school.timeZone) ?? .gmt)
        var days: [CivilDate] = []
        var day = today.adding(days: -1)
        while days.count < scale.statsDays {
            if day.weekday <= 4 { days.append(day) }
            day = day.adding(days: -1)
        }
        // Class by class, each student's days, with ids in insertion order: every index is then
        // written near where it was last written. Random ids in student order made each row a
        // random page of the primary key and the class index, which at 100,000 students (9
        // million rows) outgrew SQLite's page cache: 20 minutes and 5 GB of WAL without finishing.
        let students = try store.rows("SELECT student_id, class_id FROM students_enrolments WHERE school_id = ? ORDER BY class_id", [school.id])
        var random = DemoRandom(seed: 5)
        var sequence = 0
        try store.write { db in
            let insert = """
                INSERT INTO attendance_records (school_id, id, student_id, class_id, date, period, status, method, marked_by, marked_at)
                VALUES (?, ?, ?, ?, ?, 'DAY', ?, 'MANUAL', 'bench', '2026-08-01T00:00:00.000Z')
                """
            for student in students {
                for day in days {
                    let roll = random.next() % 100
                    let status = roll < 4 ? "ABSENT" : roll < 9 ? "LATE" : roll < 10 ? "SICK" : "PRESENT"
                    sequence += 1
                    try db.execute(insert, [school.id, String(format: "history-%09d", sequence), student[0], student[1], day.description, status])
                }
            }
        }
        try store.checkpoint()
        return (days.last?.description ?? "", days.first?.description ?? "")
    }

    func attendanceStats(from: String, to: String) throws -> Figure {
        var rows = 0
        let ours = try Clock.time {
            rows = try run(AttendanceStats.self, .init(from: from, to: to)).school.totals.counted + 0
        }
        let oursPeak = Clock.lastPeakMegabytes
        let floor = try Clock.time {
            try floorRead("SELECT student_id, status, COUNT(*) FROM attendance_records WHERE school_id = ? AND date >= ? AND date <= ? GROUP BY student_id, status",
                          [school.id, from, to])
        }
        return Figure(scenario: "attendance stats, whole school, \(scale.statsDays) days", rows: rows, seconds: ours, floorSeconds: floor, target: "2x",
                      oursPeakMegabytes: oursPeak, floorPeakMegabytes: Clock.lastPeakMegabytes)
    }
}
