import Core

/// Append-only: never edit a released migration, add the next one.
enum EventsMigrations {
    static let all: [Migration] = [
        // The school's own events. `class_id` is empty for the whole school. Days are
        // `YYYY-MM-DD` and times `HH:MM`, in the school's time zone; a cancelled event is kept.
        Migration("001-create-events", sql: """
            CREATE TABLE events_items (
                school_id TEXT NOT NULL,
                id TEXT NOT NULL,
                title TEXT NOT NULL,
                description TEXT NOT NULL,
                type TEXT NOT NULL,
                starts_on TEXT NOT NULL,
                ends_on TEXT NOT NULL,
                start_time TEXT,
                end_time TEXT,
                location TEXT NOT NULL,
                class_id TEXT NOT NULL,
                registration_required INTEGER NOT NULL DEFAULT 0,
                max_attendees INTEGER,
                organizer_id TEXT NOT NULL,
                organizer_name TEXT NOT NULL,
                created_at TEXT NOT NULL,
                cancelled_at TEXT,
                PRIMARY KEY (school_id, id)
            );
            CREATE INDEX events_items_days ON events_items (school_id, starts_on);
            CREATE TABLE events_registrations (
                school_id TEXT NOT NULL,
                event_id TEXT NOT NULL,
                user_id TEXT NOT NULL,
                registered_at TEXT NOT NULL,
                -- Time-ordered: who came first when two registered in the same millisecond.
                id TEXT NOT NULL,
                PRIMARY KEY (school_id, event_id, user_id)
            );
            """),
        // Each person's calendar feed address: the SHA-256 of its secret, never the secret.
        Migration("002-feed-tokens", sql: """
            CREATE TABLE events_feeds (
                school_id TEXT NOT NULL,
                user_id TEXT NOT NULL,
                secret_hash TEXT NOT NULL,
                created_at TEXT NOT NULL,
                PRIMARY KEY (school_id, user_id),
                UNIQUE (school_id, secret_hash)
            );
            """),
    ]
}
