import Auth
import Core
import Foundation

/// Lookups the roster's actions share: the current school year, classes by code, students by GR number.
public enum Roster {
    /// Today's date in the school's time zone, `YYYY-MM-DD`.
    public static func today(_ context: ActionContext) -> String {
        context.today.description
    }

    /// The roster's data version, read in the caller's transaction: it changes in the same
    /// transaction as any write to the roster's tables, so a module may keep what it read from
    /// the roster under it (see Core's `ReadCache`). Nil before the school's first roster write.
    public static func dataVersion(_ context: ActionContext) throws -> String? {
        try context.published(by: StudentsModule.moduleID) { try RosterVersion.current(context) }
    }

    /// The school year that contains today, else the latest that has started, else the first
    /// one planned. Nil when the school has none yet.
    public static func currentSchoolYearID(_ context: ActionContext) throws -> String? {
        try context.published(by: StudentsModule.moduleID) {
            try context.database.fetchValue("""
                SELECT id FROM students_school_years WHERE school_id = :school_id
                ORDER BY CASE WHEN starts_on <= :today AND ends_on >= :today THEN 0 WHEN starts_on <= :today THEN 1 ELSE 2 END,
                         CASE WHEN starts_on <= :today THEN starts_on END DESC, starts_on
                LIMIT 1
                """, ["today": .text(today(context))])
        }
    }

    static func requireSchoolYear(_ context: ActionContext) throws -> String {
        guard let year = try currentSchoolYearID(context) else { throw StudentsError.noSchoolYear }
        return year
    }

    /// A class of the current school year by its code (e.g. `7A`).
    public static func classID(code: String, _ context: ActionContext) throws -> String {
        try context.published(by: StudentsModule.moduleID) {
            let id: String? = try context.database.fetchValue(
                "SELECT id FROM students_classes WHERE school_id = :school_id AND school_year_id = :year AND code = :code",
                ["year": .text(try requireSchoolYear(context)), "code": .text(code)])
            guard let id else { throw StudentsError.unknownClass(code) }
            return id
        }
    }

    /// The code of a class of the current school year by its id (the API names classes by id).
    /// With no school year yet there is no such class.
    public static func classCode(id: String, _ context: ActionContext) throws -> String {
        try context.published(by: StudentsModule.moduleID) {
            let code: String? = try context.database.fetchValue(
                "SELECT code FROM students_classes WHERE school_id = :school_id AND school_year_id = \(currentYearSQL) AND id = :id",
                ["today": .text(today(context)), "id": .text(id)])
            guard let code else { throw StudentsError.unknownClass(id) }
            return code
        }
    }

    /// A subject's id by its code (`MATH`), nil when there is none.
    public static func subjectID(code: String, _ context: ActionContext) throws -> String? {
        try context.published(by: StudentsModule.moduleID) {
            try context.database.fetchValue("SELECT id FROM students_subjects WHERE school_id = :school_id AND code = :code", ["code": .text(code)])
        }
    }

    /// The account id of a teacher (or an admin who teaches) in this school, by email; nil when there is none.
    public static func teacherID(email: String, _ context: ActionContext) throws -> String? {
        try context.published(by: StudentsModule.moduleID) {
            try context.database.fetchValue(
                "SELECT id FROM auth_v1_people WHERE school_id = :school_id AND email = :email AND role IN ('TEACHER', 'ADMIN')",
                ["email": .text(UserAccounts.normalize(email))])
        }
    }

    /// The student's own columns `studentColumns` reads, for a subquery standing in for the table.
    static let ownColumns = """
        s.school_id, s.id, s.gr_number, s.given_name, s.surname, s.name_language, s.date_of_birth, s.gender, s.status, s.enrolled_on,
        s.user_id, s.archived_at
        """

    /// The columns a `Student` is read from: the student's own, their class this year and its year level.
    static let studentColumns = """
        s.id, s.gr_number, s.given_name, s.surname, s.name_language, s.date_of_birth, s.gender, s.status, s.enrolled_on, s.user_id,
        s.archived_at, c.id AS class_id, c.code AS class_code, c.name_ar AS class_name_ar, c.name_en AS class_name_en,
        y.code AS year_level, y.name_ar AS level_name_ar, y.name_en AS level_name_en
        """

    /// The SELECT that lists students with their class this year, for `WHERE` clauses on `s`.
    /// Binds `:year` (the current school year's id).
    static let studentSelect = studentSelect(year: ":year")

    /// The same SELECT, with the school year given as SQL: a value, or the current-year
    /// subquery (`currentYearSQL`), so a list needs no separate look-up of the year.
    /// `from` replaces the students table, e.g. by a subquery that has already picked a page of them.
    static func studentSelect(year: String, from students: String = "students_students") -> String {
        """
        SELECT \(studentColumns) FROM \(students) s
        LEFT JOIN students_enrolments e ON e.school_id = s.school_id AND e.student_id = s.id AND e.school_year_id = \(year)
        LEFT JOIN students_classes c ON c.school_id = e.school_id AND c.id = e.class_id
        LEFT JOIN students_year_levels y ON y.school_id = c.school_id AND y.id = c.year_level_id
        """
    }

