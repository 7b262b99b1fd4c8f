import Core

/// Append-only: never edit a released migration, add the next one.
enum OneRosterMigrations {
    static let all: [Migration] = [
        // What each sourcedId became, so a second import updates instead of duplicating, and an
        // export gives back the ids the information system knows. `target` is the Hogwarts id
        // (or `class|subject` for a section, `class|user` for an enrolment).
        Migration("001-ids", sql: """
            CREATE TABLE oneroster_ids (
                school_id TEXT NOT NULL,
                kind TEXT NOT NULL,
                sourced_id TEXT NOT NULL,
                target TEXT NOT NULL,
                status TEXT NOT NULL,
                updated_at TEXT NOT NULL,
                PRIMARY KEY (school_id, kind, sourced_id)
            );
            CREATE INDEX oneroster_ids_target ON oneroster_ids (school_id, kind, target);
            """),
        // One-time codes for accounts an import created without a password: only the SHA-256
        // of the code is kept; a code works once, before it expires.
        Migration("002-set-password-codes", sql: """
            CREATE TABLE oneroster_set_password_codes (
                school_id TEXT NOT NULL,
                user_id TEXT NOT NULL,
                code_hash TEXT NOT NULL,
                created_at TEXT NOT NULL,
                expires_at TEXT NOT NULL,
                used_at TEXT,
                PRIMARY KEY (school_id, user_id)
            );
            """),
    ]
}
