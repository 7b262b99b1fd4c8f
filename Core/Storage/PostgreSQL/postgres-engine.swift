import Foundation

/// The server engine: a PostgreSQL database named by a `postgres://` URL, through libpq.
///
/// Each transaction holds one pooled connection: writes at READ COMMITTED (counters are rows
/// updated with `RETURNING`, so two writers never take the same number), reads in one
/// REPEATABLE READ snapshot, as SQLite's WAL readers see one.
final class PostgresEngine: StorageEngine {
    let location: String
    private let pool: PostgresPool

    /// Whether `location` names a PostgreSQL database rather than a file.
    static func accepts(_ location: String) -> Bool {
        location.hasPrefix("postgres://") || location.hasPrefix("postgresql://")
    }

    /// - Parameter connections: at most this many connections at once (`HOGWARTS_DATABASE_CONNECTIONS`, else 8).
    init(url: String, connections: Int? = nil) throws {
        location = Self.redacted(url)
        let limit = connections ?? ProcessInfo.processInfo.environment["HOGWARTS_DATABASE_CONNECTIONS"].flatMap(Int.init) ?? 8
        pool = PostgresPool(conninfo: url, limit: limit, timeouts: .fromEnvironment())
        // Connect once now, so a wrong address or password is reported where the database is opened.
        try pool.withConnection { _ in }
    }

    var isReadOnly: Bool { false }
    var folder: URL { URL(filePath: FileManager.default.currentDirectoryPath).standardizedFileURL }
    var dialect: any SQLDialect { PostgresDialect() }

    func read<T>(_ work: (any StorageConnection) throws -> T) throws -> T {
        try transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", work)
    }

    func write<T>(_ work: (any StorageConnection) throws -> T) throws -> T {
        try transaction("BEGIN", work)
    }

    private func transaction<T>(_ begin: String, _ work: (any StorageConnection) throws -> T) throws -> T {
        try pool.withConnection { connection in
            try connection.command(begin, answerWithin: pool.timeouts.beginAnswer)
            do {
                let result = try work(connection)
                try connection.command("COMMIT")
                return result
            } catch {
                try? connection.command("ROLLBACK")
                throw error
            }
        }
    }

    /// PostgreSQL checks its own pages (with data checksums on); this reports whether the server answers.
    func checkIntegrity() -> IntegrityReport {
        do {
            let answer = try read { try $0.fetchValue(Int.self, sql: "SELECT 1") }
            return IntegrityReport(mode: "connection", path: location, ok: answer == 1, problems: [])
        } catch {
            return IntegrityReport(mode: "connection", path: location, ok: false, problems: [String(describing: error)])
        }
    }

    /// A file copy of a server's database is no backup: PostgreSQL's own tools make one.
    func backup(to destination: String, progress: ProgressReporter?) throws {
        throw KernelError.backupNeedsServerTools(database: Self.redacted(location))
    }

    func restore(from source: String, safetyCopy: String, progress: ProgressReporter?) throws {
        throw KernelError.backupNeedsServerTools(database: Self.redacted(location))
    }

    /// The URL without its password, for messages and logs.
    static func redacted(_ url: String) -> String {
        url.replacingOccurrences(of: #"://([^:/@]*):[^@/]*@"#, with: "://$1:***@", options: .regularExpression)
    }
}

extension StorageEngine {
    /// Whether the data lives on a server rather than in a file, so it has no folder of its own.
    var isServer: Bool { self is PostgresEngine }
}
