import Core

/// What attendance shares with offline apps, and how a register taken offline is replayed.
///
/// A record goes to `class:<id>` (its teachers), `student:<id>` (the student and their guardians)
/// and `attendance:all` (school-wide readers); never to `class-members:<id>`, where classmates
/// would see each other's absences.
public enum AttendanceSync {
    /// Held by roles that read every record (admins, staff).
    public static let everyone = SyncScopeKey.other("attendance", "all")

    static var entities: [SyncEntityType] { [record] }

    static var mutations: [SyncMutation] {
        [SyncMutation("attendance.take@1", TakeAttendance.self, check: keepExcused, current: current)]
    }

    static let record = SyncEntityType(
        "attendance.record",
        sources: [SyncSource(table: "attendance_records")],
        load: { ids, context in
            var result: [String: SyncEntity] = [:]
            try context.database.forEachRow("""
                SELECT id, student_id, class_id, date, period, status, method, notes, marked_by, marked_at FROM attendance_records
                WHERE school_id = :school_id AND id IN (SELECT value FROM json_each(:ids))
                """, ["ids": .text(SyncScope.json(ids))]) { row in
                let id = row.string("id")
                let period = row.string("period")
                result[id] = SyncEntity(
                    data: ["id": .string(id), "studentId": .string(row.string("student_id")), "classId": .string(row.string("class_id")),
                           "date": .string(row.string("date")), "period": period == AttendancePeriod.wholeDay ? .null : .string(period),
                           "status": .string(row.string("status")), "note": .optional(row["notes"]), "method": .string(row.string("method")),
                           "markedBy": .string(row.string("marked_by")), "markedAt": .string(row.string("marked_at"))],
                    scopes: [.class(row.string("class_id")), .student(row.string("student_id")), everyone])
            }
            return result
        },
        snapshot: { scope, after, limit, context in
            let filter = scope.contains(everyone) ? "" : """
                AND (class_id IN (SELECT value FROM json_each(:classes)) OR student_id IN (SELECT value FROM json_each(:students)))
                """
            return try context.database.fetchAll("""
                SELECT id FROM attendance_records WHERE school_id = :school_id AND id > :after \(filter) ORDER BY id LIMIT :limit
                """, ["after": .text(after), "limit": .integer(Int64(limit)), "classes": .text(scope.jsonIDs(of: "class")),
                      "students": .text(scope.jsonIDs(of: "student"))]).map { $0.string("id") }
        })

    /// School-wide readers get `attendance:all`; the class and student keys come from Students.
    static let scopes: SyncScopeRule = { _, context in
        context.scope(for: AttendancePermissions.read) == .school ? [everyone] : []
    }

    /// Server wins: a register taken offline may not turn the office's EXCUSED into anything
    /// else (the teacher marked from an older view). Online, the teacher sees EXCUSED before
    /// saving, so the plain action keeps its behaviour; an ABSENT that an approved notice
    /// turns into EXCUSED anyway is no conflict.
    static let keepExcused: SyncMutation.Check<TakeAttendance.Input> = { input, context in
        let session = try RegisterTaking.validate(input, key: "attendance.session", context)
        var marks: [String: AttendanceStatus] = [:]
        for mark in input.marks { marks[try session.member(mark.student, context).studentID] = mark.status }
        var conflicts: [ClassSession.Member] = []
        for member in session.members where member.status == .excused {
            guard let intended = marks[member.studentID] ?? input.defaultStatus as AttendanceStatus?, intended != .excused else { continue }
            conflicts.append(member)
        }
        guard !conflicts.isEmpty else { return }
        let byNotice = try RecordWriter.excusedByNotice(students: conflicts.map(\.studentID), on: session.date, context)
        let kept = conflicts.filter { member in !(marks[member.studentID] ?? input.defaultStatus == .absent && byNotice.contains(member.studentID)) }
        guard !kept.isEmpty else { return }
        throw AttendanceSyncConflict(grNumbers: kept.map(\.grNumber), recordIDs: kept.compactMap(\.recordID))
    }

    /// The server's records the rejected register would have overwritten.
    static let current: SyncMutation.Current<TakeAttendance.Input> = { _, error, context in
        guard let conflict = error as? AttendanceSyncConflict else { return nil }
        let records = try record.load(conflict.recordIDs, context)
        return .object(["records": .array(conflict.recordIDs.compactMap { records[$0].map { APIValue.object($0.data) } })])
    }
}

/// A register replayed from an offline app that would overwrite EXCUSED records: refused, and
/// the app is sent the server's records (`current`) to show the teacher.
public struct AttendanceSyncConflict: HogwartsError, Equatable {
    public let grNumbers: [String]
    public let recordIDs: [String]

    public var messageKey: String { "attendance.error.excused-kept" }
    public var messageArguments: [String: String] { ["students": grNumbers.joined(separator: ", ")] }
    public var exitStatus: ExitStatus { .conflict }
}
