import Core

enum MessagesMigrations {
    static let all: [Migration] = [
        Migration("001-conversations", sql: """
            CREATE TABLE messages_conversations (
                school_id TEXT NOT NULL, id TEXT NOT NULL, kind TEXT NOT NULL, title TEXT NOT NULL, class_id TEXT,
                direct_key TEXT, created_by TEXT NOT NULL, created_at TEXT NOT NULL, last_message_at TEXT,
                PRIMARY KEY (school_id, id), UNIQUE (school_id, direct_key)
            );
            CREATE TABLE messages_participants (
                school_id TEXT NOT NULL, conversation_id TEXT NOT NULL, user_id TEXT NOT NULL, role TEXT NOT NULL,
                muted INTEGER NOT NULL DEFAULT 0, last_read_seq INTEGER NOT NULL DEFAULT 0, joined_at TEXT NOT NULL,
                PRIMARY KEY (school_id, conversation_id, user_id)
            );
            CREATE INDEX messages_participants_user ON messages_participants (school_id, user_id);
            CREATE TABLE messages_messages (
                school_id TEXT NOT NULL, id TEXT NOT NULL, conversation_id TEXT NOT NULL, sender_id TEXT NOT NULL,
                body TEXT NOT NULL, search_key TEXT NOT NULL, sent_at TEXT NOT NULL, seq INTEGER NOT NULL,
                client_id TEXT, reply_to TEXT, edited_at TEXT, deleted_at TEXT,
                PRIMARY KEY (school_id, id), UNIQUE (school_id, sender_id, client_id)
            );
            CREATE INDEX messages_messages_conversation ON messages_messages (school_id, conversation_id, sent_at, id);
            CREATE INDEX messages_messages_seq ON messages_messages (school_id, conversation_id, seq);
            """),
    ]
}
