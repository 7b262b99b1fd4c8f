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
        let session = try session(input, key: key, context)
        try ClassAccess.require(classID: session.classID, code: input.classCode, context)
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
        let excused = try RecordWriter.excusedByNotice(students: session.members.map(\.studentID), on: session.date, context)
        var totals = AttendanceTotals()
        let entries = session.members.map { member in
            var status = marks[member.studentID]?.status ?? input.defaultStatus
            if status == .absent && excused.contains(member.studentID) { status = .excused }
            totals.add(status)
            return RecordWriter.Entry(member: member, status: status, notes: marks[member.studentID]?.notes)
        }
        let target = RecordWriter.Target(classID: session.classID, classCode: session.classCode, date: session.date,
                                         period: session.period, method: input.method)
        let outcomes = try RecordWriter.write(entries, to: target, context)
        return TakeAttendance.Output(classCode: session.classCode, date: session.date, period: session.period, totals: totals,
                                     created: outcomes.count { $0 == .created }, changed: outcomes.count { $0 == .changed })
    }

    /// What the audit record says about one register.
    static func auditLine(_ output: TakeAttendance.Output) -> String {
        "\(output.classCode) \(output.date) \(output.period): \(output.created) new, \(output.changed) changed"
    }
}
