import Foundation
import HogwartsBase

extension Kernel {
    /// Copies the database to `destination` as the engine does it (SQLite: its online backup, a
    /// consistent snapshot even while other processes keep writing). Refuses to overwrite an
    /// existing file, and to copy a database that fails its integrity check (a backup of a
    /// damaged file is no backup).
    public func backup(to destination: String, progress: ProgressReporter? = nil) throws {
        try store.engine.backup(to: destination, progress: progress)
    }

    /// Replaces this database with a backup, after checking it is an intact Hogwarts database
    /// made by this version or an older one. The current contents are first saved next to the
    /// database (`<file>.before-restore-<time>`). PostgreSQL refuses both, naming pg_dump and pg_restore; that path is returned so nothing is lost.
    @discardableResult
    public func restore(from source: String, progress: ProgressReporter? = nil) throws -> String {
        let stamp = ISO8601DateFormatter().string(from: now()).replacingOccurrences(of: ":", with: "-")
        // Two restores within one second (a retry, a script) each keep their own safety copy.
        var safetyCopy = "\(databasePath).before-restore-\(stamp)"
        var copyNumber = 1
        while FileManager.default.fileExists(atPath: safetyCopy) {
            copyNumber += 1
            safetyCopy = "\(databasePath).before-restore-\(stamp)-\(copyNumber)"
        }
        try store.engine.restore(from: source, safetyCopy: safetyCopy, progress: progress)
        // An older backup may lack migrations this build declares.
        migrationsComplete.withLock { $0 = false }
        logger.notice("restored", metadata: ["from": "\(source)", "previous": "\(safetyCopy)"])
        return safetyCopy
    }
}
