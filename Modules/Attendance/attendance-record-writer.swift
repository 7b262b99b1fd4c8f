import Core
import Foundation
import Synchronization

/// The single place that writes records: upsert on (student, date, period), the change history,
/// and the absence event. A register is written with one statement per 100 students (not one
/// per student), and its change history with one more. New records take time-ordered ids: a
/// register's records then sit together at the end of the table and of its change history's
/// index, instead of on one random page each (records are never named by an id prefix).
enum RecordWriter {
    enum Outcome { case created, changed, unchanged }

    /// What became of one entry: its record's id and whether it was new, changed or the same.
    struct Written {
        let recordID: String
        let outcome: Outcome
    }

    /// One student's new status in a register.
    struct Entry {
        let member: ClassSession.Member
        let status: AttendanceStatus
        let notes: String?

        /// Whether the student's record already says exactly this, so writing it changes nothing.
        func matchesRecord(in target: Target) -> Bool {
            member.recordID != nil && member.status == status && member.notes == notes && member.method == target.method
                && member.recordClassID == target.classID
        }
    }

    /// Where the entries are written: one class on one date and period, by one method.
    struct Target {
        let classID: String
        let classCode: String
        let date: CivilDate
        let period: String
        let method: AttendanceMethod
    }

    /// Rows per upsert statement: 4 parameters a row stays far below SQLite's 999-parameter floor.
    static let rowsPerStatement = 100

    /// Writes one student's record (a QR check-in).
    static func write(student: ClassSession.Member, status: AttendanceStatus, classID: String, classCode: String, date: CivilDate,
                      period: String, method: AttendanceMethod, notes: String?, _ context: ActionContext) throws -> Outcome {
        let target = Target(classID: classID, classCode: classCode, date: date, period: period, method: method)
        return try write([Entry(member: student, status: status, notes: notes)], to: target, context)[0].outcome
    }

    /// Writes a register's entries, in class-list order, and returns each entry's record and outcome.
    /// An entry that matches its record (status, notes, method and class) is not written again: a
    /// register sent twice (an app's retry, a replayed offline queue) keeps who marked it and when,
    /// and adds nothing to the change history or to what devices pull.
    /// Absences raise `StudentMarkedAbsent` when the record is new or newly ABSENT.
    static func write(_ entries: [Entry], to target: Target, _ context: ActionContext) throws -> [Written] {
        guard !entries.isEmpty else { return [] }
        let recordIDs = entries.map { $0.member.recordID ?? context.newOrderedID() }
        let toWrite = entries.indices.filter { !entries[$0].matchesRecord(in: target) }
        let shared: SQLArguments = [
            "class": .text(target.classID), "date": .text(target.date.description), "period": .text(target.period),
            "method": .text(target.method.rawValue), "by": .text(context.principal.userID), "at": SQLValue(context.now),
        ]
        for start in stride(from: 0, to: toWrite.count, by: rowsPerStatement) {
            let rows = toWrite[start..<min(start + rowsPerStatement, toWrite.count)]
            // Each row's four values by position; what the rows share is bound once by name.
            var values: [SQLValue] = []
            values.reserveCapacity(rows.count * 4)
            for row in rows {
                values.append(.text(recordIDs[row]))
                values.append(.text(entries[row].member.studentID))
                values.append(.text(entries[row].status.rawValue))
                values.append(SQLValue(entries[row].notes))
            }
            try context.database.execute(RecordSQL.upsert(rows.count), shared, values: values)
        }
        var changes: [RecordChange] = []
        var outcomes: [Written] = []
        outcomes.reserveCapacity(entries.count)
        for (index, entry) in entries.enumerated() {
            let previous = entry.member.status
            if let previous, previous != entry.status {
                changes.append(RecordChange(recordID: recordIDs[index], previous: previous, status: entry.status))
            }
            outcomes.append(Written(recordID: recordIDs[index], outcome: previous == nil ? .created : previous == entry.status ? .unchanged : .changed))
            if entry.status == .absent && previous != .absent {
                try publishAbsence(entry.member, target, context)
            }
        }
        try recordChanges(changes, context)
        return outcomes
    }

