import HogwartsBase

/// The kernel's own tables, applied like a module's migrations under the id `kernel`.
/// They hold schools, switches, settings, audit, idempotency keys and the event outbox.
enum KernelSchema {
    static let moduleID: ModuleID = "kernel"

    static let migrations: [Migration] = [
        Migration("001-schools", sql: """
            CREATE TABLE schools (
                id TEXT PRIMARY KEY,
                slug TEXT NOT NULL UNIQUE,
                name_ar TEXT NOT NULL,
                name_en TEXT NOT NULL,
                time_zone TEXT NOT NULL,
                language TEXT NOT NULL,
                created_at TEXT NOT NULL
            );
            """),
        Migration("002-module-switches", sql: """
            CREATE TABLE kernel_module_switches (
                school_id TEXT NOT NULL REFERENCES schools(id) ON DELETE CASCADE,
                module_id TEXT NOT NULL,
                enabled INTEGER NOT NULL,
                changed_at TEXT NOT NULL,
                changed_by TEXT NOT NULL,
                PRIMARY KEY (school_id, module_id)
            );
            """),
        Migration("003-settings", sql: """
            CREATE TABLE kernel_settings (
                school_id TEXT NOT NULL REFERENCES schools(id) ON DELETE CASCADE,
                key TEXT NOT NULL,
                value TEXT NOT NULL,
                updated_at TEXT NOT NULL,
                updated_by TEXT NOT NULL,
                PRIMARY KEY (school_id, key)
            );
            """),
        Migration("004-audit", sql: """
            CREATE TABLE kernel_audit (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                school_id TEXT,
                user_id TEXT NOT NULL,
                role TEXT NOT NULL,
                action TEXT NOT NULL,
                request_id TEXT,
                outcome TEXT NOT NULL,
                detail TEXT,
                at TEXT NOT NULL
            );
            CREATE INDEX kernel_audit_school_at ON kernel_audit (school_id, at);
            """),
        Migration("005-requests", sql: """
            CREATE TABLE kernel_requests (
                school_id TEXT NOT NULL,
                request_id TEXT NOT NULL,
                action TEXT NOT NULL,
                input_hash TEXT NOT NULL,
                output TEXT NOT NULL,
                at TEXT NOT NULL,
                PRIMARY KEY (school_id, request_id)
            );
            """),
        Migration("006-events", sql: """
            CREATE TABLE kernel_events (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                school_id TEXT NOT NULL,
                name TEXT NOT NULL,
                payload TEXT NOT NULL,
                source_action TEXT NOT NULL,
                at TEXT NOT NULL
            );
            CREATE TABLE kernel_event_deliveries (
                event_id INTEGER NOT NULL REFERENCES kernel_events(id),
                handler_id TEXT NOT NULL,
                module_id TEXT NOT NULL,
                school_id TEXT NOT NULL,
                status TEXT NOT NULL,
                attempts INTEGER NOT NULL DEFAULT 0,
                last_error TEXT,
                next_attempt_at TEXT NOT NULL,
                delivered_at TEXT,
                PRIMARY KEY (event_id, handler_id)
            );
            CREATE INDEX kernel_event_deliveries_pending ON kernel_event_deliveries (status, next_attempt_at);
            """),
        // The HTTP API's signing keys (platform-wide) and token families (one per sign-in).
        Migration("007-api-tokens", sql: """
            CREATE TABLE kernel_signing_keys (
                id TEXT PRIMARY KEY,
                secret TEXT NOT NULL,
                created_at TEXT NOT NULL,
                retired_at TEXT
            );
            CREATE TABLE kernel_token_families (
                school_id TEXT NOT NULL REFERENCES schools(id) ON DELETE CASCADE,
                id TEXT NOT NULL,
                user_id TEXT NOT NULL,
                generation INTEGER NOT NULL,
                created_at TEXT NOT NULL,
                expires_at TEXT NOT NULL,
                revoked_at TEXT,
                revoked_reason TEXT,
                PRIMARY KEY (school_id, id)
            );
            CREATE INDEX kernel_token_families_user ON kernel_token_families (school_id, user_id);
            """),
        // Offline sync: the per-school change log, clients and their mutation ledger (Core/Kernel/Sync).
        SyncSchema.migration,
        // Request limits shared by every server on this database (Core/HTTP/core-rate-limits.swift):
        // one row per limited key, the moment (ms since 1970) its next request is "theoretically" due.
        Migration("009-rate-limits", sql: """
            CREATE TABLE kernel_rate_limits (
                key TEXT PRIMARY KEY,
                due_at INTEGER NOT NULL
            );
            CREATE INDEX kernel_rate_limits_due ON kernel_rate_limits (due_at);
            """),
        // Live events (Core/Events/core-live-events.swift): each school's clock numbers them in
        // commit order; `/api/v1/live` streams a person's own, and resumes after the last id seen.
        Migration("010-live-events", sql: """
            CREATE TABLE kernel_live_clock (
                school_id TEXT PRIMARY KEY,
                seq INTEGER NOT NULL
            );
            CREATE TABLE kernel_live_events (
                school_id TEXT NOT NULL,
                seq INTEGER NOT NULL,
                user_id TEXT NOT NULL,
                kind TEXT NOT NULL,
                data_ar TEXT NOT NULL,
                data_en TEXT NOT NULL,
                at TEXT NOT NULL,
                PRIMARY KEY (school_id, seq)
            );
            CREATE INDEX kernel_live_events_user ON kernel_live_events (school_id, user_id, seq);
            """),
        // The role a token family was signed for: an access token is believed only while its
        // family is alive and names the same person and role (Core/HTTP/core-live-families.swift).
        // Families from before have none, and their access tokens are refused until refreshed.
        Migration("011-token-family-role", sql: """
            ALTER TABLE kernel_token_families ADD COLUMN role TEXT;
            """),
    ]

    /// Created before any migration runs: the ledger of applied migrations and the file's identity.
    static let bootstrapSQL = """
        CREATE TABLE IF NOT EXISTS kernel_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE IF NOT EXISTS kernel_migrations (
            module_id TEXT NOT NULL,
            migration_id TEXT NOT NULL,
            checksum TEXT NOT NULL,
            applied_at TEXT NOT NULL,
            PRIMARY KEY (module_id, migration_id)
        );
        """
}
