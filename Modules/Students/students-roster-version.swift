import Core

/// The roster's data version per school: a random token (new for each school's first change, so
/// two databases never share a version) and a number that triggers on the roster's tables raise
/// in the same transaction as any insert, update or delete, whichever path wrote it (actions,
/// imports, the demo, another process). Reads keyed by it can be kept between requests.
enum RosterVersion {
    /// The tables a roster read depends on: everything but the counters, which only number admissions.
    static let tables = [
        "students_school_years", "students_terms", "students_year_levels", "students_classes", "students_subjects",
        "students_students", "students_enrolments", "students_teaching", "students_guardians", "students_student_guardians",
    ]

    static var migrationSQL: String {
        let table = """
            CREATE TABLE students_roster_versions (
                school_id TEXT NOT NULL PRIMARY KEY, token TEXT NOT NULL, version INTEGER NOT NULL
            );
            """
        let triggers = tables.flatMap { table in
            [("insert", "INSERT", "NEW"), ("update", "UPDATE", "NEW"), ("delete", "DELETE", "OLD")].map { name, event, row in
                """
                CREATE TRIGGER \(table)_version_\(name) AFTER \(event) ON \(table) BEGIN
                    INSERT INTO students_roster_versions (school_id, token, version) VALUES (\(row).school_id, lower(hex(randomblob(8))), 1)
                    ON CONFLICT (school_id) DO UPDATE SET version = version + 1;
                END;
                """
            }
        }
        return ([table] + triggers).joined(separator: "\n")
    }

    /// The school's version as one text, read in the caller's transaction; nil before its first change.
    static func current(_ context: ActionContext) throws -> String? {
        try context.database.fetchValue("SELECT token || ':' || version FROM students_roster_versions WHERE school_id = :school_id")
    }
}