    /// One row of a record's change history.
    struct RecordChange {
        let recordID: String
        let previous: AttendanceStatus
        let status: AttendanceStatus
    }

    static func recordChange(recordID: String, from previous: AttendanceStatus, to status: AttendanceStatus, _ context: ActionContext) throws {
        try recordChanges([RecordChange(recordID: recordID, previous: previous, status: status)], context)
    }

    /// The change history of many records in one statement per 100 rows.
    static func recordChanges(_ changes: [RecordChange], _ context: ActionContext) throws {
        guard !changes.isEmpty else { return }
        let shared: SQLArguments = ["by": .text(context.principal.userID), "at": SQLValue(context.now)]
        for start in stride(from: 0, to: changes.count, by: rowsPerStatement) {
            let rows = start..<min(start + rowsPerStatement, changes.count)
            var values: [SQLValue] = []
            values.reserveCapacity(rows.count * 3)
            for row in rows {
                values.append(.text(changes[row].recordID))
                values.append(.text(changes[row].previous.rawValue))
                values.append(.text(changes[row].status.rawValue))
            }
            try context.database.execute(RecordSQL.changes(rows.count), shared, values: values)
        }
    }

    private static func publishAbsence(_ student: ClassSession.Member, _ target: Target, _ context: ActionContext) throws {
        try context.publish(StudentMarkedAbsent(studentID: student.studentID, grNumber: student.grNumber, studentName: student.name,
                                                classCode: target.classCode, date: target.date.description, period: target.period))
    }

    /// Students with an approved advance notice covering the date (read once per run and date).
    static func excusedByNotice(students: [String], on date: CivilDate, _ context: ActionContext) throws -> Set<String> {
        guard !students.isEmpty else { return [] }
        let noticed: Set<String> = try context.remember("attendance.notices.\(date)") {
            Set(try context.database.fetchAll(
                "SELECT student_id FROM attendance_notices WHERE school_id = :school_id AND status = 'APPROVED' AND starts_on <= :date AND ends_on >= :date",
                ["date": .text(date.description)]).map { $0.string("student_id") })
        }
        return noticed.intersection(students)
    }
}

/// The writer's statements and their parameter names, each text built the first time a row
/// count needs it and kept: a register of 33 students then costs no text building, and its
/// statement is found prepared. Built on demand, so a one-register command pays for one text.
enum RecordSQL {
    private static let texts = Mutex<[Int: String]>([:])

    /// Each row's id, student, status and notes are `?` parameters, in that order.
    static func upsert(_ count: Int) -> String {
        text(count) { count in
            let values = Array(repeating: "(:school_id, ?, ?, :class, :date, :period, ?, :method, :by, :at, ?)", count: count)
            return """
                INSERT INTO attendance_records (school_id, id, student_id, class_id, date, period, status, method, marked_by, marked_at, notes)
                VALUES \(values.joined(separator: ", "))
                ON CONFLICT (school_id, student_id, date, period) DO UPDATE SET
                    status = excluded.status, method = excluded.method, class_id = excluded.class_id,
                    marked_by = excluded.marked_by, marked_at = excluded.marked_at, notes = excluded.notes
                """
        }
    }

    /// Each row's record, previous status and status are `?` parameters, in that order.
    static func changes(_ count: Int) -> String {
        // Negative keys: the same cache, another statement.
        text(-count) { key in
            let values = Array(repeating: "(:school_id, ?, ?, ?, :by, :at)", count: -key)
            return "INSERT INTO attendance_changes (school_id, record_id, previous_status, status, changed_by, changed_at) VALUES " + values.joined(separator: ", ")
        }
    }

    private static func text(_ key: Int, _ make: (Int) -> String) -> String {
        if let text = texts.withLock({ $0[key] }) { return text }
        let text = make(key)
        texts.withLock { $0[key] = text }
        return text
    }
}
