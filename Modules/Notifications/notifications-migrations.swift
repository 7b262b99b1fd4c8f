import Core

enum NotificationsMigrations {
    static let all: [Migration] = [
        Migration("001-notifications", sql: """
            CREATE TABLE notifications_items (
                school_id TEXT NOT NULL, id TEXT NOT NULL, user_id TEXT NOT NULL, type TEXT NOT NULL, priority TEXT NOT NULL,
                title_ar TEXT NOT NULL, title_en TEXT NOT NULL, body_ar TEXT NOT NULL, body_en TEXT NOT NULL, link TEXT NOT NULL,
                created_at TEXT NOT NULL, read_at TEXT, expires_at TEXT NOT NULL,
                PRIMARY KEY (school_id, id)
            );
            CREATE INDEX notifications_items_user ON notifications_items (school_id, user_id, created_at);
            CREATE TABLE notifications_preferences (
                school_id TEXT NOT NULL, user_id TEXT NOT NULL, type TEXT NOT NULL, enabled INTEGER NOT NULL,
                quiet_from TEXT, quiet_to TEXT,
                PRIMARY KEY (school_id, user_id, type)
            );
            CREATE TABLE notifications_outbox (
                school_id TEXT NOT NULL, id TEXT NOT NULL, notification_id TEXT NOT NULL, channel TEXT NOT NULL, recipient TEXT NOT NULL,
                payload TEXT NOT NULL, state TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, last_error TEXT,
                next_attempt_at TEXT NOT NULL, sent_at TEXT,
                PRIMARY KEY (school_id, id)
            );
            CREATE INDEX notifications_outbox_due ON notifications_outbox (school_id, state, next_attempt_at);
            """),
        // Device tokens for a push channel (one row per token: a phone signed in by someone else
        // moves to them), and choices per channel beyond the app. `in_app` stays the type switch of
        // notifications_preferences, which the Notifier reads.
        Migration("002-devices-and-channels", sql: """
            CREATE TABLE notifications_devices (
                school_id TEXT NOT NULL, token TEXT NOT NULL, user_id TEXT NOT NULL, platform TEXT, active INTEGER NOT NULL,
                registered_at TEXT NOT NULL, updated_at TEXT NOT NULL,
                PRIMARY KEY (school_id, token)
            );
            CREATE INDEX notifications_devices_user ON notifications_devices (school_id, user_id, active);
            CREATE TABLE notifications_channel_preferences (
                school_id TEXT NOT NULL, user_id TEXT NOT NULL, type TEXT NOT NULL, channel TEXT NOT NULL, enabled INTEGER NOT NULL,
                PRIMARY KEY (school_id, user_id, type, channel)
            );
            """),
    ]
}
