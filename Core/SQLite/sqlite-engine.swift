import Foundation
import GRDB
import HogwartsBase

/// The embedded engine: one database file through a GRDB pool in WAL mode, so readers never wait
/// for the writer.
///
/// A new file is created 0600 (its WAL and shared-memory files follow its mode), and only when
/// asked: a mistyped path must not turn into an empty database. A file this
/// process may not write (a read-only copy or mount) opens read-only: every read works, and a
/// write is refused with a message that says why.
package final class SQLiteEngine: StorageEngine {
    package let pool: DatabasePool
    let path: String
    package let isReadOnly: Bool
    /// Concurrent writers share one commit (`sqlite-group-commit.swift`).
    package let commits: GroupCommit

    package init(path: String, createIfMissing: Bool = true) throws {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        // Several `hogwarts` processes may share one file: wait for a lock instead of failing.
        configuration.busyMode = .timeout(10)
        self.path = path
        folder = URL(filePath: path).deletingLastPathComponent().standardizedFileURL
        let exists = FileManager.default.fileExists(atPath: path)
        guard exists || createIfMissing else { throw KernelError.databaseMissing(path) }
        isReadOnly = exists && !FileSafety.isWritable(path)
        configuration.readonly = isReadOnly
        do {
            if !exists { try FileSafety.createPrivateFile(at: path) }
            pool = try DatabasePool(path: isReadOnly ? Self.readOnlyLocation(path) : path, configuration: configuration)
            if !isReadOnly {
                // GRDB sets NORMAL for WAL, which may lose the last commits on a power cut: an
                // accepted register must survive one, so every commit waits for the disk.
                try pool.writeWithoutTransaction { db in
                    try db.execute(sql: "PRAGMA synchronous = FULL")
                    // A statement that writes several rows inside a transaction (a register's upsert,
                    // a statement checked against foreign keys) keeps an undo copy of the pages it
                    // changes: in memory, not spilled to a file in /var/tmp. Never synced either way.
                    try db.execute(sql: "PRAGMA temp_store = MEMORY")
                }
            }
        } catch let error as DatabaseError {
            throw KernelError.storage("\(path): \(error.message ?? error.description)")
        }
        commits = GroupCommit(pool: pool)
    }

    package var location: String { path }
    /// Worked out once: settings read it on every action, and standardizing a path touches the file system.
    package let folder: URL
    package var dialect: any SQLDialect { SQLiteDialect() }

    /// Where SQLite opens a file we may not write. While its owner has it open, its shared-memory
    /// file exists and SQLite reads through it. Otherwise SQLite would create `-shm` and `-wal`
    /// files owned by us, which would then stop the owner from writing; opening it `immutable`
    /// reads the file as it stands and creates nothing (the owner's last close has folded the WAL in).
    static func readOnlyLocation(_ path: String) -> String {
        guard !FileManager.default.fileExists(atPath: path + "-shm") else { return path }
        let absolute = URL(filePath: path).standardizedFileURL.path
        let encoded = absolute.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "?#%"))) ?? absolute
        return "file:\(encoded)?immutable=1"
    }

    package func write<T>(_ work: (any StorageConnection) throws -> T) throws -> T {
        guard !isReadOnly else { throw KernelError.readOnlyDatabase(path) }
        do {
            return try withStorageErrors { try commits.write { db in try work(SQLiteConnection(db)) } }
        } catch KernelError.storage(let detail) where detail.contains("readonly database") {
            // The folder, not the file, may be what is read-only (no room for the WAL).
            throw KernelError.readOnlyDatabase(path)
        }
    }

    package func read<T>(_ work: (any StorageConnection) throws -> T) throws -> T {
        try withStorageErrors { try pool.read { db in try work(SQLiteConnection(db)) } }
    }
}
