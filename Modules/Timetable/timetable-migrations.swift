import Core

enum TimetableMigrations {
    static let all: [Migration] = [
        Migration("001-periods-and-slots", sql: """
            CREATE TABLE timetable_periods (
                school_id TEXT NOT NULL, id TEXT NOT NULL, code TEXT NOT NULL,
                name_ar TEXT NOT NULL, name_en TEXT NOT NULL,
                starts_at TEXT NOT NULL, ends_at TEXT NOT NULL, is_break INTEGER NOT NULL,
                PRIMARY KEY (school_id, id), UNIQUE (school_id, code)
            );
            CREATE TABLE timetable_slots (
                school_id TEXT NOT NULL, id TEXT NOT NULL,
                day INTEGER NOT NULL, period_id TEXT NOT NULL, week INTEGER NOT NULL,
                class_id TEXT NOT NULL, subject_id TEXT NOT NULL, teacher_user_id TEXT NOT NULL, room TEXT NOT NULL,
                PRIMARY KEY (school_id, id)
            );
            CREATE INDEX timetable_slots_class ON timetable_slots (school_id, class_id, day);
            CREATE INDEX timetable_slots_teacher ON timetable_slots (school_id, teacher_user_id, day);
            CREATE INDEX timetable_slots_time ON timetable_slots (school_id, day, period_id);
            """),
        Migration("002-calendar", sql: """
            CREATE TABLE timetable_closures (
                school_id TEXT NOT NULL, id TEXT NOT NULL, starts_on TEXT NOT NULL, ends_on TEXT NOT NULL, name TEXT NOT NULL,
                PRIMARY KEY (school_id, id)
            );
            CREATE TABLE timetable_overrides (
                school_id TEXT NOT NULL, week_start TEXT NOT NULL, week INTEGER NOT NULL, kind TEXT NOT NULL, note TEXT NOT NULL,
                PRIMARY KEY (school_id, week_start, kind)
            );
            """),
    ]
}
