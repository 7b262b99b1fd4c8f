import Attendance
import Core
import Foundation
import GRDB

/// The offline sync scenarios: a teacher's device pushing registers taken offline, and pulling a
/// school's change log, each beside its floor. In-process, through `Kernel.syncPush` and
/// `Kernel.syncPull`, the functions `POST /api/v1/sync/push` and `GET /api/v1/sync/pull` call
/// once the JSON is decoded (the HTTP layer is measured by `--http`).
///
/// They make the school record changes (its first device), so they run after every other
/// scenario: the ones before measure a school without devices unless `--devices` is given.
extension BenchSchool {
    /// The teacher whose device the scenarios use: in `buildRoster`, t0 teaches a third of the classes.
    static let syncTeacher = "teacher-0"

    var syncTeacherPrincipal: Principal {
        Principal(userID: Self.syncTeacher, role: .teacher, schoolID: school.id, displayName: "Teacher 0")
    }

    /// The teacher's classes (code, id), in code order (not measured).
    func syncTeacherClasses() throws -> [(code: String, id: String)] {
        try store.rows("""
            SELECT DISTINCT c.code, c.id FROM students_teaching t JOIN students_classes c ON c.school_id = t.school_id AND c.id = t.class_id
            WHERE t.school_id = ? AND t.teacher_user_id = ? ORDER BY c.code
            """, [school.id, Self.syncTeacher]).map { ($0[0], $0[1]) }
    }

    /// Every register of the teacher's classes over the edit window (8 days x 8 periods), one
    /// `attendance.take@1` mutation each, pushed in batches of the protocol's maximum; each
    /// mutation commits its records, change log rows, ledger row and the client's seq together.
    /// The floor writes the same rows with plain SQL, one transaction per mutation.
    func syncPush() throws -> Figure {
        let classes = try syncTeacherClasses()
        let today = CivilDate(Date(), in: TimeZone(identifier: school.timeZone) ?? .gmt)
        // Days a week back, oldest first: inside a teacher's 7-day edit window, none marked yet by
        // the other scenarios (they mark today and the last school day, period by period).
        let days = (2...7).reversed().map { today.adding(days: -$0).description }
        var registers: [(code: String, classID: String, date: String, period: String)] = []
        for day in days {
            for schoolClass in classes {
                for period in Self.periods { registers.append((schoolClass.code, schoolClass.id, day, period)) }
            }
        }
        let mutations = registers.enumerated().map { index, register in
            SyncPushMutation(seq: index + 1, id: UUID().uuidString.lowercased(), name: "attendance.take@1",
                             args: ["classCode": .string(register.code), "date": .string(register.date), "period": .string(register.period),
                                    "defaultStatus": "PRESENT"])
        }
        let clientID = UUID().uuidString.lowercased()
        let teacher = syncTeacherPrincipal
        var applied = 0
        let ours = try Clock.time {
            for start in stride(from: 0, to: mutations.count, by: SyncProtocol.maximumMutations) {
                let batch = Array(mutations[start..<min(start + SyncProtocol.maximumMutations, mutations.count)])
                let response = try kernel.syncPush(SyncPushRequest(clientId: clientID, mutations: batch), as: teacher, in: school.id)
                applied += response.results.filter { $0.status == .applied }.count
            }
        }
        guard applied == mutations.count else { throw BenchSyncError.notApplied(applied, of: mutations.count) }
        let oursPeak = Clock.lastPeakMegabytes

        let members = try classMembers()
        let idByCode = Dictionary(uniqueKeysWithValues: classes.map { ($0.code, $0.id) })
        let floor = try Clock.time {
            for (index, register) in registers.enumerated() {
                if let postgres {
                    try postgres.transaction {
                        try syncPushFloor(postgres, seq: index + 1, classID: idByCode[register.code] ?? register.classID,
                                          students: members[register.code] ?? [], date: register.date, period: register.period)
                    }
                    continue
                }
                try raw.write { db in
                    try syncPushFloor(db, seq: index + 1, classID: idByCode[register.code] ?? register.classID,
                                      students: members[register.code] ?? [], date: register.date, period: register.period)
                }
            }
        }
        let dayList = postgres == nil ? "SELECT value FROM json_each(?)" : "SELECT jsonb_array_elements_text(CAST(? AS jsonb))"
        let records = try store.rows("SELECT COUNT(*) FROM attendance_records WHERE school_id = ? AND date IN (\(dayList)) AND period != 'DAY'",
                                     [school.id, SyncScope.json(days)]).first.flatMap { Int($0[0]) } ?? 0
        return Figure(scenario: "sync push, \(mutations.count) attendance.take@1 (\(records) records), batches of \(SyncProtocol.maximumMutations)",
                      rows: mutations.count, seconds: ours, floorSeconds: floor, floorKind: "one transaction per mutation", target: "3x",
                      oursPeakMegabytes: oursPeak, floorPeakMegabytes: Clock.lastPeakMegabytes)
    }

