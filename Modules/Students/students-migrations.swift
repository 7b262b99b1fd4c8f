import Core

/// The roster's tables. Dates are `YYYY-MM-DD` text; every table belongs to a school.
enum StudentsMigrations {
    static let all: [Migration] = [
        Migration("001-structure", sql: """
            CREATE TABLE students_school_years (
                school_id TEXT NOT NULL, id TEXT NOT NULL, name TEXT NOT NULL,
                starts_on TEXT NOT NULL, ends_on TEXT NOT NULL,
                PRIMARY KEY (school_id, id), UNIQUE (school_id, name)
            );
            CREATE TABLE students_terms (
                school_id TEXT NOT NULL, id TEXT NOT NULL, school_year_id TEXT NOT NULL,
                name_ar TEXT NOT NULL, name_en TEXT NOT NULL, starts_on TEXT NOT NULL, ends_on TEXT NOT NULL,
                PRIMARY KEY (school_id, id)
            );
            CREATE TABLE students_year_levels (
                school_id TEXT NOT NULL, id TEXT NOT NULL, code TEXT NOT NULL,
                name_ar TEXT NOT NULL, name_en TEXT NOT NULL, position INTEGER NOT NULL,
                PRIMARY KEY (school_id, id), UNIQUE (school_id, code)
            );
            CREATE TABLE students_classes (
                school_id TEXT NOT NULL, id TEXT NOT NULL, school_year_id TEXT NOT NULL, year_level_id TEXT NOT NULL,
                code TEXT NOT NULL, name_ar TEXT NOT NULL, name_en TEXT NOT NULL,
                homeroom_teacher_id TEXT, capacity INTEGER NOT NULL,
                PRIMARY KEY (school_id, id), UNIQUE (school_id, school_year_id, code)
            );
            CREATE TABLE students_subjects (
                school_id TEXT NOT NULL, id TEXT NOT NULL, code TEXT NOT NULL,
                name_ar TEXT NOT NULL, name_en TEXT NOT NULL, credits REAL NOT NULL,
                PRIMARY KEY (school_id, id), UNIQUE (school_id, code)
            );
            """),
        Migration("002-students", sql: """
            CREATE TABLE students_students (
                school_id TEXT NOT NULL, id TEXT NOT NULL, gr_number TEXT NOT NULL,
                given_name TEXT NOT NULL, surname TEXT NOT NULL, name_language TEXT NOT NULL,
                date_of_birth TEXT NOT NULL, gender TEXT NOT NULL, status TEXT NOT NULL,
                enrolled_on TEXT NOT NULL, user_id TEXT, search_key TEXT NOT NULL,
                archived_at TEXT, created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
                PRIMARY KEY (school_id, id)
            );
            CREATE UNIQUE INDEX students_students_gr ON students_students (school_id, gr_number) WHERE archived_at IS NULL;
            CREATE INDEX students_students_user ON students_students (school_id, user_id);
            CREATE TABLE students_enrolments (
                school_id TEXT NOT NULL, student_id TEXT NOT NULL, school_year_id TEXT NOT NULL, class_id TEXT NOT NULL,
                enrolled_on TEXT NOT NULL,
                PRIMARY KEY (school_id, student_id, school_year_id)
            );
            CREATE INDEX students_enrolments_class ON students_enrolments (school_id, class_id);
            CREATE TABLE students_teaching (
                school_id TEXT NOT NULL, teacher_user_id TEXT NOT NULL, class_id TEXT NOT NULL, subject_id TEXT NOT NULL,
                PRIMARY KEY (school_id, class_id, subject_id)
            );
            CREATE INDEX students_teaching_teacher ON students_teaching (school_id, teacher_user_id);
            """),
        Migration("003-guardians", sql: """
            CREATE TABLE students_guardians (
                school_id TEXT NOT NULL, id TEXT NOT NULL, given_name TEXT NOT NULL, surname TEXT NOT NULL,
                email TEXT, phone TEXT, user_id TEXT,
                PRIMARY KEY (school_id, id)
            );
            CREATE INDEX students_guardians_user ON students_guardians (school_id, user_id);
            CREATE TABLE students_student_guardians (
                school_id TEXT NOT NULL, student_id TEXT NOT NULL, guardian_id TEXT NOT NULL,
                relation TEXT NOT NULL, is_primary INTEGER NOT NULL,
                PRIMARY KEY (school_id, student_id, guardian_id)
            );
            CREATE INDEX students_student_guardians_guardian ON students_student_guardians (school_id, guardian_id);
            """),
        // Numbers the school allocates itself (GR numbers for admissions without one).
        Migration("004-counters", sql: """
            CREATE TABLE students_counters (
                school_id TEXT NOT NULL, name TEXT NOT NULL, value INTEGER NOT NULL,
                PRIMARY KEY (school_id, name)
            );
            """),
        // The student list, the API's busiest read: its page comes in name order straight from an
        // index that also answers the status and archive filters and a teacher's membership test
        // (no sort of every visible student per request), and a teacher's count looks up each of
        // their students in an index that holds the filtered columns (no table row per student).
        Migration("005-list-indexes", sql: """
            CREATE INDEX students_students_order ON students_students (school_id, surname, given_name, gr_number, id, status, archived_at);
            CREATE INDEX students_students_state ON students_students (school_id, id, status, archived_at);
            """),
        Migration("006-roster-versions", sql: RosterVersion.migrationSQL),
        Migration("007-published-views", sql: StudentsViews.version1),
    ]
}
