import Core
import Students

/// The roster facts every register read and write asks for (a class's code and list, whether the
/// teacher teaches it, whether a date falls in a school year), kept between runs while the
/// school's roster is unchanged: the Students module's data version, read in the run's own
/// transaction, changes with any write to its tables, whoever makes it.
///
/// Safe inside write transactions too because attendance never writes the roster: the version an
/// attendance run reads is a committed one, never its own uncommitted change.
enum RosterFacts {
    /// The roster's version for this run (read once), nil before the school's first roster write.
    static func version(_ context: ActionContext) throws -> String? {
        // Remembered as a String, never an Optional: an absent key would read back as a remembered nil.
        let version = try context.remember("attendance.roster-version") { try Roster.dataVersion(context) ?? "" }
        return version.isEmpty ? nil : version
    }

    /// Whether the principal teaches the class or is its homeroom teacher.
    static func teaches(classID: String, _ context: ActionContext) throws -> Bool {
        let key = FactKey(school: context.school.id, fact: .teaches(user: context.principal.userID, classID: classID))
        return try answers.value(for: key, at: try version(context)) { try Roster.teaches(classID: classID, context) }
    }

    /// Whether one of the school's school years contains the date.
    static func hasSchoolYear(containing date: CivilDate, _ context: ActionContext) throws -> Bool {
        let key = FactKey(school: context.school.id, fact: .schoolYear(date.description))
        return try answers.value(for: key, at: try version(context)) { try Roster.hasSchoolYear(containing: date, context) }
    }

    /// A class's list in print order (enrolled students not archived), by surname, given name, GR number.
    static func classList(_ classID: String, _ context: ActionContext) throws -> [ClassSession.Student] {
        try lists.value(for: ListKey(school: context.school.id, classID: classID), at: try version(context)) {
            try context.database.fetchAll("""
                SELECT s.id, s.gr_number, s.given_name || ' ' || s.surname AS name FROM students_v1_enrolments e
                JOIN students_v1_students s ON s.school_id = e.school_id AND s.id = e.student_id AND s.archived_at IS NULL
                WHERE e.school_id = :school_id AND e.class_id = :class
                ORDER BY s.surname, s.given_name, s.gr_number
                """, ["class": .text(classID)]) { row in
                ClassSession.Student(studentID: row.string(0), grNumber: row.string(1), name: row.string(2))
            }
        }
    }

    /// A class's code by its id, of any school year; another school's id is unknown (and not kept).
    static func classCode(id classID: String, _ context: ActionContext) throws -> String {
        try codes.value(for: ListKey(school: context.school.id, classID: classID), at: try version(context)) {
            let code: String? = try context.database.fetchValue(
                "SELECT code FROM students_v1_classes WHERE school_id = :school_id AND id = :class", ["class": .text(classID)])
            guard let code else { throw StudentsError.unknownClass(classID) }
            return code
        }
    }

    private struct FactKey: Hashable, Sendable {
        enum Fact: Hashable, Sendable {
            case teaches(user: String, classID: String)
            case schoolYear(String)
        }

        let school: String
        let fact: Fact
    }

    private struct ListKey: Hashable, Sendable {
        let school: String
        let classID: String
    }

    private static let answers = ReadCache<FactKey, Bool>(capacity: 8_192)
    private static let lists = ReadCache<ListKey, [ClassSession.Student]>(capacity: 2_048)
    private static let codes = ReadCache<ListKey, String>(capacity: 4_096)
}
