import Core
import Foundation
import Students

/// A class on a date (and period), with who is enrolled and what is already recorded.
struct ClassSession {
    struct Member {
        let position: Int
        let studentID: String
        let grNumber: String
        let name: String
        let recordID: String?
        let status: AttendanceStatus?
        let notes: String?
        /// How the record was taken and in which class (a student who moved keeps a record
        /// written in the old class): with status and notes, what makes a mark a change.
        let method: AttendanceMethod?
        let recordClassID: String?

        /// Already in class by this register: PRESENT or LATE (a check-in changes nothing then).
        var isCheckedIn: Bool { status.map { [.present, .late].contains($0) } ?? false }
    }

    let classID: String
    let classCode: String
    let date: CivilDate
    let period: String
    let members: [Member]

    /// - Parameter forWriting: the register is about to be written, so another attendance writer of
    ///   the school waits until this transaction ends before it reads what is recorded (two
    ///   processes on PostgreSQL would otherwise both read "no record yet" and lose a change).
    init(classCode: String, date: String?, period: String?, forWriting: Bool = true, _ context: ActionContext) throws {
        try self.init(classID: try Self.classID(code: classCode, context), classCode: classCode, date: date, period: period,
                      forWriting: forWriting, context)
    }

    /// A class on a date and period with its list only, nothing of what is recorded (every
    /// member's record is nil): enough to validate a register. The list is read once per class
    /// and run, and kept for the body's reads (`init(classCode:)` then reads only the records).
    init(listOf classCode: String, date: String?, period: String?, _ context: ActionContext) throws {
        classID = try Self.classID(code: classCode, context)
        self.classCode = classCode
        self.date = try Self.day(date, context)
        self.period = try Self.period(period, context)
        members = try Self.classList(classID, context).enumerated().map { index, student in
            Member(position: index + 1, studentID: student.studentID, grNumber: student.grNumber, name: student.name,
                   recordID: nil, status: nil, notes: nil, method: nil, recordClassID: nil)
        }
    }

    /// A class's id by its code, read once per run (or remembered by `rememberClassIDs`).
    private static func classID(code: String, _ context: ActionContext) throws -> String {
        try context.remember("attendance.class-id.\(code)") { try Roster.classID(code: code, context) }
    }

    /// Looks up the classes of many registers (a batch) in one read, each remembered as
    /// `init(classCode:)` remembers it; a code not found is left to that look-up to refuse.
    static func rememberClassIDs(codes: [String], _ context: ActionContext) throws {
        let codes = Array(Set(codes))
        guard codes.count > 1, let year = try Roster.currentSchoolYearID(context) else { return }
        for start in stride(from: 0, to: codes.count, by: 500) {
            let chunk = Array(codes[start..<min(start + 500, codes.count)])
            let found = try context.database.fetchAll("""
                SELECT code, id FROM students_v1_classes WHERE school_id = :school_id AND school_year_id = :year
                AND code IN (\(Array(repeating: "?", count: chunk.count).joined(separator: ", ")))
                """, ["year": .text(year)], values: chunk.map { .text($0) }) { row in (code: row.string(0), id: row.string(1)) }
            for (code, id) in found { _ = try context.remember("attendance.class-id.\(code)") { id } }
        }
    }

    /// A class by its id (the API's `section_id`), of any school year; another school's id is unknown.
    /// The class named by id (the API) when given, else by code (the command line).
    init(classID: String?, classCode: String?, date: String?, period: String?, forWriting: Bool = true, _ context: ActionContext) throws {
        if let classID {
            try self.init(classID: classID, date: date, period: period, forWriting: forWriting, context)
        } else {
            try self.init(classCode: classCode ?? "", date: date, period: period, forWriting: forWriting, context)
        }
    }

    init(classID: String, date: String?, period: String?, forWriting: Bool = true, _ context: ActionContext) throws {
        try self.init(classID: classID, classCode: try Self.classCode(id: classID, context), date: date, period: period,
                      forWriting: forWriting, context)
    }

    /// A class's code by its id, read once per run; another school's id is unknown.
    static func classCode(id classID: String, _ context: ActionContext) throws -> String {
        try context.remember("attendance.class-code.\(classID)") { try RosterFacts.classCode(id: classID, context) }
    }

