import Foundation
import HogwartsBase

/// The server engine: a PostgreSQL database named by a `postgres://` URL, through libpq.
///
/// Each transaction holds one pooled connection: writes at READ COMMITTED (counters are rows
/// updated with `RETURNING`, so two writers never take the same number), reads in one
/// REPEATABLE READ snapshot, as SQLite's WAL readers see one.
package final class PostgresEngine: StorageEngine {
    package let location: String
    package let pool: PostgresPool

    /// Whether `location` names a PostgreSQL database rather than a file.
    package static func accepts(_ location: String) -> Bool {
        location.hasPrefix("postgres://") || location.hasPrefix("postgresql://")
    }

    /// - Parameter connections: at most this many connections at once (`HOGWARTS_DATABASE_CONNECTIONS`, else 8).
    package init(url: String, connections: Int? = nil) throws {
        location = Self.redacted(url)
        let limit = connections ?? Self.connectionLimit(ProcessInfo.processInfo.environment["HOGWARTS_DATABASE_CONNECTIONS"]) ?? Self.defaultConnectionLimit
        pool = PostgresPool(conninfo: url, limit: limit, timeouts: .fromEnvironment())
        // Connect once now, so a wrong address or password is reported where the database is opened.
        try pool.withConnection { _ in }
    }

    package var isReadOnly: Bool { false }
    package var folder: URL { URL(filePath: FileManager.default.currentDirectoryPath).standardizedFileURL }
    package var dialect: any SQLDialect { PostgresDialect() }

    package func read<T>(_ work: (any StorageConnection) throws -> T) throws -> T {
        try transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", work)
    }

    package func write<T>(_ work: (any StorageConnection) throws -> T) throws -> T {
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
    package func checkIntegrity() -> IntegrityReport {
        do {
            let answer = try read { try $0.fetchValue(Int.self, sql: "SELECT 1") }
            return IntegrityReport(mode: "connection", path: location, ok: answer == 1, problems: [])
        } catch {
            return IntegrityReport(mode: "connection", path: location, ok: false, problems: [String(describing: error)])
        }
    }

    /// A file copy of a server's database is no backup: PostgreSQL's own tools make one.
    package func backup(to destination: String, progress: ProgressReporter?) throws {
        throw KernelError.backupNeedsServerTools(database: Self.redacted(location))
    }

    package func restore(from source: String, safetyCopy: String, progress: ProgressReporter?) throws {
        throw KernelError.backupNeedsServerTools(database: Self.redacted(location))
    }

    /// The URL without its password, for messages, logs and `hogwarts config`: the user's
    /// (up to the last `@` before the query, so a `/` or `@` in it hides nothing) and any
    /// `password=` or `sslpassword=` parameter.
    package static func redacted(_ url: String) -> String {
        guard let scheme = url.range(of: "://") else { return url }
        var text = url
        let queryStart = text[scheme.upperBound...].firstIndex(where: { $0 == "?" || $0 == "#" }) ?? text.endIndex
        if let at = text[scheme.upperBound..<queryStart].lastIndex(of: "@"),
           let colon = text[scheme.upperBound..<at].firstIndex(of: ":") {
            text.replaceSubrange(text.index(after: colon)..<at, with: "***")
        }
        return text.replacingOccurrences(of: #"([?&][A-Za-z_]*password=)[^&#]*"#, with: "$1***", options: .regularExpression)
    }

    /// `HOGWARTS_DATABASE_CONNECTIONS` when it is a whole number of at least 1; nil otherwise (8 is used).
    package static func connectionLimit(_ text: String?) -> Int? {
        text.flatMap { Int($0) }.flatMap { $0 >= 1 ? $0 : nil }
    }

    package static let defaultConnectionLimit = 8
}

extension StorageEngine {
    /// Whether the data lives on a server rather than in a file, so it has no folder of its own.
    package var isServer: Bool { self is PostgresEngine }
}
