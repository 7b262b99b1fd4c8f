import Core
import Foundation
import Students

/// One lesson as the mobile apps list it: when, what, who, where.
public struct WeekLesson: Codable, Sendable, Equatable {
    public let id: String
    /// 0 = Sunday ... 6 = Saturday.
    public let day: Int
    /// -1 every week, else the cycle week (0 = A).
    public let week: Int
    public let periodName: LocalizedText
    /// `HH:MM`, school time.
    public let startsAt: String
    public let endsAt: String
    public let subjectName: LocalizedText
    public let teacherName: String
    public let className: LocalizedText
    public let yearLevelName: LocalizedText
    public let room: String
}

/// The lessons of this week of the cycle (Week A or B, ...) for a person, a child or the
/// caller's own teaching, optionally one weekday; or only today's. This week is the school week
/// holding today, or, on a day off, the week of the next school day, so a weekend shows the
/// coming week. Who may see whose follows `ViewTimetable`: a student's lessons follow the
/// roster's grant (`students.read`), a teacher's the timetable's own.
public struct WeekLessons: Action {
    public enum Whose: String, Codable, Sendable {
        /// `reference`: a student's id (or their account's id), or a teacher's account id.
        case person = "PERSON"
        /// `reference`: one of the caller's children (guardians only), by id or GR number.
        case child = "CHILD"
        /// The caller's own teaching: teachers, admins and developers; unknown when they teach nothing.
        case teaching = "TEACHING"
        /// The caller's own: a student's class, a teacher's teaching, nothing for anyone else.
        case mine = "MINE"
    }

    public enum When: String, Codable, Sendable {
        case week = "WEEK"
        /// Today's lessons: none on a day off.
        case today = "TODAY"
    }

    public struct Input: Codable, Sendable {
        public var whose: Whose
        public var reference: String?
        /// One weekday of the week, 0 = Sunday ... 6 = Saturday.
        public var day: Int?
        public var when: When

        public init(whose: Whose, reference: String? = nil, day: Int? = nil, when: When = .week) {
            self.whose = whose
            self.reference = reference
            self.day = day
            self.when = when
        }
    }

    public struct Output: Codable, Sendable {
        /// The cycle week shown: its letter, or null for a week without school.
        public let week: CycleWeek
        public let lessons: [WeekLesson]
    }

    public static let id = "timetable.lessons"
    public static let permission = TimetablePermissions.read
    public static let isReadOnly = true

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        if let day = input.day, !(0...6).contains(day) { throw TimetableError.invalidDay(String(day)) }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Output {
        let source = try Self.source(input, context)
        let calendar = try SchoolCalendar.load(context)
        let today = context.today
        let shown = input.when == .today || calendar.isSchoolDay(today) ? today : (calendar.nextSchoolDay(onOrAfter: today) ?? today)
        let week = calendar.week(of: shown)
        guard let source, input.when == .week || calendar.isSchoolDay(today) else { return Output(week: week, lessons: []) }
        let index: Int? = if case .week(let index) = week { index } else { nil }
        let rows = try context.database.fetchAll("""
            SELECT t.id, t.day, t.week, t.room, p.name_ar AS period_ar, p.name_en AS period_en, p.starts_at, p.ends_at,
                   sub.name_ar AS subject_ar, sub.name_en AS subject_en, u.display_name AS teacher_name,
                   c.name_ar AS class_ar, c.name_en AS class_en, y.name_ar AS level_ar, y.name_en AS level_en
            FROM timetable_slots t
            JOIN timetable_periods p ON p.school_id = t.school_id AND p.id = t.period_id
            JOIN students_v1_classes c ON c.school_id = t.school_id AND c.id = t.class_id
            JOIN students_v1_year_levels y ON y.school_id = c.school_id AND y.id = c.year_level_id
            JOIN students_v1_subjects sub ON sub.school_id = t.school_id AND sub.id = t.subject_id
            JOIN auth_v1_people u ON u.school_id = t.school_id AND u.id = t.teacher_user_id
            WHERE t.school_id = :school_id AND (:class IS NULL OR t.class_id = :class) AND (:teacher IS NULL OR t.teacher_user_id = :teacher)
              AND (:day IS NULL OR t.day = :day) AND (t.week = -1 OR t.week = :week)
            ORDER BY t.day, p.starts_at, t.id
            """, ["class": SQLValue(source.classID), "teacher": SQLValue(source.teacherID), "week": SQLValue(index),
                  "day": SQLValue(input.when == .today ? today.weekday : input.day)])
        return Output(week: week, lessons: rows.map { row in
            WeekLesson(id: row.string("id"), day: row.int("day"), week: row.int("week"),
                       periodName: LocalizedText(ar: row.string("period_ar"), en: row.string("period_en")),
                       startsAt: row.string("starts_at"), endsAt: row.string("ends_at"),
                       subjectName: LocalizedText(ar: row.string("subject_ar"), en: row.string("subject_en")), teacherName: row.string("teacher_name"),
                       className: LocalizedText(ar: row.string("class_ar"), en: row.string("class_en")),
                       yearLevelName: LocalizedText(ar: row.string("level_ar"), en: row.string("level_en")), room: row.string("room"))
        })
    }

