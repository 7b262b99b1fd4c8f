import Core

/// Append-only: never edit a released migration, add the next one.
enum AnnouncementsMigrations {
    static let all: [Migration] = [
        // One row per announcement. `audience` is `school`, `role`, `class` or `year-level`;
        // `target` is the role, the class id or the year level id (empty for the whole school).
        // Times are instants; `announced_at` is set once, when its notifications were raised,
        // by whichever server publishes it first.
        Migration("001-create-posts", sql: """
            CREATE TABLE announcements_posts (
                school_id TEXT NOT NULL,
                id TEXT NOT NULL,
                title TEXT NOT NULL,
                content TEXT NOT NULL,
                priority TEXT NOT NULL,
                audience TEXT NOT NULL,
                target TEXT NOT NULL,
                publish_at TEXT NOT NULL,
                expires_at TEXT,
                pinned INTEGER NOT NULL DEFAULT 0,
                author_id TEXT NOT NULL,
                author_name TEXT NOT NULL,
                created_at TEXT NOT NULL,
                withdrawn_at TEXT,
                announced_at TEXT,
                PRIMARY KEY (school_id, id)
            );
            CREATE INDEX announcements_posts_published ON announcements_posts (school_id, publish_at);
            """),
        // Read receipts: who opened which announcement, and when they first did.
        Migration("002-create-reads", sql: """
            CREATE TABLE announcements_reads (
                school_id TEXT NOT NULL,
                post_id TEXT NOT NULL,
                user_id TEXT NOT NULL,
                read_at TEXT NOT NULL,
                PRIMARY KEY (school_id, post_id, user_id)
            );
            """),
    ]
}
