import Core
import Foundation

/// Lookups the roster's actions share: the current school year, classes by code, students by GR number.
public enum Roster {
    /// Today's date in the school's time zone, `YYYY-MM-DD`.
    public static func today(_ context: ActionContext) -> String {
        day(context.now, in: context.school)
    }

    static func day(_ date: Date, in school: School) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: school.timeZone) ?? .gmt
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    /// The school year that contains today, else the latest that has started, else the first
    /// one planned. Nil when the school has none yet.
    public static func currentSchoolYearID(_ context: ActionContext) throws -> String? {
        try context.database.fetchValue("""
            SELECT id FROM students_school_years WHERE school_id = :school_id
            ORDER BY CASE WHEN starts_on <= :today AND ends_on >= :today THEN 0 WHEN starts_on <= :today THEN 1 ELSE 2 END,
                     CASE WHEN starts_on <= :today THEN starts_on END DESC, starts_on
            LIMIT 1
            """, ["today": .text(today(context))])
    }

    static func requireSchoolYear(_ context: ActionContext) throws -> String {
        guard let year = try currentSchoolYearID(context) else { throw StudentsError.noSchoolYear }
        return year
    }

    /// A class of the current school year by its code (e.g. `7A`).
    public static func classID(code: String, _ context: ActionContext) throws -> String {
        let id: String? = try context.database.fetchValue(
            "SELECT id FROM students_classes WHERE school_id = :school_id AND school_year_id = :year AND code = :code",
            ["year": .text(try requireSchoolYear(context)), "code": .text(code)])
        guard let id else { throw StudentsError.unknownClass(code) }
        return id
    }

    /// The SELECT that lists students with their class this year, for `WHERE` clauses on `s`.
    public static let studentSelect = """
        SELECT s.*, c.code AS class_code, y.code AS year_level FROM students_students s
        LEFT JOIN students_enrolments e ON e.school_id = s.school_id AND e.student_id = s.id AND e.school_year_id = :year
        LEFT JOIN students_classes c ON c.school_id = e.school_id AND c.id = e.class_id
        LEFT JOIN students_year_levels y ON y.school_id = c.school_id AND y.id = c.year_level_id
        """

    /// A student by GR number (not archived), whoever may see them: callers check visibility.
    public static func student(gr: String, _ context: ActionContext) throws -> Student {
        let row = try context.database.fetchOne(
            "\(studentSelect) WHERE s.school_id = :school_id AND s.gr_number = :gr AND s.archived_at IS NULL",
            ["gr": .text(gr), "year": SQLValue(try currentSchoolYearID(context))])
        guard let row else { throw StudentsError.unknownStudent(gr) }
        return Student(row: row)
    }

    /// A visible student by GR number: someone the principal may not see is refused by name,
    /// exactly as a student that does not exist would be for a guardian probing numbers.
    public static func visibleStudent(gr: String, _ context: ActionContext) throws -> Student {
        let student = try student(gr: gr, context)
        guard try StudentVisibility.canSee(studentID: student.id, in: context) else { throw StudentsError.notVisible(gr) }
        return student
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
