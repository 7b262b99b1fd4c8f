import Auth
import Core
import Foundation

/// A class a teacher teaches: one row per subject they teach in it, or one row without a
/// subject for a class they are only the homeroom teacher of.
public struct TaughtClass: Codable, Sendable, Equatable {
    public let classID: String
    public let classCode: String
    public let className: LocalizedText
    public let yearLevelName: LocalizedText
    public let subjectName: LocalizedText?
    public let studentCount: Int
}

/// The signed-in teacher's classes this school year, with how many students each has. An admin
/// who teaches sees theirs; a student or guardian is refused.
public struct ListTeacherClasses: Action {
    public struct Input: Codable, Sendable { public init() {} }

    public static let id = "students.teacher-classes"
    public static let permission = StudentsPermissions.read
    public static let isReadOnly = true

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        try ClassReads.requireStaff(context)
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> [TaughtClass] {
        try context.database.fetchAll("""
            SELECT c.id, c.code, c.name_ar, c.name_en, y.name_ar AS level_ar, y.name_en AS level_en, y.position,
                   sub.name_ar AS subject_ar, sub.name_en AS subject_en, \(ClassReads.enrolledCount) AS students
            FROM students_classes c
            JOIN students_year_levels y ON y.school_id = c.school_id AND y.id = c.year_level_id
            LEFT JOIN students_teaching t ON t.school_id = c.school_id AND t.class_id = c.id AND t.teacher_user_id = :me
            LEFT JOIN students_subjects sub ON sub.school_id = t.school_id AND sub.id = t.subject_id
            WHERE c.school_id = :school_id AND c.school_year_id = \(Roster.currentYearSQL)
              AND (t.class_id IS NOT NULL OR (c.homeroom_teacher_id = :me AND NOT EXISTS (
                  SELECT 1 FROM students_teaching o WHERE o.school_id = c.school_id AND o.class_id = c.id AND o.teacher_user_id = :me)))
            ORDER BY y.position, c.code, sub.code
            """, ["me": .text(context.principal.userID), "today": .text(Roster.today(context))]).map { row in
            TaughtClass(
                classID: row.string("id"), classCode: row.string("code"), className: LocalizedText(ar: row.string("name_ar"), en: row.string("name_en")),
                yearLevelName: LocalizedText(ar: row.string("level_ar"), en: row.string("level_en")),
                subjectName: (row["subject_ar"] as String?).map { LocalizedText(ar: $0, en: row.string("subject_en")) },
                studentCount: row.int("students"))
        }
    }
}

/// The students of one class (by id), for its teachers, its homeroom teacher and the school's
/// staff. The web app answered this for anyone: here another teacher's class is refused, and a
/// student or guardian is refused outright.
public struct ListClassStudents: Action {
    public struct Input: Codable, Sendable {
        public var classID: String
        public init(classID: String) { self.classID = classID }
    }

    public static let id = "students.class-students"
    public static let permission = StudentsPermissions.read
    public static let isReadOnly = true

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        try ClassReads.requireStaff(context)
        _ = try Roster.classCode(id: input.classID, context)
        // Another teacher's class answers as a class that does not exist: no hint that it does.
        if context.scope != .school, try !Roster.teaches(classID: input.classID, context) { throw StudentsError.unknownClass(input.classID) }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> [Student] {
        try ClassReads.students(ofClass: input.classID, context)
    }
}

/// A class as the school's administrators see it: capacity, enrolment, year level and homeroom teacher.
public struct ClassSummary: Codable, Sendable, Equatable {
    public let id: String
    public let code: String
    public let name: LocalizedText
    /// The section letter: the letters that end the code (`7A` → `A`), nil when it ends in none.
    public let letter: String?
    public let capacity: Int
    public let studentCount: Int
    public let yearLevelID: String
    public let yearLevelName: LocalizedText
    public let yearLevelPosition: Int
    public let homeroomTeacherID: String?
    public let homeroomTeacherName: String?
}

public struct ClassSummaryPage: Codable, Sendable {
    public let classes: [ClassSummary]
    public let total: Int
}

/// This school year's classes, a page at a time, for administrators.
public struct BrowseClasses: Action {
    public struct Input: Codable, Sendable {
        public var offset: Int
        public var limit: Int
        public init(offset: Int = 0, limit: Int = 50) {
            self.offset = offset
            self.limit = limit
        }
    }

    public static let id = "students.browse-classes"
    public static let permission = StudentsPermissions.manageRoster
    public static let isReadOnly = true

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        guard (1...StudentPage.maximumPageSize).contains(input.limit) else { throw InputError("students.error.page-size") }
        guard (0...100_000_000).contains(input.offset) else { throw InputError("students.error.page") }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> ClassSummaryPage {
        let arguments: SQLArguments = ["today": .text(Roster.today(context)), "limit": .integer(Int64(input.limit)), "offset": .integer(Int64(input.offset))]
        let total: Int = try context.database.fetchValue(
            "SELECT COUNT(*) FROM students_classes c WHERE c.school_id = :school_id AND c.school_year_id = \(Roster.currentYearSQL)", arguments) ?? 0
        let rows = try context.database.fetchAll(
            "\(ClassReads.summarySelect) WHERE c.school_id = :school_id AND c.school_year_id = \(Roster.currentYearSQL) ORDER BY y.position, c.code LIMIT :limit OFFSET :offset",
            arguments)
        return ClassSummaryPage(classes: try ClassReads.summaries(rows, context), total: total)
    }
}

