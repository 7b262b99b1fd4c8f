import Core

/// Append-only: never edit a released migration, add the next one.
enum FeesMigrations {
    static let all: [Migration] = [
        Migration("001-create-ledger", sql: """
            CREATE TABLE fees_structures (
                school_id TEXT NOT NULL,
                id TEXT NOT NULL,
                name TEXT NOT NULL,
                school_year_id TEXT NOT NULL,
                target_kind TEXT NOT NULL,
                target_id TEXT,
                created_by TEXT NOT NULL,
                created_at TEXT NOT NULL,
                PRIMARY KEY (school_id, id)
            );
            CREATE TABLE fees_items (
                school_id TEXT NOT NULL,
                id TEXT NOT NULL,
                structure_id TEXT NOT NULL,
                position INTEGER NOT NULL,
                item_type TEXT NOT NULL,
                label TEXT NOT NULL,
                amount_minor INTEGER NOT NULL,
                schedule TEXT NOT NULL,
                due_on TEXT NOT NULL,
                PRIMARY KEY (school_id, id)
            );
            CREATE TABLE fees_discounts (
                school_id TEXT NOT NULL,
                id TEXT NOT NULL,
                student_id TEXT NOT NULL,
                kind TEXT NOT NULL,
                basis_points INTEGER,
                amount_minor INTEGER,
                reason TEXT NOT NULL,
                granted_by TEXT NOT NULL,
                granted_at TEXT NOT NULL,
                PRIMARY KEY (school_id, id)
            );
            CREATE TABLE fees_invoices (
                school_id TEXT NOT NULL,
                id TEXT NOT NULL,
                student_id TEXT NOT NULL,
                item_id TEXT NOT NULL,
                school_year_id TEXT NOT NULL,
                item_type TEXT NOT NULL,
                label TEXT NOT NULL,
                due_on TEXT NOT NULL,
                gross_minor INTEGER NOT NULL,
                discount_minor INTEGER NOT NULL,
                amount_minor INTEGER NOT NULL,
                cancelled_minor INTEGER NOT NULL DEFAULT 0,
                cancelled_at TEXT,
                created_at TEXT NOT NULL,
                PRIMARY KEY (school_id, id),
                UNIQUE (school_id, student_id, item_id, due_on)
            );
            CREATE INDEX fees_invoices_student ON fees_invoices (school_id, student_id, due_on);
            CREATE TABLE fees_entries (
                school_id TEXT NOT NULL,
                id TEXT NOT NULL,
                kind TEXT NOT NULL,
                student_id TEXT NOT NULL,
                amount_minor INTEGER NOT NULL,
                method TEXT NOT NULL,
                reference TEXT,
                of_entry_id TEXT,
                receipt_year INTEGER NOT NULL,
                receipt_seq INTEGER NOT NULL,
                on_day TEXT NOT NULL,
                recorded_by TEXT NOT NULL,
                recorded_at TEXT NOT NULL,
                PRIMARY KEY (school_id, id),
                UNIQUE (school_id, receipt_year, receipt_seq)
            );
            CREATE INDEX fees_entries_student ON fees_entries (school_id, student_id);
            CREATE TABLE fees_allocations (
                school_id TEXT NOT NULL,
                id TEXT NOT NULL,
                entry_id TEXT NOT NULL,
                invoice_id TEXT NOT NULL,
                amount_minor INTEGER NOT NULL,
                PRIMARY KEY (school_id, id)
            );
            CREATE INDEX fees_allocations_invoice ON fees_allocations (school_id, invoice_id);
            CREATE INDEX fees_allocations_entry ON fees_allocations (school_id, entry_id);
            CREATE TABLE fees_receipt_counters (
                school_id TEXT NOT NULL,
                receipt_year INTEGER NOT NULL,
                last_number INTEGER NOT NULL,
                PRIMARY KEY (school_id, receipt_year)
            );
            """),
        // A late fee is charged once per invoice (`ApplyLateFees`): added to the amount, and kept apart to show.
        Migration("002-late-fees", sql: """
            ALTER TABLE fees_invoices ADD COLUMN late_fee_minor INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE fees_invoices ADD COLUMN late_fee_on TEXT;
            """),
        // Guardians are reminded once per invoice and kind (`SendFeeReminders`), unless they turned
        // a child's reminders off.
        Migration("003-reminders", sql: """
            ALTER TABLE fees_invoices ADD COLUMN reminded_upcoming_on TEXT;
            ALTER TABLE fees_invoices ADD COLUMN reminded_overdue_on TEXT;
            CREATE TABLE fees_reminder_optouts (
                school_id TEXT NOT NULL,
                student_id TEXT NOT NULL,
                guardian_user_id TEXT NOT NULL,
                PRIMARY KEY (school_id, student_id, guardian_user_id)
            );
            """),
        // An invoice is issued in the school's currency of the day; offline apps read it with the
        // amounts. Invoices made before this migration have none ('').
        Migration("004-invoice-currency", sql: """
            ALTER TABLE fees_invoices ADD COLUMN currency TEXT NOT NULL DEFAULT '';
            """),
        // A student's entries in receipt order straight from the index. With (school_id,
        // student_id) alone SQLite chose the receipt index and read every entry of the school
        // for each statement, so each payment cost more as the school's ledger grew.
        Migration("005-entries-by-student", sql: """
            DROP INDEX fees_entries_student;
            CREATE INDEX fees_entries_student ON fees_entries (school_id, student_id, receipt_year, receipt_seq);
            """),
    ]

    static let tables = ["fees_allocations", "fees_discounts", "fees_entries", "fees_invoices", "fees_items", "fees_receipt_counters", "fees_reminder_optouts", "fees_structures"]
}
