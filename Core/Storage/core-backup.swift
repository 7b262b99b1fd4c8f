import Foundation
import GRDB

extension Kernel {
    /// Copies the database to `destination` with SQLite's online backup: a consistent snapshot
    /// even while other processes keep writing. Refuses to overwrite an existing file.
    public func backup(to destination: String) throws {
        guard !FileManager.default.fileExists(atPath: destination) else { throw KernelError.fileExists(destination) }
        try withStorageErrors {
            let target = try DatabaseQueue(path: destination)
            try store.pool.backup(to: target)
            try target.close()
        }
    }

    /// Replaces this database with a backup, after checking the file is a Hogwarts database
    /// made by this version or an older one. The current contents are first saved next to the
    /// database (`<file>.before-restore-<time>`); that path is returned so nothing is lost.
    @discardableResult
    public func restore(from source: String) throws -> String {
        guard FileManager.default.fileExists(atPath: source) else { throw KernelError.fileMissing(source) }
        let backupQueue = try Self.openHogwartsFile(source)
        let stamp = ISO8601DateFormatter().string(from: now()).replacingOccurrences(of: ":", with: "-")
        let safetyCopy = "\(databasePath).before-restore-\(stamp)"
        try backup(to: safetyCopy)
        try withStorageErrors {
            try backupQueue.backup(to: store.pool)
            try backupQueue.close()
        }
        logger.notice("restored", metadata: ["from": "\(source)", "previous": "\(safetyCopy)"])
        return safetyCopy
    }

    /// Opens a file read-only and checks its identity and version before anything trusts it.
    static func openHogwartsFile(_ path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        let queue: DatabaseQueue
        let meta: [String: String]
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration)
            meta = try queue.read { db in
                guard try db.tableExists("kernel_meta") else { return [:] }
                var meta: [String: String] = [:]
                for row in try Row.fetchAll(db, sql: "SELECT key, value FROM kernel_meta") { meta[row["key"]] = row["value"] }
                return meta
            }
        } catch {
            // Not SQLite at all ("file is not a database") lands here too.
            throw KernelError.notAHogwartsDatabase(path)
        }
        guard meta["format"] == PlatformVersion.format, let text = meta["platform_version"], let version = SemanticVersion(parsing: text) else {
            throw KernelError.notAHogwartsDatabase(path)
        }
        guard version <= PlatformVersion.current else {
            throw KernelError.newerDatabase(path: path, found: text, supported: PlatformVersion.current.description)
        }
        return queue
    }
}
