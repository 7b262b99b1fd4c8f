import Foundation
import GRDB

extension Kernel {
    /// Copies the database to `destination` with SQLite's online backup: a consistent snapshot
    /// even while other processes keep writing. Refuses to overwrite an existing file, and to
    /// copy a database that fails its integrity check (a backup of a damaged file is no backup).
    ///
    /// The copy is written to a private (0600) temporary file beside the destination and renamed
    /// into place when complete, so a backup killed half-way leaves no torn file at the name.
    public func backup(to destination: String, progress: ProgressReporter? = nil) throws {
        guard !FileManager.default.fileExists(atPath: destination) else { throw KernelError.fileExists(destination) }
        try IntegrityCheck.require(store.pool, path: databasePath)
        try Self.copy(from: store.pool, to: destination, progress: progress)
    }

    /// Replaces this database with a backup, after checking the file is an intact Hogwarts
    /// database made by this version or an older one. The current contents are first saved next
    /// to the database (`<file>.before-restore-<time>`); that path is returned so nothing is lost.
    @discardableResult
    public func restore(from source: String, progress: ProgressReporter? = nil) throws -> String {
        guard FileManager.default.fileExists(atPath: source) else { throw KernelError.fileMissing(source) }
        let backupQueue = try Self.openHogwartsFile(source)
        try IntegrityCheck.require(backupQueue, path: source)
        guard !store.isReadOnly else { throw KernelError.readOnlyDatabase(databasePath) }
        let stamp = ISO8601DateFormatter().string(from: now()).replacingOccurrences(of: ":", with: "-")
        let safetyCopy = "\(databasePath).before-restore-\(stamp)"
        // The safety copy is taken even from a damaged database: it is what there was.
        try Self.copy(from: store.pool, to: safetyCopy, progress: nil)
        try withStorageErrors {
            try backupQueue.backup(to: store.pool, pagesPerStep: Self.pagesPerStep) { step in
                progress?(step.completedPageCount, step.totalPageCount, "restore")
            }
            try backupQueue.close()
        }
        progress?(1, 1, "")
        logger.notice("restored", metadata: ["from": "\(source)", "previous": "\(safetyCopy)"])
        return safetyCopy
    }

    /// 4 MiB of 4 KiB pages per step: small enough to show progress, large enough not to slow the copy.
    static let pagesPerStep: CInt = 1024

    /// Online backup into a temporary file beside `destination`, then an atomic rename.
    static func copy(from source: DatabasePool, to destination: String, progress: ProgressReporter?) throws {
        let folder = URL(filePath: destination).deletingLastPathComponent().path
        let temporary = "\(folder)/.\(URL(filePath: destination).lastPathComponent).partial-\(UUID().uuidString.prefix(8))"
        do {
            try FileSafety.createPrivateFile(at: temporary)
            try withStorageErrors {
                let target = try DatabaseQueue(path: temporary)
                try source.backup(to: target, pagesPerStep: pagesPerStep) { step in
                    progress?(step.completedPageCount, step.totalPageCount, "backup")
                }
                try target.close()
            }
            progress?(1, 1, "")
            // link(2) then unlink: unlike rename(2), it refuses to replace a file that appeared meanwhile.
            guard link(temporary, destination) == 0 else {
                throw errno == EEXIST ? KernelError.fileExists(destination) : KernelError.storage("\(destination): \(String(cString: strerror(errno)))")
            }
            unlink(temporary)
        } catch {
            unlink(temporary)
            throw error
        }
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
