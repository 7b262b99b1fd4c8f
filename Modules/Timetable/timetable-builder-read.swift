import Core
import Students

/// What the timetable builder lays out for one class: the school's cycle (its length and
/// working days), the periods, the class's lessons in every week of the cycle, who teaches what
/// in the class (the lessons one may place), and, for a chosen day and period, every lesson of
/// the school then (so the page can say who is already busy before a placement is tried).
public struct ShowTimetableBuilder: Action {
    public struct Input: Codable, Sendable {
        public var classCode: String
        public var day: Int?
        public var periodCode: String?
        public init(classCode: String, day: Int? = nil, periodCode: String? = nil) {
            self.classCode = classCode
            self.day = day
            self.periodCode = periodCode
        }
    }

    /// A subject taught in the class, and its teacher.
    public struct Teaching: Codable, Sendable, Equatable {
        public let subjectCode: String
        public let subjectName: LocalizedText
        public let teacherEmail: String
        public let teacherName: String
    }

    public struct Output: Codable, Sendable {
        public let classCode: String
        public let cycleLength: Int
        /// 0 is Sunday.
        public let workingDays: [Int]
        public let periods: [Period]
        public let lessons: [Slot]
        public let teaching: [Teaching]
        /// Every lesson of the school at the asked day and period; none when not asked.
        public let busy: [Slot]
    }

    public static let id = "timetable.builder"
    public static let permission = TimetablePermissions.manage
    public static let isReadOnly = true

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        try TextInput.check(input.classCode, field: "class", maxLength: TextLimit.code)
        if let day = input.day, !(0...6).contains(day) { throw TimetableError.notWorkingDay(day) }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Output {
        let classID = try Roster.classID(code: input.classCode, context)
        let calendar = try SchoolCalendar.load(context)
        let teaching = try context.database.fetchAll("""
            SELECT sub.code AS subject_code, sub.name_ar, sub.name_en, u.email, u.display_name
            FROM students_v1_teaching t
            JOIN students_v1_subjects sub ON sub.school_id = t.school_id AND sub.id = t.subject_id
            JOIN auth_v1_people u ON u.school_id = t.school_id AND u.id = t.teacher_user_id
            WHERE t.school_id = :school_id AND t.class_id = :class ORDER BY sub.code, u.display_name
            """, ["class": .text(classID)]).map { row in
            Teaching(subjectCode: row.string("subject_code"), subjectName: LocalizedText(ar: row.string("name_ar"), en: row.string("name_en")),
                     teacherEmail: row.string("email"), teacherName: row.string("display_name"))
        }
        var busy: [Slot] = []
        if let day = input.day, let code = input.periodCode {
            let period = try SlotQueries.period(code: code, context)
            busy = try SlotQueries.slots(context).filter { $0.day == day && $0.periodCode == period.code }
        }
        return Output(classCode: input.classCode, cycleLength: calendar.cycleLength, workingDays: calendar.workingDays.sorted(),
                      periods: try SlotQueries.periods(context), lessons: try SlotQueries.slots(classID: classID, context),
                      teaching: teaching, busy: busy)
    }
}
