import Core
import Foundation
import Students

/// Marks named students, by id, in one transaction: one student (the API's `mark`), a class's
/// list (`bulk`, a teacher's class attendance) or students of several classes.
///
/// The students are grouped into their class registers (the given class, else each student's
/// class this school year), and each register is validated and written by `RegisterTaking`,
/// the code `attendance.take` and `attendance.take-batch` use: the same scope, edit window,
/// school-year dates, advance notices, change history and absence events. Only the named
/// students are written; the rest of a class is left as it is. All or nothing: any refusal
/// (an unknown student, one outside the class, a class the teacher does not teach) writes nothing.
public struct MarkStudents: Action {
    public struct Mark: Codable, Sendable, Equatable {
        /// The student's id.
        public var student: String
        public var status: AttendanceStatus
        public var notes: String?
        public init(student: String, status: AttendanceStatus, notes: String? = nil) {
            self.student = student
            self.status = status
            self.notes = notes
        }
    }

    public struct Input: Codable, Sendable {
        public var marks: [Mark]
        /// The class every student must be in; nil: each student's class this school year.
        public var classID: String?
        /// `YYYY-MM-DD`, today when nil.
        public var date: String?
        public var period: String?
        public var method: AttendanceMethod

        public init(marks: [Mark], classID: String? = nil, date: String? = nil, period: String? = nil, method: AttendanceMethod = .manual) {
            self.marks = marks
            self.classID = classID
            self.date = date
            self.period = period
            self.method = method
        }
    }

    /// One written record.
    public struct Record: Codable, Sendable, Equatable {
        public let id: String
        public let studentID: String
        /// As written: ABSENT becomes EXCUSED under an approved advance notice.
        public let status: AttendanceStatus
    }

    public struct Output: Codable, Sendable, Equatable {
        public let date: CivilDate
        /// In the order the marks were given.
        public let records: [Record]
    }

    public static let id = "attendance.mark-students"
    public static let permission = AttendancePermissions.mark

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        for mark in input.marks { try TextInput.check(mark.notes ?? "", field: "notes", maxLength: TextLimit.title) }
        for register in try Self.registers(input, context) {
            try ClassAccess.require(classID: register.session.classID, named: input.classID ?? register.session.classCode, context)
            try register.session.checkDate(context)
        }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Output {
        var written: [String: RegisterTaking.Written] = [:]
        var date = context.today
        var lines: [String] = []
        for register in try Self.registers(input, context) {
            let (output, records) = try RegisterTaking.write(register.marks, defaultStatus: nil, method: input.method, session: register.session, context)
            for record in records { written[record.studentID] = record }
            date = register.session.date
            lines.append(RegisterTaking.auditLine(output))
        }
        context.auditDetail = lines.joined(separator: "; ")
        return Output(date: date, records: input.marks.compactMap { mark in
            written[mark.student].map { Record(id: $0.recordID, studentID: $0.studentID, status: $0.status) }
        })
    }

    /// One class register to write: the class as it stands and its students' marks by id.
    struct Register {
        let session: ClassSession
        let marks: [String: AttendanceMark]
    }

    /// The registers the marks fall into, read once per run (validation and the body share them).
    static func registers(_ input: Input, _ context: ActionContext) throws -> [Register] {
        try context.remember("attendance.mark-students") {
            var seen: Set<String> = []
            for mark in input.marks where !seen.insert(mark.student).inserted { throw AttendanceError.duplicateMark(mark.student) }
            var sessions: [ClassSession] = []
            if let classID = input.classID {
                sessions = [try ClassSession(classID: classID, date: input.date, period: input.period, context)]
                // Scope before membership: another teacher's class is a class that does not exist.
                try ClassAccess.require(classID: classID, named: classID, context)
                let members = Set(sessions[0].members.map(\.studentID))
                let outside = input.marks.map(\.student).filter { !members.contains($0) }
                if !outside.isEmpty { try refuse(outside, classCode: sessions[0].classCode, context) }
            } else {
                var order: [String] = []
                for classID in try classes(of: input.marks.map(\.student), context) where !order.contains(classID) { order.append(classID) }
                sessions = try order.map { try ClassSession(classID: $0, date: input.date, period: input.period, context) }
            }
            return sessions.map { session in
                let members = Set(session.members.map(\.studentID))
                var marks: [String: AttendanceMark] = [:]
                for mark in input.marks where members.contains(mark.student) {
                    marks[mark.student] = AttendanceMark(student: mark.student, status: mark.status, notes: mark.notes)
                }
                return Register(session: session, marks: marks)
            }
        }
    }

    /// Each student's class this school year, in the order given; unknown students are refused
    /// all together, a student with no class by GR number. For a teacher, a student outside
    /// their classes is an unknown student: the answer names no one they may not see.
    private static func classes(of students: [String], _ context: ActionContext) throws -> [String] {
        let year = try Roster.currentSchoolYearID(context)
        var found: [String: (classID: String?, grNumber: String)] = [:]
        for start in stride(from: 0, to: students.count, by: 400) {
            let chunk = Array(students[start..<min(start + 400, students.count)])
            let rows = try context.database.fetchAll("""
                SELECT s.id, s.gr_number, e.class_id FROM students_v1_students s
                LEFT JOIN students_v1_enrolments e ON e.school_id = s.school_id AND e.student_id = s.id AND e.school_year_id = :year
                WHERE s.school_id = :school_id AND s.archived_at IS NULL AND s.id IN (\(Array(repeating: "?", count: chunk.count).joined(separator: ", ")))
                """, ["year": SQLValue(year)], values: chunk.map { .text($0) }) { row in
                (id: row.string(0), grNumber: row.string(1), classID: row.text(2))
            }
            for row in rows { found[row.id] = (row.classID, row.grNumber) }
        }
        if context.scope != .school {
            for (id, entry) in found where try entry.classID.map({ try !RosterFacts.teaches(classID: $0, context) }) ?? true {
                found[id] = nil
            }
        }
        let unknown = students.filter { found[$0] == nil }
        if !unknown.isEmpty { throw AttendanceError.unknownStudents(unknown) }
        return try students.map { student in
            guard let entry = found[student], let classID = entry.classID else { throw AttendanceError.noClass(found[student]?.grNumber ?? student) }
            return classID
        }
    }

    /// Students outside the class, refused as `attendance take` refuses them: by the id given,
    /// never by name, so a teacher learns nothing of a student of another class. The school
    /// scope also hears which ids name no student at all (404).
    private static func refuse(_ outside: [String], classCode: String, _ context: ActionContext) throws -> Never {
        if context.scope == .school { _ = try classes(of: outside, context) }
        throw AttendanceError.notInClass(outside[0], classCode)
    }
}
