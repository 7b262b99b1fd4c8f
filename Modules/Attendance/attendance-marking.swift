import Core
import Foundation
import Students

/// One exception to the default status, by GR number or by the student's line in the class list.
public struct AttendanceMark: Codable, Sendable, Equatable {
    /// A GR number, or digits only for the student's position in the printed class list.
    public var student: String
    public var status: AttendanceStatus
    public var notes: String?

    public init(student: String, status: AttendanceStatus, notes: String? = nil) {
        self.student = student
        self.status = status
        self.notes = notes
    }
}

/// A class on a date (and period), with who is enrolled and what is already recorded.
struct ClassSession {
    struct Member {
        let position: Int
        let studentID: String
        let grNumber: String
        let name: String
        let recordID: String?
        let status: AttendanceStatus?
    }

    let classID: String
    let classCode: String
    let date: CivilDate
    let period: String
    let members: [Member]

    init(classCode: String, date: String?, period: String?, _ context: ActionContext) throws {
        classID = try Roster.classID(code: classCode, context)
        self.classCode = classCode
        if let date {
            guard let parsed = CivilDate(date) else { throw AttendanceError.invalidDate(date) }
            self.date = parsed
        } else {
            self.date = context.today
        }
        self.period = try Self.period(period, context)
        let rows = try context.database.fetchAll("""
            SELECT s.id, s.gr_number, s.given_name, s.surname, r.id AS record_id, r.status FROM students_enrolments e
            JOIN students_students s ON s.school_id = e.school_id AND s.id = e.student_id AND s.archived_at IS NULL
            LEFT JOIN attendance_records r ON r.school_id = e.school_id AND r.student_id = s.id AND r.date = :date AND r.period = :period
            WHERE e.school_id = :school_id AND e.class_id = :class
            ORDER BY s.surname, s.given_name, s.gr_number
            """, ["class": .text(classID), "date": .text(self.date.description), "period": .text(self.period)])
        members = rows.enumerated().map { index, row in
            Member(position: index + 1, studentID: row.string("id"), grNumber: row.string("gr_number"),
                   name: "\(row.string("given_name")) \(row.string("surname"))", recordID: row["record_id"],
                   status: (row["status"] as String?).flatMap(AttendanceStatus.init(rawValue:)))
        }
    }

    /// A period code must be a timetable period (not a break) where the timetable is on; elsewhere
    /// any label is accepted. No period means the whole day.
    static func period(_ code: String?, _ context: ActionContext) throws -> String {
        guard let code, !code.isEmpty, code != AttendancePeriod.wholeDay else { return AttendancePeriod.wholeDay }
        if context.enabledModules.contains("timetable") {
            let isLesson: Bool? = try context.database.fetchValue(
                "SELECT is_break = 0 FROM timetable_periods WHERE school_id = :school_id AND code = :code", ["code": .text(code)])
            guard isLesson == true else { throw AttendanceError.unknownPeriod(code) }
        }
        return code
    }

    /// The member a mark names; anyone else (another class, another school) is refused by name.
    func member(_ reference: String, _ context: ActionContext) throws -> Member {
        if reference.allSatisfy(\.isNumber), let position = Int(reference), let member = members.first(where: { $0.position == position }) {
            return member
        }
        if let member = members.first(where: { $0.grNumber == reference }) { return member }
        let name = (try? Roster.student(gr: reference, context)).map { "\($0.fullName) (\(reference))" } ?? reference
        throw AttendanceError.notInClass(name, classCode)
    }

    /// Teachers change records only within the school's edit window; admins may always correct.
    func checkDate(_ context: ActionContext) throws {
        let today = context.today
        guard date <= today else { throw AttendanceError.futureDate(date.description) }
        try AttendanceAccess.requireSchoolYear(date, context)
        if ![Role.admin, .developer].contains(context.principal.role) {
            let days = try context.setting(AttendanceSettings.editWindowDays)
            guard today.dayNumber - date.dayNumber <= days else { throw AttendanceError.outsideEditWindow(date.description, days) }
        }
    }
}

/// The class list with what is recorded so far: what a teacher sees before taking attendance.
public struct ClassRegister: Action {
    public struct Input: Codable, Sendable {
        public var classCode: String
        public var date: String?
        public var period: String?
        public init(classCode: String, date: String? = nil, period: String? = nil) {
            self.classCode = classCode
            self.date = date
            self.period = period
        }
    }

    public struct Line: Codable, Sendable, Equatable {
        public let position: Int
        public let grNumber: String
        public let name: String
        public let status: AttendanceStatus?
    }

    public static let id = "attendance.register"
    public static let permission = AttendancePermissions.mark
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> [Line] {
        let session = try ClassSession(classCode: input.classCode, date: input.date, period: input.period, context)
        try ClassAccess.require(classID: session.classID, code: input.classCode, context)
        return session.members.map { Line(position: $0.position, grNumber: $0.grNumber, name: $0.name, status: $0.status) }
    }
}

/// Takes a whole class in one step: everyone gets the default status (PRESENT) except the marks.
/// All or nothing; marking again updates the records (never a duplicate) and keeps the history.
public struct TakeAttendance: Action {
    public struct Input: Codable, Sendable {
        public var classCode: String
        public var date: String?
        public var period: String?
        public var defaultStatus: AttendanceStatus
        public var marks: [AttendanceMark]
        public var method: AttendanceMethod

