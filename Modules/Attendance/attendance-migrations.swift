import Core

enum AttendanceMigrations {
    static let all: [Migration] = [
        Migration("001-records", sql: """
            CREATE TABLE attendance_records (
                school_id TEXT NOT NULL, id TEXT NOT NULL, student_id TEXT NOT NULL, class_id TEXT NOT NULL,
                date TEXT NOT NULL, period TEXT NOT NULL, status TEXT NOT NULL, method TEXT NOT NULL,
                marked_by TEXT NOT NULL, marked_at TEXT NOT NULL, notes TEXT,
                PRIMARY KEY (school_id, id),
                UNIQUE (school_id, student_id, date, period)
            );
            CREATE INDEX attendance_records_class_date ON attendance_records (school_id, class_id, date);
            CREATE INDEX attendance_records_date ON attendance_records (school_id, date);
            CREATE TABLE attendance_changes (
                school_id TEXT NOT NULL, record_id TEXT NOT NULL, previous_status TEXT NOT NULL, status TEXT NOT NULL,
                changed_by TEXT NOT NULL, changed_at TEXT NOT NULL
            );
            CREATE INDEX attendance_changes_record ON attendance_changes (school_id, record_id);
            """),
        Migration("002-excuses", sql: """
            CREATE TABLE attendance_excuses (
                school_id TEXT NOT NULL, id TEXT NOT NULL, record_id TEXT NOT NULL, reason TEXT NOT NULL, description TEXT NOT NULL,
                status TEXT NOT NULL, submitted_by TEXT NOT NULL, submitted_at TEXT NOT NULL,
                reviewed_by TEXT, reviewed_at TEXT, review_note TEXT,
                PRIMARY KEY (school_id, id), UNIQUE (school_id, record_id)
            );
            CREATE TABLE attendance_notices (
                school_id TEXT NOT NULL, id TEXT NOT NULL, student_id TEXT NOT NULL, starts_on TEXT NOT NULL, ends_on TEXT NOT NULL,
                reason TEXT NOT NULL, description TEXT NOT NULL, status TEXT NOT NULL, submitted_by TEXT NOT NULL, submitted_at TEXT NOT NULL,
                reviewed_by TEXT, reviewed_at TEXT,
                PRIMARY KEY (school_id, id)
            );
            CREATE INDEX attendance_notices_student ON attendance_notices (school_id, student_id, starts_on);
            """),
        Migration("003-check-in", sql: """
            CREATE TABLE attendance_secrets (
                school_id TEXT NOT NULL, secret TEXT NOT NULL, created_at TEXT NOT NULL,
                PRIMARY KEY (school_id)
            );
            CREATE TABLE attendance_check_in_windows (
                school_id TEXT NOT NULL, id TEXT NOT NULL, class_id TEXT NOT NULL, date TEXT NOT NULL, period TEXT NOT NULL,
                opened_by TEXT NOT NULL, opened_at TEXT NOT NULL, late_after TEXT NOT NULL, expires_at TEXT NOT NULL,
                PRIMARY KEY (school_id, id)
            );
            """),
        // The mobile API: a check-in window may cap its scans, and an excuse carries up to five links.
        Migration("004-api", sql: """
            ALTER TABLE attendance_check_in_windows ADD COLUMN max_scans INTEGER;
            ALTER TABLE attendance_check_in_windows ADD COLUMN scans INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE attendance_excuses ADD COLUMN attachments TEXT NOT NULL DEFAULT '[]';
            """),
    ]
}
