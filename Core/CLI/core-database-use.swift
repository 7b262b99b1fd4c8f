import Foundation
import HogwartsBase
import HogwartsKernel
import HogwartsPostgreSQL

/// What a command needs of the database it opens (`GlobalOptions.openKernel`).
public enum DatabaseUse: Sendable, Equatable {
    /// It exists, has every migration of this build applied and was not written by a newer build.
    case current
    /// It exists, at any version: commands that work on the file as it is (backup, restore, check).
    case anyVersion
    /// A missing file is created (0600): only `migrate`, `demo` and `school create` do this.
    case create
}

extension GlobalOptions {
    /// For a command that may start a new database (`school create`): a missing file is created
    /// and migrated, then `work` runs. If anything fails, a file made here is removed again, so
    /// bad input leaves nothing behind; an existing database must be current, as for any command.
    public func withNewOrCurrentDatabase<T>(_ work: (Kernel) throws -> T) throws -> T {
        let path = resolvedDatabasePath
        // O_EXCL decides: a file another process made meanwhile is theirs, never removed here.
        guard !PostgresEngine.accepts(path), try FileSafety.createPrivateFile(at: path) else {
            return try work(try openKernel())
        }
        do {
            let kernel = try openKernel(.create)
            try kernel.migrate(progress: ProgressLine.reporter())
            return try work(kernel)
        } catch {
            for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
            throw error
        }
    }
}
