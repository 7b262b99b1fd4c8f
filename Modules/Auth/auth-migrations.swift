import Core

enum AuthMigrations {
    static let all: [Migration] = [
        Migration("001-users", sql: """
            CREATE TABLE auth_users (
                school_id TEXT NOT NULL,
                id TEXT NOT NULL,
                email TEXT NOT NULL,
                display_name TEXT NOT NULL,
                role TEXT NOT NULL,
                password_hash TEXT NOT NULL,
                status TEXT NOT NULL,
                locked_until TEXT,
                unlocked_at TEXT,
                created_at TEXT NOT NULL,
                PRIMARY KEY (school_id, id),
                UNIQUE (school_id, email)
            );
            """),
        Migration("002-sessions", sql: """
            CREATE TABLE auth_sessions (
                school_id TEXT NOT NULL,
                token_hash TEXT NOT NULL,
                user_id TEXT NOT NULL,
                created_at TEXT NOT NULL,
                expires_at TEXT NOT NULL,
                revoked_at TEXT,
                PRIMARY KEY (school_id, token_hash)
            );
            """),
        Migration("003-sign-in-attempts", sql: """
            CREATE TABLE auth_sign_in_attempts (
                school_id TEXT NOT NULL,
                email TEXT NOT NULL,
                user_id TEXT,
                outcome TEXT NOT NULL,
                at TEXT NOT NULL
            );
            CREATE INDEX auth_sign_in_attempts_user ON auth_sign_in_attempts (school_id, user_id, at);
            """),
        // The profile a person edits on their phone (PROF-002, PROF-003): a short biography and
        // the language they read the apps in (NULL: the school's language).
        Migration("004-profile", sql: """
            ALTER TABLE auth_users ADD COLUMN bio TEXT;
            ALTER TABLE auth_users ADD COLUMN language TEXT;
            """),
        // Offline profile edits merge per field by time (last write wins): when each field was
        // last written and by which sync client ('' for the CLI and the web API).
        Migration("005-profile-field-times", sql: """
            CREATE TABLE auth_profile_fields (
                school_id TEXT NOT NULL, user_id TEXT NOT NULL, field TEXT NOT NULL,
                updated_at TEXT NOT NULL, client_id TEXT NOT NULL DEFAULT '',
                PRIMARY KEY (school_id, user_id, field)
            );
            """),
        // What other modules read of accounts (`AuthModule.publishedViews`): never the password
        // hash, the lock-out state or the profile.
        Migration("006-published-views", sql: """
            CREATE VIEW auth_v1_people AS
                SELECT school_id, id, email, display_name, role, status FROM auth_users;
            """),
        // Password reset by emailed code (issue 33): one live code per account, its bcrypt hash
        // only, when it stops working, how many wrong tries it has taken, and when it was used.
        Migration("007-password-resets", sql: """
            CREATE TABLE auth_password_resets (
                school_id TEXT NOT NULL,
                user_id TEXT NOT NULL,
                code_hash TEXT NOT NULL,
                created_at TEXT NOT NULL,
                expires_at TEXT NOT NULL,
                attempts INTEGER NOT NULL DEFAULT 0,
                used_at TEXT,
                PRIMARY KEY (school_id, user_id)
            );
            """),
        // Invitations (issue 33): a one-time link to set a password, 14 days, its SHA-256 only.
        Migration("008-invitations", sql: """
            CREATE TABLE auth_invitations (
                school_id TEXT NOT NULL,
                id TEXT NOT NULL,
                user_id TEXT NOT NULL,
                token_hash TEXT NOT NULL,
                invited_by TEXT NOT NULL,
                created_at TEXT NOT NULL,
                expires_at TEXT NOT NULL,
                accepted_at TEXT,
                PRIMARY KEY (school_id, id)
            );
            CREATE INDEX auth_invitations_token ON auth_invitations (school_id, token_hash);
            """),
        // OpenID Connect providers a school signs people in with (issue 33): the issuer exactly
        // as its ID tokens name it, our client id there, the path of a file holding the client
        // secret (the secret itself stays out of the database and its backups), the email
        // domain it may vouch for (empty: any), and the button's name. Each ID token nonce signs
        // in once: its SHA-256 (with the issuer) is kept, so a replayed token is refused.
        Migration("009-openid-providers", sql: """
            CREATE TABLE auth_openid_providers (
                school_id TEXT NOT NULL,
                id TEXT NOT NULL,
                issuer TEXT NOT NULL,
                client_id TEXT NOT NULL,
                client_secret_file TEXT NOT NULL DEFAULT '',
                domain TEXT NOT NULL DEFAULT '',
                name_ar TEXT NOT NULL,
                name_en TEXT NOT NULL,
                created_at TEXT NOT NULL,
                PRIMARY KEY (school_id, id),
                UNIQUE (school_id, issuer, client_id)
            );
            CREATE TABLE auth_openid_nonces (
                school_id TEXT NOT NULL,
                nonce_hash TEXT NOT NULL,
                used_at TEXT NOT NULL,
                PRIMARY KEY (school_id, nonce_hash)
            );
            """),
    ]
}
