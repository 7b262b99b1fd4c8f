import Core

/// Append-only: never edit a released migration, add the next one.
enum ReadingMigrations {
    static let all: [Migration] = [
        Migration("001-create-items", sql: """
            CREATE TABLE reading_items (
                school_id TEXT NOT NULL,
                id TEXT NOT NULL,
                title TEXT NOT NULL,
                created_by TEXT NOT NULL,
                created_at TEXT NOT NULL,
                PRIMARY KEY (school_id, id)
            );
            """),
    ]
}
