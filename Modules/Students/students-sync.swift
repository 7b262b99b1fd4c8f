import Core

/// What the roster shares with offline apps: students and classes, and who receives them.
///
/// A student goes to `class:<id>` of every class they are enrolled in (their teachers),
/// `student:<id>` (themself, their guardians) and `students:all` (school-wide readers). A class
/// goes to `class:<id>`, `class-members:<id>` (its students and their guardians see the class,
/// never their classmates' records) and `students:all`. Archived students are deleted for clients.
public enum StudentsSync {
    /// Held by roles that read every student (admins, staff): one key instead of one per class.
    public static let everyone = SyncScopeKey.other("students", "all")

    static var entities: [SyncEntityType] { [student, schoolClass, subject] }

    static let student = SyncEntityType(
        "student",
        sources: [SyncSource(table: "students_students"), SyncSource(table: "students_enrolments", idColumn: "student_id")],
        load: { ids, context in
            var result: [String: SyncEntity] = [:]
            try context.database.forEachRow("""
                SELECT s.id, s.gr_number, s.given_name, s.surname, s.name_language, s.status, s.user_id,
                    (SELECT e.class_id FROM students_enrolments e WHERE e.school_id = s.school_id AND e.student_id = s.id
                     AND e.school_year_id = \(Roster.currentYearSQL)) AS class_id,
                    (SELECT group_concat(e.class_id, ' ') FROM students_enrolments e WHERE e.school_id = s.school_id AND e.student_id = s.id) AS classes
                FROM students_students s
                WHERE s.school_id = :school_id AND s.archived_at IS NULL AND s.id IN (SELECT value FROM json_each(:ids))
                """, ["ids": .text(SyncScope.json(ids)), "today": .text(context.today.description)]) { row in
                let id = row.string("id")
                let name = "\(row.string("given_name")) \(row.string("surname"))"
                let classes = (row["classes"] as String?)?.split(separator: " ").map(String.init) ?? []
                result[id] = SyncEntity(
                    data: ["id": .string(id), "grNumber": .string(row.string("gr_number")), "name": .string(name),
                           "nameEn": row.string("name_language") == "en" ? .string(name) : .null,
                           "givenName": .string(row.string("given_name")), "surname": .string(row.string("surname")),
                           "classId": .optional(row["class_id"]), "status": .string(row.string("status")), "userId": .optional(row["user_id"])],
                    scopes: classes.map(SyncScopeKey.class) + [.student(id), everyone])
            }
            return result
        },
        snapshot: { scope, after, limit, context in
            let filter = scope.contains(everyone) ? "" : """
                AND (s.id IN (SELECT value FROM json_each(:students)) OR s.id IN (
                    SELECT e.student_id FROM students_enrolments e WHERE e.school_id = :school_id AND e.class_id IN (SELECT value FROM json_each(:classes))))
                """
            return try context.database.fetchAll("""
                SELECT s.id FROM students_students s WHERE s.school_id = :school_id AND s.archived_at IS NULL AND s.id > :after \(filter)
                ORDER BY s.id LIMIT :limit
                """, ["after": .text(after), "limit": .integer(Int64(limit)), "students": .text(scope.jsonIDs(of: "student")),
                      "classes": .text(scope.jsonIDs(of: "class"))]).map { $0.string("id") }
        })

    static let schoolClass = SyncEntityType(
        "class",
        sources: [SyncSource(table: "students_classes")],
        load: { ids, context in
            var result: [String: SyncEntity] = [:]
            try context.database.forEachRow("""
                SELECT c.id, c.code, c.name_ar, c.name_en, c.school_year_id, c.homeroom_teacher_id, y.code AS year_level
                FROM students_classes c LEFT JOIN students_year_levels y ON y.school_id = c.school_id AND y.id = c.year_level_id
                WHERE c.school_id = :school_id AND c.id IN (SELECT value FROM json_each(:ids))
                """, ["ids": .text(SyncScope.json(ids))]) { row in
                let id = row.string("id")
                result[id] = SyncEntity(
                    data: ["id": .string(id), "code": .string(row.string("code")), "name": .string(row.string("name_ar")),
                           "nameEn": .string(row.string("name_en")), "yearLevel": .optional(row["year_level"]),
                           "schoolYearId": .string(row.string("school_year_id")), "homeroomTeacherId": .optional(row["homeroom_teacher_id"])],
                    scopes: [.class(id), .classMembers(id), everyone])
            }
            return result
        },
        snapshot: { scope, after, limit, context in
            let filter = scope.contains(everyone) ? "" : "AND (c.id IN (SELECT value FROM json_each(:classes)) OR c.id IN (SELECT value FROM json_each(:members)))"
            return try context.database.fetchAll("""
                SELECT c.id FROM students_classes c WHERE c.school_id = :school_id AND c.id > :after \(filter) ORDER BY c.id LIMIT :limit
                """, ["after": .text(after), "limit": .integer(Int64(limit)), "classes": .text(scope.jsonIDs(of: "class")),
                      "members": .text(scope.jsonIDs(of: "class-members"))]).map { $0.string("id") }
        })

    /// A teacher: the classes they teach or lead. A guardian: each child and the child's class. A
    /// student: themself and their class. A school-wide reader: `students:all`.
    static let scopes: SyncScopeRule = { principal, context in
        let viewer: SQLArguments = ["viewer": .text(principal.userID), "today": .text(context.today.description)]
        switch context.scope(for: StudentsPermissions.read) {
        case .school:
            return [everyone]
        case .ownClasses:
            return try context.database.fetchAll("""
                SELECT class_id AS id FROM students_teaching WHERE school_id = :school_id AND teacher_user_id = :viewer
                UNION SELECT id FROM students_classes WHERE school_id = :school_id AND homeroom_teacher_id = :viewer
                """, viewer).flatMap { row in [SyncScopeKey.class(row.string("id")), .classMembers(row.string("id"))] }
        case .linkedChildren, .ownRecord:
            let students = context.scope(for: StudentsPermissions.read) == .ownRecord
                ? "SELECT s.id FROM students_students s WHERE s.school_id = :school_id AND s.user_id = :viewer AND s.archived_at IS NULL"
                : """
                    SELECT sg.student_id AS id FROM students_student_guardians sg
                    JOIN students_guardians g ON g.school_id = sg.school_id AND g.id = sg.guardian_id
                    WHERE sg.school_id = :school_id AND g.user_id = :viewer
                    """
            return try context.database.fetchAll("""
                SELECT p.id, (SELECT e.class_id FROM students_enrolments e WHERE e.school_id = :school_id AND e.student_id = p.id
                              AND e.school_year_id = \(Roster.currentYearSQL)) AS class_id
                FROM (\(students)) p
                """, viewer).flatMap { row -> [SyncScopeKey] in
                [SyncScopeKey.student(row.string("id"))] + ((row["class_id"] as String?).map { [SyncScopeKey.classMembers($0)] } ?? [])
            }
        case nil:
            return []
        }
    }
}
