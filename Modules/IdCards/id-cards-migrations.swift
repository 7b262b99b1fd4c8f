import Core

/// Append-only: never edit a released migration, add the next one.
enum IdCardsMigrations {
    static let all: [Migration] = [
        // Each school's keys for signing its cards' QR payloads (HMAC-SHA256), made on first use.
        // A key is never changed; a card names the key that signed it.
        Migration("001-create-keys", sql: """
            CREATE TABLE id_cards_keys (
                school_id TEXT NOT NULL,
                id TEXT NOT NULL,
                secret TEXT NOT NULL,
                created_at TEXT NOT NULL,
                PRIMARY KEY (school_id, id)
            );
            """),
    ]
}
