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
        // A conversation numbers its messages from a counter on its own row, taken with
        // `UPDATE ... RETURNING`: `MAX(seq) + 1` gave two writers on a server database the same
        // number. The unique index makes a repeat impossible rather than unlikely.
        Migration("002-message-counter", sql: """
            ALTER TABLE messages_conversations ADD COLUMN message_seq INTEGER NOT NULL DEFAULT 0;
            UPDATE messages_conversations SET message_seq = COALESCE((SELECT MAX(m.seq) FROM messages_messages m
                WHERE m.school_id = messages_conversations.school_id AND m.conversation_id = messages_conversations.id), 0);
            DROP INDEX messages_messages_seq;
            CREATE UNIQUE INDEX messages_messages_conversation_seq ON messages_messages (school_id, conversation_id, seq);
            """),
    ]
}