/// A class with its students.
public struct ClassDetail: Codable, Sendable {
    public let summary: ClassSummary
    public let students: [Student]
}

/// One class of this school year by id, with its students, for administrators.
public struct ShowClass: Action {
    public struct Input: Codable, Sendable {
        public var classID: String
        public init(classID: String) { self.classID = classID }
    }

    public static let id = "students.show-class"
    public static let permission = StudentsPermissions.manageRoster
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> ClassDetail {
        let row = try context.database.fetchOne(
            "\(ClassReads.summarySelect) WHERE c.school_id = :school_id AND c.school_year_id = \(Roster.currentYearSQL) AND c.id = :class",
            ["today": .text(Roster.today(context)), "class": .text(input.classID)])
        guard let row, let summary = try ClassReads.summaries([row], context).first else { throw StudentsError.unknownClass(input.classID) }
        return ClassDetail(summary: summary, students: try ClassReads.students(ofClass: input.classID, context))
    }
}

/// The school's totals: students (not archived), the people who teach a class this year (a
/// subject or as homeroom teacher), guardians, and this year's classes.
public struct SchoolTotals: Codable, Sendable, Equatable {
    public let students: Int
    public let teachers: Int
    public let guardians: Int
    public let classes: Int
}

/// The school's totals, for the dashboard and the school card every member sees.
public struct CountRoster: Action {
    public struct Input: Codable, Sendable { public init() {} }

    public static let id = "students.totals"
    public static let permission = StudentsPermissions.readRoster
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> SchoolTotals {
        let row = try context.database.fetchOne("""
            SELECT
              (SELECT COUNT(*) FROM students_students WHERE school_id = :school_id AND archived_at IS NULL) AS students,
              (SELECT COUNT(*) FROM (
                  SELECT t.teacher_user_id FROM students_teaching t JOIN students_classes c ON c.school_id = t.school_id AND c.id = t.class_id
                  WHERE t.school_id = :school_id AND c.school_year_id = \(Roster.currentYearSQL)
                  UNION SELECT homeroom_teacher_id FROM students_classes
                  WHERE school_id = :school_id AND school_year_id = \(Roster.currentYearSQL) AND homeroom_teacher_id IS NOT NULL) AS teaching) AS teachers,
              (SELECT COUNT(*) FROM students_guardians WHERE school_id = :school_id) AS guardians,
              (SELECT COUNT(*) FROM students_classes WHERE school_id = :school_id AND school_year_id = \(Roster.currentYearSQL)) AS classes
            """, ["today": .text(Roster.today(context))])
        return SchoolTotals(students: row?.int("students") ?? 0, teachers: row?.int("teachers") ?? 0,
                            guardians: row?.int("guardians") ?? 0, classes: row?.int("classes") ?? 0)
    }
}

/// Reads the class actions share.
enum ClassReads {
    /// The students of class `c` who are not archived, as a scalar subquery.
    static let enrolledCount = """
        (SELECT COUNT(*) FROM students_enrolments e JOIN students_students s ON s.school_id = e.school_id AND s.id = e.student_id
         WHERE e.school_id = c.school_id AND e.class_id = c.id AND s.archived_at IS NULL)
        """

    static let summarySelect = """
        SELECT c.id, c.code, c.name_ar, c.name_en, c.capacity, c.homeroom_teacher_id, y.id AS level_id, y.name_ar AS level_ar,
               y.name_en AS level_en, y.position, \(enrolledCount) AS students
        FROM students_classes c JOIN students_year_levels y ON y.school_id = c.school_id AND y.id = c.year_level_id
        """

    /// Teachers and the school's staff only: a student or guardian has no classes to read.
    static func requireStaff(_ context: ActionContext) throws {
        guard context.scope == .school || context.scope == .ownClasses else { throw StudentsError.notATeacher }
    }

    /// The class's students (not archived), by name.
    static func students(ofClass classID: String, _ context: ActionContext) throws -> [Student] {
        try context.database.fetchAll("""
            \(Roster.studentSelect(year: Roster.currentYearSQL))
            WHERE s.school_id = :school_id AND s.archived_at IS NULL
              AND s.id IN (SELECT student_id FROM students_enrolments WHERE school_id = :school_id AND class_id = :class)
            ORDER BY s.surname, s.given_name, s.gr_number
            """, ["class": .text(classID), "today": .text(Roster.today(context))]).map(Student.init(row:))
    }

    /// Rows of `summarySelect` with their homeroom teachers' names (one look-up per teacher, not per row).
    static func summaries(_ rows: [SQLRow], _ context: ActionContext) throws -> [ClassSummary] {
        var names: [String: String] = [:]
        for id in Set(rows.compactMap { $0["homeroom_teacher_id"] as String? }) {
            names[id] = try UserAccounts.find(id: id, in: context)?.displayName
        }
        return rows.map { row in
            let code = row.string("code")
            let letters = String(code.reversed().prefix { $0.isLetter }.reversed())
            let teacher: String? = row["homeroom_teacher_id"]
            return ClassSummary(
                id: row.string("id"), code: code, name: LocalizedText(ar: row.string("name_ar"), en: row.string("name_en")),
                letter: letters.isEmpty || letters == code ? nil : letters, capacity: row.int("capacity"), studentCount: row.int("students"),
                yearLevelID: row.string("level_id"), yearLevelName: LocalizedText(ar: row.string("level_ar"), en: row.string("level_en")),
                yearLevelPosition: row.int("position"), homeroomTeacherID: teacher, homeroomTeacherName: teacher.flatMap { names[$0] })
        }
    }
}
