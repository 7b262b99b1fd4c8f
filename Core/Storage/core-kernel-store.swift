import Foundation
import GRDB

/// The database file: a GRDB pool in WAL mode, so readers never wait for the writer.
final class KernelStore: Sendable {
    let pool: DatabasePool
    let path: String

    init(path: String) throws {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        // Several `hogwarts` processes may share one file: wait for a lock instead of failing.
        configuration.busyMode = .timeout(10)
        self.path = path
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
        } catch let error as DatabaseError {
            throw KernelError.storage("\(path): \(error.message ?? error.description)")
        }
    }

    func write<T>(_ work: (Database) throws -> T) throws -> T {
        try withStorageErrors { try pool.write(work) }
    }

    func read<T>(_ work: (Database) throws -> T) throws -> T {
        try withStorageErrors { try pool.read(work) }
    }
}