    /// One mutation's rows straight in SQL: the register's records, a change row per record and
    /// scope key (its class, its student, school-wide attendance readers), the school's clock, the
    /// ledger row and the client's seq. Under its own school id, which records no changes itself.
    private func syncPushFloor(_ db: Database, seq: Int, classID: String, students: [String], date: String, period: String) throws {
        let school = "floor-sync"
        let upsert = try db.cachedStatement(sql: """
            INSERT INTO attendance_records (school_id, id, student_id, class_id, date, period, status, method, marked_by, marked_at)
            VALUES (?, ?, ?, ?, ?, ?, 'PRESENT', 'MANUAL', 'teacher-0', '2026-11-22T06:00:00.000Z')
            ON CONFLICT (school_id, student_id, date, period) DO UPDATE SET status = excluded.status, marked_at = excluded.marked_at
            """)
        let change = try db.cachedStatement(sql: """
            INSERT INTO kernel_sync_changes (school_id, seq, scope_key, entity_type, entity_id, op, payload, origin_client_id, origin_mutation_seq)
            VALUES (?, ?, ?, 'attendance.record', ?, 'upsert', ?, 'floor-client', ?)
            """)
        let clock = try db.cachedStatement(sql: """
            INSERT INTO kernel_sync_clock (school_id, seq) VALUES (?, ?) ON CONFLICT (school_id) DO UPDATE SET seq = excluded.seq
            """)
        var changeSeq = try Int.fetchOne(db, sql: "SELECT seq FROM kernel_sync_clock WHERE school_id = ?", arguments: [school]) ?? 0
        for student in students {
            let id = "\(student)\(date)\(period)"
            try upsert.execute(arguments: [school, id, student, classID, date, period])
            changeSeq += 1
            let payload = """
                {"id":"\(id)","studentId":"\(student)","classId":"\(classID)","date":"\(date)","period":"\(period)","status":"PRESENT",\
                "note":null,"method":"MANUAL","markedBy":"teacher-0","markedAt":"2026-11-22T06:00:00.000Z"}
                """
            for key in ["class:\(classID)", "student:\(student)", "attendance:all"] {
                try change.execute(arguments: [school, changeSeq, key, id, payload, seq])
            }
        }
        try clock.execute(arguments: [school, changeSeq])
        try db.execute(sql: """
            INSERT INTO kernel_sync_mutations (client_id, mutation_seq, mutation_id, name, status, result, at)
            VALUES ('floor-client', ?, ?, 'attendance.take@1', 'applied', '{}', '2026-11-22T06:00:00.000Z')
            """, arguments: [seq, "floor-\(seq)"])
        try db.execute(sql: """
            INSERT INTO kernel_sync_clients (client_id, school_id, user_id, last_mutation_seq, created_at, last_seen_at)
            VALUES ('floor-client', ?, 'teacher-0', ?, '2026-11-22T06:00:00.000Z', '2026-11-22T06:00:00.000Z')
            ON CONFLICT (client_id) DO UPDATE SET last_mutation_seq = excluded.last_mutation_seq
            """, arguments: [school, seq])
    }

