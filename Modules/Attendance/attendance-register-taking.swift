import Core
import Foundation

/// Taking one class register: the rules and the writes that `TakeAttendance` (one register) and
/// `TakeRegisters` (many in one transaction) share, so both behave exactly alike.
enum RegisterTaking {
    /// The class as it stands, read once per run and key: validation and the body share it.
    static func session(_ input: TakeAttendance.Input, key: String, _ context: ActionContext) throws -> ClassSession {
        try context.remember(key) { try ClassSession(classCode: input.classCode, date: input.date, period: input.period, context) }
    }

    /// Everything that can refuse a register, before anything is written: the class, date and
    /// period exist, the principal teaches the class (or has the school scope), the date is in a
    /// school year and the edit window, each mark names one enrolled student once, notes are clean.
    static func validate(_ input: TakeAttendance.Input, key: String, _ context: ActionContext) throws -> ClassSession {
        try validate(input, session: try session(input, key: key, context), context)
    }

    /// Validates a register against its class as read.
    static func validate(_ input: TakeAttendance.Input, session: ClassSession, _ context: ActionContext) throws -> ClassSession {
        try ClassAccess.require(classID: session.classID, named: input.classCode, context)
        try session.checkDate(context)
        var seen: Set<String> = []
        for mark in input.marks {
            try TextInput.check(mark.notes ?? "", field: "notes", maxLength: TextLimit.title)
            let member = try session.member(mark.student, context)
            guard seen.insert(member.studentID).inserted else { throw AttendanceError.duplicateMark(member.grNumber) }
        }
        return session
    }

    /// Writes the register: everyone gets the default status except the marks; an ABSENT student
    /// with an approved advance notice becomes EXCUSED. Marking again updates, never duplicates.
    static func take(_ input: TakeAttendance.Input, session: ClassSession, _ context: ActionContext) throws -> TakeAttendance.Output {
        var marks: [String: AttendanceMark] = [:]
        for mark in input.marks { marks[try session.member(mark.student, context).studentID] = mark }
        return try write(marks, defaultStatus: input.defaultStatus, method: input.method, session: session, context).output
    }

    /// One student's record as a register wrote it.
    struct Written {
        let recordID: String
        let studentID: String
        let status: AttendanceStatus
    }

    /// Writes a register from marks keyed by student id: with a default status everyone in the
    /// class is written (the marks override it), without one only the marked students are. An
    /// ABSENT student with an approved advance notice becomes EXCUSED.
    static func write(_ marks: [String: AttendanceMark], defaultStatus: AttendanceStatus?, method: AttendanceMethod, session: ClassSession,
                      _ context: ActionContext) throws -> (output: TakeAttendance.Output, records: [Written]) {
        let members = defaultStatus == nil ? session.members.filter { marks[$0.studentID] != nil } : session.members
        let excused = try RecordWriter.excusedByNotice(students: members.map(\.studentID), on: session.date, context)
        var totals = AttendanceTotals()
        let entries = members.map { member in
            var status = marks[member.studentID]?.status ?? defaultStatus ?? .present
            if status == .absent && excused.contains(member.studentID) { status = .excused }
            totals.add(status)
            return RecordWriter.Entry(member: member, status: status, notes: marks[member.studentID]?.notes)
        }
        let target = RecordWriter.Target(classID: session.classID, classCode: session.classCode, date: session.date,
                                         period: session.period, method: method)
        let written = try RecordWriter.write(entries, to: target, context)
        let output = TakeAttendance.Output(classCode: session.classCode, date: session.date, period: session.period, totals: totals,
                                           created: written.count { $0.outcome == .created }, changed: written.count { $0.outcome == .changed })
        let records = zip(entries, written).map { Written(recordID: $1.recordID, studentID: $0.member.studentID, status: $0.status) }
        return (output, records)
    }

    /// What the audit record says about one register.
    static func auditLine(_ output: TakeAttendance.Output) -> String {
        "\(output.classCode) \(output.date) \(output.period): \(output.created) new, \(output.changed) changed"
    }
}
