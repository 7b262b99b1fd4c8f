import Core

/// The read-only views Students publishes for the modules that depend on it: its contract for
/// reports and lists that join the roster for speed. Each names its columns, so a column added
/// to a table reaches no one until a view publishes it; a view is never changed incompatibly
/// under the same name (a `v2` is published beside it). SQLite flattens these simple views into
/// the consumer's statement, so a join through them uses the tables' own indexes; the viewer
/// view's arms are ordered (`CROSS JOIN`, its condition in `WHERE` so PostgreSQL reads it too)
/// to start from the viewer's own rows, as SQLite pushes the consumer's `viewer_user_id = ?` into each arm.
enum StudentsViews {
    static let names = [
        "students_v1_students", "students_v1_classes", "students_v1_enrolments", "students_v1_year_levels",
        "students_v1_subjects", "students_v1_terms", "students_v1_teaching", "students_v1_guardian_links",
        "students_v1_student_viewers",
    ]

    static let version1 = """
        CREATE VIEW students_v1_students AS
            SELECT school_id, id, gr_number, given_name, surname, name_language, date_of_birth, gender, status, enrolled_on, user_id, archived_at
            FROM students_students;
        CREATE VIEW students_v1_classes AS
            SELECT school_id, id, school_year_id, year_level_id, code, name_ar, name_en, homeroom_teacher_id, capacity FROM students_classes;
        CREATE VIEW students_v1_enrolments AS
            SELECT school_id, student_id, school_year_id, class_id, enrolled_on FROM students_enrolments;
        CREATE VIEW students_v1_year_levels AS
            SELECT school_id, id, code, name_ar, name_en, position FROM students_year_levels;
        CREATE VIEW students_v1_subjects AS
            SELECT school_id, id, code, name_ar, name_en, credits FROM students_subjects;
        CREATE VIEW students_v1_terms AS
            SELECT school_id, id, school_year_id, name_ar, name_en, starts_on, ends_on FROM students_terms;
        CREATE VIEW students_v1_teaching AS
            SELECT school_id, teacher_user_id, class_id, subject_id FROM students_teaching;
        CREATE VIEW students_v1_guardian_links AS
            SELECT sg.school_id, sg.student_id, sg.guardian_id, sg.relation, sg.is_primary,
                   g.given_name, g.surname, g.email, g.phone, g.user_id AS guardian_user_id
            FROM students_student_guardians sg JOIN students_guardians g ON g.school_id = sg.school_id AND g.id = sg.guardian_id;
        CREATE VIEW students_v1_student_viewers AS
            SELECT t.school_id, t.teacher_user_id AS viewer_user_id, e.student_id, 'TEACHER' AS via
            FROM students_teaching t CROSS JOIN students_enrolments e WHERE e.school_id = t.school_id AND e.class_id = t.class_id
            UNION ALL
            SELECT c.school_id, c.homeroom_teacher_id, e.student_id, 'TEACHER'
            FROM students_classes c CROSS JOIN students_enrolments e
            WHERE e.school_id = c.school_id AND e.class_id = c.id AND c.homeroom_teacher_id IS NOT NULL
            UNION ALL
            SELECT g.school_id, g.user_id, sg.student_id, 'GUARDIAN'
            FROM students_guardians g CROSS JOIN students_student_guardians sg
            WHERE sg.school_id = g.school_id AND sg.guardian_id = g.id AND g.user_id IS NOT NULL
            UNION ALL
            SELECT school_id, user_id, id, 'SELF' FROM students_students WHERE user_id IS NOT NULL;
        """
}