        public init(classCode: String, date: String? = nil, period: String? = nil, defaultStatus: AttendanceStatus = .present,
                    marks: [AttendanceMark] = [], method: AttendanceMethod = .manual) {
            self.classCode = classCode
            self.date = date
            self.period = period
            self.defaultStatus = defaultStatus
            self.marks = marks
            self.method = method
        }
    }

    public struct Output: Codable, Sendable, Equatable {
        public let classCode: String
        public let date: CivilDate
        public let period: String
        public let totals: AttendanceTotals
        public let created: Int
        public let changed: Int
    }

    public static let id = "attendance.take"
    public static let permission = AttendancePermissions.mark

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        let session = try session(input, context)
        try ClassAccess.require(classID: session.classID, code: input.classCode, context)
        try session.checkDate(context)
        var seen: Set<String> = []
        for mark in input.marks {
            try TextInput.check(mark.notes ?? "", field: "notes", maxLength: TextLimit.title)
            let member = try session.member(mark.student, context)
            guard seen.insert(member.studentID).inserted else { throw AttendanceError.duplicateMark(member.grNumber) }
        }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Output {
        let session = try session(input, context)
        var marks: [String: AttendanceMark] = [:]
        for mark in input.marks { marks[try session.member(mark.student, context).studentID] = mark }
        let excused = try RecordWriter.excusedByNotice(students: session.members.map(\.studentID), on: session.date, context)
        var totals = AttendanceTotals()
        var created = 0
        var changed = 0
        for member in session.members {
            var status = marks[member.studentID]?.status ?? input.defaultStatus
            if status == .absent && excused.contains(member.studentID) { status = .excused }
            let outcome = try RecordWriter.write(
                student: member, status: status, classID: session.classID, classCode: session.classCode, date: session.date,
                period: session.period, method: input.method, notes: marks[member.studentID]?.notes, context)
            totals.add(status)
            if outcome == .created { created += 1 } else if outcome == .changed { changed += 1 }
        }
        context.auditDetail = "\(session.classCode) \(session.date) \(session.period): \(created) new, \(changed) changed"
        return Output(classCode: session.classCode, date: session.date, period: session.period, totals: totals, created: created, changed: changed)
    }

    /// The class as it stands, read once for validation and the body.
    private func session(_ input: Input, _ context: ActionContext) throws -> ClassSession {
        try context.remember("attendance.session") { try ClassSession(classCode: input.classCode, date: input.date, period: input.period, context) }
    }
}

/// The single place that writes a record: upsert on (student, date, period), the change history,
/// and the absence event.
enum RecordWriter {
    enum Outcome { case created, changed, unchanged }

    static func write(student: ClassSession.Member, status: AttendanceStatus, classID: String, classCode: String, date: CivilDate,
                      period: String, method: AttendanceMethod, notes: String?, _ context: ActionContext) throws -> Outcome {
        let recordID = student.recordID ?? context.newID()
        try context.database.execute("""
            INSERT INTO attendance_records (school_id, id, student_id, class_id, date, period, status, method, marked_by, marked_at, notes)
            VALUES (:school_id, :id, :student, :class, :date, :period, :status, :method, :by, :at, :notes)
            ON CONFLICT (school_id, student_id, date, period) DO UPDATE SET
                status = excluded.status, method = excluded.method, class_id = excluded.class_id,
                marked_by = excluded.marked_by, marked_at = excluded.marked_at, notes = excluded.notes
            """, ["id": .text(recordID), "student": .text(student.studentID), "class": .text(classID), "date": .text(date.description),
                  "period": .text(period), "status": .text(status.rawValue), "method": .text(method.rawValue),
                  "by": .text(context.principal.userID), "at": SQLValue(context.now), "notes": SQLValue(notes)])
        guard let previous = student.status else {
            if status == .absent { try publishAbsence(student, classCode: classCode, date: date, period: period, context) }
            return .created
        }
        guard previous != status else { return .unchanged }
        try recordChange(recordID: recordID, from: previous, to: status, context)
        if status == .absent { try publishAbsence(student, classCode: classCode, date: date, period: period, context) }
        return .changed
    }

    static func recordChange(recordID: String, from previous: AttendanceStatus, to status: AttendanceStatus, _ context: ActionContext) throws {
        try context.database.insert(into: "attendance_changes", [
            "record_id": .text(recordID), "previous_status": .text(previous.rawValue), "status": .text(status.rawValue),
            "changed_by": .text(context.principal.userID), "changed_at": SQLValue(context.now),
        ])
    }

    private static func publishAbsence(_ student: ClassSession.Member, classCode: String, date: CivilDate, period: String, _ context: ActionContext) throws {
        try context.publish(StudentMarkedAbsent(studentID: student.studentID, grNumber: student.grNumber, studentName: student.name,
                                                classCode: classCode, date: date.description, period: period))
    }

    /// Students with an approved advance notice covering the date.
    static func excusedByNotice(students: [String], on date: CivilDate, _ context: ActionContext) throws -> Set<String> {
        guard !students.isEmpty else { return [] }
        let rows = try context.database.fetchAll(
            "SELECT student_id FROM attendance_notices WHERE school_id = :school_id AND status = 'APPROVED' AND starts_on <= :date AND ends_on >= :date",
            ["date": .text(date.description)])
        return Set(rows.map { $0.string("student_id") }).intersection(students)
    }
}
