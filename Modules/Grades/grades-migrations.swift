import Core

enum GradesMigrations {
    static let all: [Migration] = [
        Migration("001-assessments", sql: """
            CREATE TABLE grades_assessments (
                school_id TEXT NOT NULL, id TEXT NOT NULL, code TEXT NOT NULL, class_id TEXT NOT NULL, subject_id TEXT NOT NULL,
                term_id TEXT NOT NULL, kind TEXT NOT NULL, title TEXT NOT NULL, date TEXT NOT NULL,
                max_marks REAL NOT NULL, passing_marks REAL NOT NULL, category TEXT NOT NULL,
                created_by TEXT NOT NULL, created_at TEXT NOT NULL,
                PRIMARY KEY (school_id, id), UNIQUE (school_id, code)
            );
            CREATE INDEX grades_assessments_class_term ON grades_assessments (school_id, class_id, term_id);
            CREATE TABLE grades_results (
                school_id TEXT NOT NULL, assessment_id TEXT NOT NULL, student_id TEXT NOT NULL,
                state TEXT NOT NULL, score REAL, entered_by TEXT NOT NULL, entered_at TEXT NOT NULL,
                PRIMARY KEY (school_id, assessment_id, student_id)
            );
            CREATE INDEX grades_results_student ON grades_results (school_id, student_id);
            CREATE TABLE grades_result_changes (
                school_id TEXT NOT NULL, assessment_id TEXT NOT NULL, student_id TEXT NOT NULL,
                previous_state TEXT NOT NULL, previous_score REAL, changed_by TEXT NOT NULL, changed_at TEXT NOT NULL
            );
            """),
        Migration("002-scales-and-report-cards", sql: """
            CREATE TABLE grades_scales (
                school_id TEXT NOT NULL, id TEXT NOT NULL, name TEXT NOT NULL, bands TEXT NOT NULL, is_active INTEGER NOT NULL,
                created_at TEXT NOT NULL, PRIMARY KEY (school_id, id)
            );
            CREATE TABLE grades_weights (
                school_id TEXT NOT NULL, category TEXT NOT NULL, weight REAL NOT NULL, PRIMARY KEY (school_id, category)
            );
            CREATE TABLE grades_publications (
                school_id TEXT NOT NULL, term_id TEXT NOT NULL, published_by TEXT NOT NULL, published_at TEXT NOT NULL,
                PRIMARY KEY (school_id, term_id)
            );
            CREATE TABLE grades_overrides (
                school_id TEXT NOT NULL, student_id TEXT NOT NULL, term_id TEXT NOT NULL, subject_id TEXT NOT NULL,
                letter TEXT NOT NULL, reason TEXT NOT NULL, overridden_by TEXT NOT NULL, overridden_at TEXT NOT NULL,
                PRIMARY KEY (school_id, student_id, term_id, subject_id)
            );
            """),
        // A teacher's note on one result, from the API's `feedback` (the CLI never clears it).
        Migration("003-result-feedback", sql: """
            ALTER TABLE grades_results ADD COLUMN feedback TEXT;
            """),
        // Offline sync names a result by one id (`<assessmentId>:<studentId>`), computed from its
        // key so no write path has to set it, and indexed for the snapshot's keyset pages.
        Migration("004-result-sync-id", sql: """
            ALTER TABLE grades_results ADD COLUMN sync_id TEXT GENERATED ALWAYS AS (assessment_id || ':' || student_id) VIRTUAL;
            CREATE INDEX grades_results_sync_id ON grades_results (school_id, sync_id);
            """),
    ]
}
