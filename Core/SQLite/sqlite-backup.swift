import Foundation
import GRDB
import HogwartsBase

extension SQLiteEngine {
    /// SQLite's online backup into a private file: see `Kernel.backup(to:progress:)`.
    package func backup(to destination: String, progress: ProgressReporter?) throws {
        guard !FileManager.default.fileExists(atPath: destination) else { throw KernelError.fileExists(destination) }
        try SQLiteIntegrity.require(pool, path: path)
        try Self.copy(from: pool, to: destination, progress: progress)
    }

    /// Checks `source` is an intact Hogwarts file, saves the current contents to `safetyCopy`,
    /// then copies the backup over this database page by page.
    package func restore(from source: String, safetyCopy: String, progress: ProgressReporter?) throws {
        guard FileManager.default.fileExists(atPath: source) else { throw KernelError.fileMissing(source) }
        let backupQueue = try Self.openHogwartsFile(source)
        try SQLiteIntegrity.require(backupQueue, path: source)
        guard !isReadOnly else { throw KernelError.readOnlyDatabase(path) }
        // The safety copy is taken even from a damaged database: it is what there was.
        try Self.copy(from: pool, to: safetyCopy, progress: nil)
        try withStorageErrors {
            try backupQueue.backup(to: pool, pagesPerStep: Self.pagesPerStep) { step in
                progress?(step.completedPageCount, step.totalPageCount, "restore")
            }
            try backupQueue.close()
        }
        progress?(1, 1, "")
    }

    /// 4 MiB of 4 KiB pages per step: small enough to show progress, large enough not to slow the copy.
    static let pagesPerStep: CInt = 1024

    /// Online backup into a temporary file beside `destination`, then an atomic rename. The copy
    /// is written to a private (0600) temporary file, synced, and renamed into place when
    /// complete, so a backup killed half-way (or a power cut) leaves no torn file at the name.
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
                // The copy carries the live file's WAL mark; a backup is one file on its own, so
                // whoever reads it later (restore, sqlite3) needs no -wal or -shm beside it.
                try target.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = DELETE") }
                try target.close()
            }
            try FileSafety.sync(temporary)
            progress?(1, 1, "")
            // link(2) then unlink: unlike rename(2), it refuses to replace a file that appeared meanwhile.
            guard link(temporary, destination) == 0 else {
                throw errno == EEXIST ? KernelError.fileExists(destination) : KernelError.storage("\(destination): \(String(cString: strerror(errno)))")
            }
            unlink(temporary)
            try FileSafety.sync(folder)
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// Opens a file read-only and checks its identity and version before anything trusts it.
    /// A file with no WAL of its own is read `immutable`: reading a backup (one a copy of a live
    /// file, with its WAL mark) must leave no `-wal` or `-shm` files beside it.
    package static func openHogwartsFile(_ path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        let queue: DatabaseQueue
        let meta: [String: String]
        let location = FileManager.default.fileExists(atPath: path + "-wal") ? path : readOnlyLocation(path)
        do {
            queue = try DatabaseQueue(path: location, configuration: configuration)
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
