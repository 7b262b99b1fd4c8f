import Core
import HogwartsPostgreSQL
import Foundation

/// Where a test's database lives: a file in its folder (`swift test`), or with
/// `HOGWARTS_TEST_DATABASE=postgres://user@host:port/db` a schema of its own on that server.
public enum TestDatabase {
    /// The PostgreSQL server the tests run on, nil for SQLite.
    public static var server: String? {
        ProcessInfo.processInfo.environment["HOGWARTS_TEST_DATABASE"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether the tests run on PostgreSQL (tests of SQLite files skip then).
    public static var isPostgres: Bool { server != nil }

    /// A new, empty database for one test. On a loaded 2-core machine the shared server has
    /// taken longer than the connect bound to answer now and then (twice in local PostgreSQL
    /// passes, each failing a test that had not begun): asked again, as a client would.
    public static func fresh(in directory: URL) throws -> String {
        guard let server else { return directory.appending(path: "hogwarts.sqlite").path }
        for _ in 1..<3 {
            do {
                return try PostgresScratch.makeSchema(on: server)
            } catch KernelError.databaseUnavailable {
                Thread.sleep(forTimeInterval: 2)
            }
        }
        return try PostgresScratch.makeSchema(on: server)
    }

    /// Makes the fresh database `location` a copy of `template`, both of these modules: the file
    /// copied, or on PostgreSQL the schema migrated by the modules and given the template's rows.
    static func copy(_ template: String, into location: String, modules: [any AppModule], clock: @escaping @Sendable () -> Date) throws {
        guard let server else { return try copyFile(template, to: location) }
        try Kernel(databasePath: location, modules: modules, language: .en, clock: clock).migrate()
        try PostgresScratch.copyRows(from: template, into: location, on: server)
    }

    /// Copies a closed SQLite database: its file, and its write-ahead log if one was left, each
    /// with the same file mode.
    public static func copyFile(_ from: String, to: String) throws {
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: from + suffix) {
            try FileManager.default.copyItem(atPath: from + suffix, toPath: to + suffix)
            let mode = try FileManager.default.attributesOfItem(atPath: from + suffix)[.posixPermissions]
            if let mode { try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: to + suffix) }
        }
    }

    /// Removes what `fresh` made on the server (a file goes with its folder).
    public static func drop(_ location: String) {
        guard let server, location.hasPrefix("postgres") else { return }
        PostgresScratch.dropSchema(location, on: server)
    }
}
