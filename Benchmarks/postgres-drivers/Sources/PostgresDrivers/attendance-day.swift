import Foundation

/// The benchmark's attendance day floor (Host/Bench/bench-attendance.swift, `upsertFloor`): every
/// student of every class in each of 8 periods, one transaction per register, each row one
/// execution of the same prepared upsert. Same statement, same values, same table as there.
struct AttendanceDay {
    static let periods = ["P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8"]

    /// The upsert, with the `$n` parameters PostgreSQL takes (the engine rewrites the bench's `?` to these).
    static let upsert = """
        INSERT INTO attendance_records (school_id, id, student_id, class_id, date, period, status, method, marked_by, marked_at)
        VALUES ($1, $2, $3, 'c', '2026-11-22', $4, $5, 'MANUAL', 'bench', '2026-11-22T06:00:00.000Z')
        ON CONFLICT (school_id, student_id, date, period) DO UPDATE SET status = excluded.status, marked_at = excluded.marked_at
        """

    /// The table as Attendance's first migration makes it (its two indexes included: they cost on every insert).
    static let schema = """
        CREATE TABLE attendance_records (
            school_id TEXT NOT NULL, id TEXT NOT NULL, student_id TEXT NOT NULL, class_id TEXT NOT NULL,
            date TEXT NOT NULL, period TEXT NOT NULL, status TEXT NOT NULL, method TEXT NOT NULL,
            marked_by TEXT NOT NULL, marked_at TEXT NOT NULL, notes TEXT,
            PRIMARY KEY (school_id, id),
            UNIQUE (school_id, student_id, date, period)
        );
        CREATE INDEX attendance_records_class_date ON attendance_records (school_id, class_id, date);
        CREATE INDEX attendance_records_date ON attendance_records (school_id, date);
        """

    /// Student ids (random UUIDs, as the import gives them) by class, 33 or 34 to a class as in the bench.
    let classes: [[String]]

    init(students: Int) {
        let count = max(2, Int((Double(students) / 33.3).rounded()))
        var classes = Array(repeating: [String](), count: count)
        for index in 0..<students { classes[index % count].append(UUID().uuidString.lowercased()) }
        self.classes = classes
    }

    var registers: Int { classes.count * Self.periods.count }
    var rows: Int { classes.reduce(0) { $0 + $1.count } * Self.periods.count }

    /// One register's rows as the upsert's five parameters; `pass` 2 is the update path.
    func rows(of students: [String], period: String, pass: Int) -> [[String]] {
        students.map { ["floor-register", "\($0)\(period)", $0, period, pass == 1 ? "PRESENT" : "LATE"] }
    }
}

/// One way of running the attendance day: opened on a fresh schema, then asked for one register at a time.
protocol DayDriver {
    var name: String { get }
    /// Runs `work` in one transaction (BEGIN ... COMMIT), as the engine does for a register.
    func transaction(_ work: () throws -> Void) throws
    /// Runs the upsert with these parameters (prepared once per connection where the driver prepares).
    func upsert(_ parameters: [String]) throws
    /// Runs a statement outside the measured path (schema, TRUNCATE).
    func command(_ sql: String) throws
    func close()
}

extension DayDriver {
    /// BEGIN, the work, COMMIT (ROLLBACK on an error), each as its own statement: both drivers
    /// send the same three round trips a register costs the engine.
    func transaction(_ work: () throws -> Void) throws {
        try command("BEGIN")
        do {
            try work()
            try command("COMMIT")
        } catch {
            try? command("ROLLBACK")
            throw error
        }
    }
}

/// Wall time and this process's CPU time (every thread: the caller's and the event loop's).
struct Timing {
    let seconds: Double
    let cpuSeconds: Double
}

extension DayDriver {
    /// The whole day, register by register.
    func run(_ day: AttendanceDay, pass: Int) throws -> Timing {
        let cpu = Self.cpuSeconds()
        let start = DispatchTime.now().uptimeNanoseconds
        for students in day.classes {
            for period in AttendanceDay.periods {
                try transaction {
                    for row in day.rows(of: students, period: period, pass: pass) { try upsert(row) }
                }
            }
        }
        return Timing(seconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, cpuSeconds: Self.cpuSeconds() - cpu)
    }

    /// User and system CPU of the whole process so far: less swayed than wall time by other work on a loaded machine.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}

struct DriverError: Error, CustomStringConvertible {
    let description: String
}
