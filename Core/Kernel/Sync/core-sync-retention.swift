extension Kernel {
    /// Forgets a school's changes up to and including `seq` (retention: keep more than the
    /// longest offline period, a summer break). A cursor older than that answers
    /// `reset: cursorExpired`; clients and their ledgers are kept for ever.
    public func pruneSyncChanges(in schoolReference: String, through seq: Int) throws {
        try store.write { db in
            let school = try SchoolRecords.find(schoolReference, in: db)
            try db.execute(sql: "INSERT INTO kernel_sync_clock (school_id) VALUES (?) ON CONFLICT (school_id) DO NOTHING", arguments: [school.id])
            // min_seq = max(min_seq, min(seq asked, head)), in CASE: scalar MAX/MIN are SQLite's alone.
            try db.execute(sql: """
                UPDATE kernel_sync_clock SET min_seq = CASE WHEN ? < seq THEN ? ELSE seq END
                WHERE school_id = ? AND min_seq < CASE WHEN ? < seq THEN ? ELSE seq END
                """, arguments: [seq, seq, school.id, seq, seq])
            try db.execute(sql: "DELETE FROM kernel_sync_changes WHERE school_id = ? AND seq <= (SELECT min_seq FROM kernel_sync_clock WHERE school_id = ?)",
                           arguments: [school.id, school.id])
        }
    }
}
