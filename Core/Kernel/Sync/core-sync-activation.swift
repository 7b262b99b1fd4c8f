import Foundation
import HogwartsBase

/// A school starts recording changes when its first device asks for them.
///
/// Until then there is nobody to send a change to, and a device always starts from a snapshot
/// (which reads the tables themselves), so the change log would only be a cost: the triggers on
/// synced tables note nothing for a school without a row in `kernel_sync_clock`. The first
/// snapshot, pull or push of the school's devices adds that row in its own committed write
/// before it reads, so every write committed after it is recorded and nothing falls between the
/// snapshot and the first pull.
enum SyncActivation {
    static func isActive(_ school: SchoolID, in db: any StorageConnection) throws -> Bool {
        try db.fetchValue(Bool.self, sql: "SELECT 1 FROM kernel_sync_clock WHERE school_id = ?", arguments: [school]) ?? false
    }

    /// - Parameter schoolIsNew: the school was created a moment ago and holds nothing yet, so its
    ///   log is complete from the start (floor 0). Otherwise the log begins after what the school
    ///   already holds (floor 1, as if pruned through it): a pull without a cursor is then answered
    ///   with a reset, since only a snapshot has the older rows.
    static func activate(_ school: SchoolID, in db: any StorageConnection, schoolIsNew: Bool = false) throws {
        let floor = schoolIsNew ? 0 : 1
        try db.execute(sql: """
            INSERT INTO kernel_sync_clock (school_id, seq, min_seq) SELECT id, ?, ? FROM schools WHERE id = ?
            ON CONFLICT (school_id) DO NOTHING
            """, arguments: [floor, floor, school])
    }
}

extension Kernel {
    /// Makes the school record changes for devices from now on (once; later calls only read).
    /// The sync routes call it; so do the demo and the test harness, whose schools are for devices.
    /// `schoolIsNew`: see `SyncActivation.activate`.
    public func activateSync(_ school: SchoolID, schoolIsNew: Bool = false) throws {
        if try store.read({ try SyncActivation.isActive(school, in: $0) }) { return }
        try store.write { try SyncActivation.activate(school, in: $0, schoolIsNew: schoolIsNew) }
    }
}