    /// `currentSchoolYearID` as a scalar subquery (binds `:today`), evaluated once per statement.
    static let currentYearSQL = """
        (SELECT id FROM students_school_years WHERE school_id = :school_id
         ORDER BY CASE WHEN starts_on <= :today AND ends_on >= :today THEN 0 WHEN starts_on <= :today THEN 1 ELSE 2 END,
                  CASE WHEN starts_on <= :today THEN starts_on END DESC, starts_on
         LIMIT 1)
        """

    /// A student by GR number (not archived), whoever may see them: callers check visibility.
    public static func student(gr: String, _ context: ActionContext) throws -> Student {
        try context.published(by: StudentsModule.moduleID) {
            let row = try context.database.fetchOne(
                "\(studentSelect) WHERE s.school_id = :school_id AND s.gr_number = :gr AND s.archived_at IS NULL",
                ["gr": .text(gr), "year": SQLValue(try currentSchoolYearID(context))])
            guard let row else { throw StudentsError.unknownStudent(gr) }
            return Student(row: row)
        }
    }

    /// A student (not archived) by their id or, failing that, their GR number: the API names
    /// students by id, the command line by GR number. Whoever may see them: callers check visibility.
    public static func student(reference: String, _ context: ActionContext) throws -> Student {
        try context.published(by: StudentsModule.moduleID) {
            // Two look-ups, each on its own index: `id = ? OR gr_number = ?` made SQLite scan every
            // student, so an import of n students cost n².
            let arguments: SQLArguments = ["reference": .text(reference), "year": SQLValue(try currentSchoolYearID(context))]
            for column in ["s.id", "s.gr_number"] {
                if let row = try context.database.fetchOne(
                    "\(studentSelect) WHERE s.school_id = :school_id AND \(column) = :reference AND s.archived_at IS NULL", arguments) {
                    return Student(row: row)
                }
            }
            throw StudentsError.unknownStudent(reference)
        }
    }

    /// Every student (not archived) the running action's scope reaches, by GR number: the whole
    /// school, a teacher's classes, a guardian's children, a student themself.
    public static func visibleStudents(_ context: ActionContext) throws -> [Student] {
        try context.published(by: StudentsModule.moduleID) {
            var arguments = StudentVisibility.arguments(for: context)
            arguments["year"] = SQLValue(try currentSchoolYearID(context))
            return try context.database.fetchAll("""
                \(studentSelect) WHERE s.school_id = :school_id AND s.archived_at IS NULL AND \(StudentVisibility.condition(for: context.scope))
                ORDER BY s.gr_number
                """, arguments).map(Student.init(row:))
        }
    }

    /// A visible student by GR number: someone the principal may not see is refused exactly as a
    /// student that does not exist (same code and text), so probing numbers reveals nothing.
    public static func visibleStudent(gr: String, _ context: ActionContext) throws -> Student {
        try context.published(by: StudentsModule.moduleID) {
            let student = try student(gr: gr, context)
            guard try StudentVisibility.canSee(studentID: student.id, in: context) else { throw StudentsError.unknownStudent(gr) }
            return student
        }
    }

    /// A visible student by id or GR number (`student(reference:)`), refused like `visibleStudent(gr:)`.
    public static func visibleStudent(reference: String, _ context: ActionContext) throws -> Student {
        try context.published(by: StudentsModule.moduleID) {
            let student = try student(reference: reference, context)
            guard try StudentVisibility.canSee(studentID: student.id, in: context) else { throw StudentsError.unknownStudent(reference) }
            return student
        }
    }

    /// The student a personal read (history, results, a timetable) is about: the one named, else
    /// the signed-in student or a guardian's only child, so a student need not know their own GR
    /// number. A guardian with several children, or anyone else, names one.
    public static func studentOfRead(_ grNumber: String?, _ context: ActionContext) throws -> Student {
        try context.published(by: StudentsModule.moduleID) {
            if let grNumber { return try visibleStudent(gr: grNumber, context) }
            guard [.ownRecord, .linkedChildren].contains(context.scope) else { throw StudentsError.chooseStudent }
            return try ownStudent(context)
        }
    }

    /// The signed-in student, or a guardian's only child.
    public static func ownStudent(_ context: ActionContext) throws -> Student {
        try context.published(by: StudentsModule.moduleID) {
            let students = try visibleStudents(context)
            guard students.count == 1, let only = students.first else {
                if students.isEmpty { throw StudentsError.noLinkedStudent }
                throw StudentsError.chooseChild(students.map { "\($0.grNumber) \($0.fullName)" })
            }
            return only
        }
    }