    /// The rest of the school's day taken by the office after the push (setup, not measured): the
    /// change log then holds other teachers' classes too, which the teacher's pull must skip.
    func syncOfficeDay() throws {
        let today = CivilDate(Date(), in: TimeZone(identifier: school.timeZone) ?? .gmt)
        let registers = classCodes.flatMap { code in
            Self.periods.map { TakeAttendance.Input(classCode: code, date: today.adding(days: -8).description, period: $0, marks: []) }
        }
        try run(TakeRegisters.self, .init(registers: registers))
    }

    /// A new device of the teacher paging through the school's change log from its start: pages
    /// of the protocol's default size, until `hasMore` is false. The floor reads the same change
    /// rows (the teacher's scope keys, worked out once) with plain SQL in pages of the same size.
    func syncPull() throws -> Figure {
        let teacher = syncTeacherPrincipal
        let clientID = UUID().uuidString.lowercased()
        var changes = 0
        var pages = 0
        let ours = try Clock.time {
            var cursor: String?
            while true {
                guard case .changes(let page, let next, let hasMore, _) = try kernel.syncPull(clientID: clientID, cursor: cursor, as: teacher, in: school.id)
                else { throw BenchSyncError.reset }
                changes += page.count
                pages += 1
                cursor = next
                if !hasMore { break }
            }
        }
        let oursPeak = Clock.lastPeakMegabytes
        let classIDs = try syncTeacherClasses().map(\.id)
        let keys = ["school", "staff", "user:\(Self.syncTeacher)"] + classIDs.flatMap { ["class:\($0)", "class-members:\($0)"] }
        var floorChanges = 0
        let floor = try Clock.time {
            if let postgres {
                floorChanges = try syncPullFloor(postgres, keys: keys)
                return
            }
            try raw.read { db in
                let page = try db.cachedStatement(sql: """
                    SELECT seq, entity_type, entity_id, op, payload FROM kernel_sync_changes
                    WHERE school_id = ? AND scope_key IN (SELECT value FROM json_each(?)) AND seq > ? ORDER BY seq LIMIT ?
                    """)
                var after = 0
                while true {
                    let rows = try Row.fetchAll(page, arguments: [school.id, SyncScope.json(keys), after, SyncProtocol.defaultLimit])
                    floorChanges += rows.count
                    guard rows.count == SyncProtocol.defaultLimit, let last = rows.last else { break }
                    after = last["seq"]
                }
            }
        }
        guard floorChanges == changes else { throw BenchSyncError.pullMismatch(ours: changes, floor: floorChanges) }
        return Figure(scenario: "sync pull, a teacher's \(changes) changes from the log's start, \(pages) pages of \(SyncProtocol.defaultLimit)",
                      rows: changes, seconds: ours, floorSeconds: floor, floorKind: "plain SQL pages", target: "2x",
                      oursPeakMegabytes: oursPeak, floorPeakMegabytes: Clock.lastPeakMegabytes)
    }

    /// The sync figures: push, then the office's day (not measured), then pull.
    func syncScenarios() throws -> [Figure] {
        // Recording from the log's start (floor 0, as for a new school), so that the new device's
        // pull reads the whole log instead of being answered with a reset to a snapshot: the pull
        // measured is the log's, as before a school activated late began its log after its data.
        try kernel.activateSync(school.id, schoolIsNew: true)
        let push = try syncPush()
        // Setup, but its memory is shown: the recorder notes every record the batch changed.
        let office = try Clock.time { try syncOfficeDay() }
        FileHandle.standardError.write(Data("""
            sync setup: the office's day as one batch with devices on, \(Report.milliseconds(office)), \
            peak \(Report.megabytes(Clock.lastPeakMegabytes)) MB

            """.utf8))
        return [push, try syncPull()]
    }
}

enum BenchSyncError: Error, CustomStringConvertible {
    case notApplied(Int, of: Int)
    case reset
    case pullMismatch(ours: Int, floor: Int)

    var description: String {
        switch self {
        case .notApplied(let applied, let total): "sync push: only \(applied) of \(total) mutations applied (read the ledger's reasons)"
        case .reset: "sync pull: the server answered a reset to a new device"
        case .pullMismatch(let ours, let floor): "sync pull: \(ours) changes, but the floor read \(floor) rows (a change seen through two keys?)"
        }
    }
}