    private init(classID: String, classCode: String, date: String?, period: String?, forWriting: Bool, _ context: ActionContext) throws {
        self.classID = classID
        self.classCode = classCode
        self.date = try Self.day(date, context)
        self.period = try Self.period(period, context)
        // One key for the school's attendance writers, not one per register: a day's batch writes
        // thousands of registers, and as many locks (taken in any order) would exhaust the
        // server's lock table or deadlock two batches. SQLite serializes every writer anyway.
        if forWriting { try context.database.serializeWriters(on: "attendance.records") }
        // The class list in print order (kept between runs while the roster is unchanged), then
        // each student's record for this date and period, decoded by column position.
        let students = try Self.classList(classID, context)
        var recorded: [String: Recorded] = [:]
        for (student, record) in try context.database.fetchAll("""
            SELECT r.student_id, r.id, r.status, r.notes, r.method, r.class_id FROM students_v1_enrolments e
            JOIN attendance_records r ON r.school_id = e.school_id AND r.student_id = e.student_id AND r.date = :date AND r.period = :period
            WHERE e.school_id = :school_id AND e.class_id = :class
            """, ["class": .text(classID), "date": .text(self.date.description), "period": .text(self.period)], decode: { row in
            (row.string(0), Recorded(id: row.string(1), status: row.text(2).flatMap(AttendanceStatus.init(rawValue:)), notes: row.text(3),
                                     method: row.text(4).map(AttendanceMethod.init(rawValue:)), classID: row.text(5)))
        }) {
            recorded[student] = record
        }
        members = students.enumerated().map { index, student in
            let record = recorded.isEmpty ? nil : recorded[student.studentID]
            return Member(position: index + 1, studentID: student.studentID, grNumber: student.grNumber, name: student.name,
                          recordID: record?.id, status: record?.status, notes: record?.notes, method: record?.method, recordClassID: record?.classID)
        }
    }

    /// A student's record for the date and period, as read.
    private struct Recorded {
        let id: String
        let status: AttendanceStatus?
        let notes: String?
        let method: AttendanceMethod?
        let classID: String?
    }

    /// `YYYY-MM-DD`, today in the school's time zone when nil.
    private static func day(_ date: String?, _ context: ActionContext) throws -> CivilDate {
        guard let date else { return context.today }
        guard let parsed = CivilDate(date) else { throw AttendanceError.invalidDate(date) }
        return parsed
    }

    /// A class's list in print order, without records: read once per class and run (and kept
    /// between runs by `RosterFacts` while the roster is unchanged).
    private static func classList(_ classID: String, _ context: ActionContext) throws -> [Student] {
        let lists = try context.remember("attendance.class-lists") { ClassLists() }
        if let known = lists.byClass[classID] { return known }
        let students = try RosterFacts.classList(classID, context)
        lists.byClass[classID] = students
        return students
    }

    /// The class lists read so far in a run, by class id (attendance never changes enrolments).
    final class ClassLists {
        var byClass: [String: [Student]] = [:]
    }

    /// One student of a class list.
    struct Student: Sendable {
        let studentID: String
        let grNumber: String
        let name: String
    }

    /// A period code must be a timetable period (not a break) where the timetable is on; elsewhere
    /// any label is accepted. No period means the whole day. Looked up once per run and code.
    static func period(_ code: String?, _ context: ActionContext) throws -> String {
        guard let code, !code.isEmpty, code != AttendancePeriod.wholeDay else { return AttendancePeriod.wholeDay }
        if let periods = try TimetablePeriods.byCode(context) {
            guard let period = periods[code], !period.isBreak else { throw AttendanceError.unknownPeriod(code) }
        }
        return code
    }

    /// The member a mark names; anyone else (another class, another school, nobody) is refused
    /// by the reference given, never by name: a GR number must not tell a teacher who it is.
    func member(_ reference: String, _ context: ActionContext) throws -> Member {
        if reference.allSatisfy(\.isNumber), let position = Int(reference), members.indices.contains(position - 1) {
            return members[position - 1]
        }
        if let member = members.first(where: { $0.grNumber == reference }) { return member }
        throw AttendanceError.notInClass(reference, classCode)
    }

    /// Teachers change records only within the school's edit window; admins may always correct.
    func checkDate(_ context: ActionContext) throws {
        let today = context.today
        guard date <= today else { throw AttendanceError.futureDate(date.description) }
        try AttendanceAccess.requireSchoolYear(date, context)
        if ![Role.admin, .developer].contains(context.principal.role) {
            let days = try context.remember("attendance.edit-window-days") { try context.setting(AttendanceSettings.editWindowDays) }
            guard today.dayNumber - date.dayNumber <= days else { throw AttendanceError.outsideEditWindow(date.description, days) }
        }
    }
}