    /// A visible student by GR number under the roster's own grant (`students.read`), for an
    /// action that holds another permission but shows a student's name and class (a timetable
    /// looked up by student): no door shows what `students show` refuses.
    public static func rosterVisibleStudent(gr: String, _ context: ActionContext) throws -> Student {
        try context.published(by: StudentsModule.moduleID) {
            guard let scope = context.scope(for: StudentsPermissions.read) else {
                throw KernelError.permissionDenied(permission: StudentsPermissions.read.id, role: context.principal.role)
            }
            let student = try student(gr: gr, context)
            guard try StudentVisibility.canSee(studentID: student.id, scope: scope, in: context) else { throw StudentsError.unknownStudent(gr) }
            return student
        }
    }

    /// Whether the principal teaches this subject in this class (homeroom alone does not count):
    /// who may grade it.
    public static func teachesSubject(classID: String, subjectID: String, _ context: ActionContext) throws -> Bool {
        try context.published(by: StudentsModule.moduleID) {
            let count: Int = try context.database.fetchValue("""
                SELECT COUNT(*) FROM students_teaching
                WHERE school_id = :school_id AND class_id = :class AND subject_id = :subject AND teacher_user_id = :me
                """, ["class": .text(classID), "subject": .text(subjectID), "me": .text(context.principal.userID)]) ?? 0
            return count > 0
        }
    }

    /// Whether one of the school's school years contains the date.
    public static func hasSchoolYear(containing date: CivilDate, _ context: ActionContext) throws -> Bool {
        try context.published(by: StudentsModule.moduleID) {
            let years: Int = try context.database.fetchValue(
                "SELECT COUNT(*) FROM students_school_years WHERE school_id = :school_id AND starts_on <= :date AND ends_on >= :date",
                ["date": .text(date.description)]) ?? 0
            return years > 0
        }
    }

    /// Whether the principal teaches the class (that subject in it, when one is given) or is its
    /// homeroom teacher: what "own classes" means for marking and grading.
    public static func teaches(classID: String, subjectID: String? = nil, _ context: ActionContext) throws -> Bool {
        try context.published(by: StudentsModule.moduleID) {
            let count: Int = try context.database.fetchValue("""
                SELECT COUNT(*) FROM (
                    SELECT class_id FROM students_teaching
                    WHERE school_id = :school_id AND class_id = :class AND (:subject IS NULL OR subject_id = :subject) AND teacher_user_id = :me
                    UNION SELECT id FROM students_classes WHERE school_id = :school_id AND id = :class AND homeroom_teacher_id = :me) AS taught
                """, ["class": .text(classID), "subject": SQLValue(subjectID), "me": .text(context.principal.userID)]) ?? 0
            return count > 0
        }
    }

    /// Seats left in a class.
    static func seatsLeft(classID: String, _ context: ActionContext) throws -> (code: String, capacity: Int, left: Int) {
        let row = try context.database.fetchOne("""
            SELECT c.code, c.capacity, (SELECT COUNT(*) FROM students_enrolments e WHERE e.school_id = c.school_id AND e.class_id = c.id) AS taken
            FROM students_classes c WHERE c.school_id = :school_id AND c.id = :class
            """, ["class": .text(classID)])
        let capacity = row?.int("capacity") ?? 0
        return (row?.string("code") ?? classID, capacity, capacity - (row?.int("taken") ?? 0))
    }
}

extension Roster {
    /// The classes the signed-in person belongs to: a student's own, a guardian's children's, the
    /// classes a teacher teaches or is homeroom teacher of. Whom a class's notice or event is for.
    public static func memberClassIDs(_ context: ActionContext) throws -> Set<String> {
        try context.published(by: StudentsModule.moduleID) {
            Set(try context.database.fetchAll("""
                SELECT e.class_id AS c FROM students_enrolments e JOIN students_students s ON s.school_id = e.school_id AND s.id = e.student_id
                WHERE e.school_id = :school_id AND s.user_id = :me
                UNION SELECT e.class_id FROM students_enrolments e JOIN students_student_guardians sg ON sg.school_id = e.school_id AND sg.student_id = e.student_id
                JOIN students_guardians g ON g.school_id = sg.school_id AND g.id = sg.guardian_id
                WHERE e.school_id = :school_id AND g.user_id = :me
                UNION SELECT class_id FROM students_teaching WHERE school_id = :school_id AND teacher_user_id = :me
                UNION SELECT id FROM students_classes WHERE school_id = :school_id AND homeroom_teacher_id = :me
                """, ["me": .text(context.principal.userID)]).map { $0.string("c") })
        }
    }

    /// Every class of the school by id, with its code: for naming the class a row is for.
    public static func classCodes(_ context: ActionContext) throws -> [String: String] {
        try context.published(by: StudentsModule.moduleID) {
            Dictionary(try context.database.fetchAll("SELECT id, code FROM students_classes WHERE school_id = :school_id").map {
                ($0.string("id"), $0.string("code"))
            }, uniquingKeysWith: { first, _ in first })
        }
    }
}