    /// Whose slots: a class's or a teacher's; nil when there is nothing to show (a student in no
    /// class this year, someone with no timetable of their own).
    struct Source {
        var classID: String?
        var teacherID: String?
    }

    static func source(_ input: Input, _ context: ActionContext) throws -> Source? {
        let me = context.principal.userID
        switch input.whose {
        case .person:
            let reference = try required(input.reference)
            if let gr = try studentGR(reference, context) {
                return try classOf(try reachable(gr, else: TimetableError.unknownPerson(reference), context), context)
            }
            if reference == me { return Source(teacherID: me) }
            let role: String? = try context.database.fetchValue("SELECT role FROM auth_v1_people WHERE school_id = :school_id AND id = :id", ["id": .text(reference)])
            guard let role, [Role.teacher.rawValue, Role.admin.rawValue].contains(role) else { throw TimetableError.unknownPerson(reference) }
            // A teacher's grid names no student: the timetable's own grant decides, as for a teacher
            // by email; out of scope answers as a person who does not exist.
            guard context.scope == .school else { throw TimetableError.unknownPerson(reference) }
            return Source(teacherID: reference)
        case .child:
            guard context.scope == .linkedChildren else {
                throw KernelError.permissionDenied(permission: TimetablePermissions.read.id, role: context.principal.role)
            }
            let reference = try required(input.reference)
            guard let gr = try studentGR(reference, context) else { throw StudentsError.unknownStudent(reference) }
            return try classOf(try reachable(gr, else: StudentsError.unknownStudent(reference), context), context)
        case .teaching:
            guard [.teacher, .admin, .developer].contains(context.principal.role) else {
                throw KernelError.permissionDenied(permission: TimetablePermissions.read.id, role: context.principal.role)
            }
            let taught: Int = try context.database.fetchValue("""
                SELECT (SELECT COUNT(*) FROM timetable_slots WHERE school_id = :school_id AND teacher_user_id = :me)
                     + (SELECT COUNT(*) FROM students_v1_teaching WHERE school_id = :school_id AND teacher_user_id = :me)
                """, ["me": .text(me)]) ?? 0
            guard taught > 0 else { throw TimetableError.noTeaching }
            return Source(teacherID: me)
        case .mine:
            switch context.principal.role {
            case .teacher: return Source(teacherID: me)
            case .student:
                guard let student = try Roster.visibleStudents(context).first else { return nil }
                return try classOf(student, context)
            default: return nil
            }
        }
    }

    private static func required(_ reference: String?) throws -> String {
        guard let reference, !reference.isEmpty else { throw TimetableError.chooseTarget }
        return reference
    }

    /// The GR number of the student a reference names: their id, their account's id, or their GR number.
    /// The student a GR number names, when the caller may see them; otherwise `refusal`, the
    /// answer to an id that names nobody, so a student out of reach is not told apart (nor their
    /// GR number shown).
    private static func reachable(_ gr: String, else refusal: @autoclosure () -> any Error, _ context: ActionContext) throws -> Student {
        do {
            return try Roster.rosterVisibleStudent(gr: gr, context)
        } catch StudentsError.unknownStudent {
            throw refusal()
        } catch KernelError.permissionDenied {
            throw refusal()
        }
    }

    private static func studentGR(_ reference: String, _ context: ActionContext) throws -> String? {
        try context.database.fetchValue("""
            SELECT gr_number FROM students_v1_students WHERE school_id = :school_id AND archived_at IS NULL
              AND (id = :reference OR user_id = :reference OR gr_number = :reference)
            ORDER BY id = :reference DESC, user_id = :reference DESC LIMIT 1
            """, ["reference": .text(reference)])
    }

    private static func classOf(_ student: Student, _ context: ActionContext) throws -> Source? {
        guard let code = student.classCode else { return nil }
        return Source(classID: try Roster.classID(code: code, context))
    }
}
