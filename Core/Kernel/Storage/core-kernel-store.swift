import HogwartsBase
import HogwartsSQLite
import HogwartsPostgreSQL

/// The kernel's database: a storage engine, chosen by `--database`, with the offline sync
/// recorder wrapped around every write transaction.
package final class KernelStore: Sendable {
    package let engine: any StorageEngine
    /// Records offline sync changes at the end of every write transaction (Core/Kernel/Sync).
    package let recorder: ChangeRecorder?

    init(engine: any StorageEngine, recorder: ChangeRecorder? = nil) {
        self.engine = engine
        self.recorder = recorder
    }

    /// Opens the database `location` names: a `postgres://` URL opens PostgreSQL, a file path
    /// SQLite (a missing file is created only with `createIfMissing`).
    convenience init(location: String, recorder: ChangeRecorder? = nil, createIfMissing: Bool = true) throws {
        let engine: any StorageEngine = PostgresEngine.accepts(location)
            ? try PostgresEngine(url: location)
            : try SQLiteEngine(path: location, createIfMissing: createIfMissing)
        self.init(engine: engine, recorder: recorder)
    }

    var path: String { engine.location }
    var isReadOnly: Bool { engine.isReadOnly }

    package func write<T>(_ work: (any StorageConnection) throws -> T) throws -> T {
        try engine.write { db in
            try recorder?.begin(db)
            let result = try work(db)
            try recorder?.finish(db)
            return result
        }
    }

    package func read<T>(_ work: (any StorageConnection) throws -> T) throws -> T {
        try engine.read(work)
    }
}
