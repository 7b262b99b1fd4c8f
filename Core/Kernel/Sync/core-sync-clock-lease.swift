import HogwartsBase

/// A school's change clock inside one write transaction. The first chunk that changed something
/// takes the clock's row lock (after that chunk's reads), and the lock is held to the commit:
/// every later chunk's seqs follow on, and seq order is commit order.
struct SyncClockLease {
    let school: String
    private var created = false

    init(school: String) { self.school = school }

    /// Takes `count` seqs; returns the one before the first (nil if the clock row could not be read).
    mutating func take(_ count: Int, db: any StorageConnection) throws -> Int? {
        if !created {
            try db.execute(sql: "INSERT INTO kernel_sync_clock (school_id) VALUES (?) ON CONFLICT (school_id) DO NOTHING", arguments: [school])
            created = true
        }
        guard let end = try db.fetchValue(Int.self, sql: "UPDATE kernel_sync_clock SET seq = seq + ? WHERE school_id = ? RETURNING seq",
                                          arguments: [count, school]) else { return nil }
        return end - count
    }
}
