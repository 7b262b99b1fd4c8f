import Foundation

/// Throwaway schemas on a PostgreSQL server, one per test (`HOGWARTS_TEST_DATABASE`): each gets
/// its own tables, so tests run in parallel without sharing state, and none needs a new database.
public enum PostgresScratch {
    /// Creates an empty schema on the server `url` names and returns a URL whose connections
    /// work in it (their `search_path`).
    public static func makeSchema(on url: String) throws -> String {
        let schema = "scratch" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let connection = try PostgresConnection(conninfo: url)
        try connection.command("CREATE SCHEMA \(schema)")
        return url + (url.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(schema)"
    }

    /// The first column of every row `sql` returns in the schema `scratchURL` names: tests read
    /// what a `hogwarts` process wrote, as they open a SQLite file.
    public static func strings(_ sql: String, in scratchURL: String) throws -> [String] {
        try PostgresConnection(conninfo: scratchURL).fetchValues(String.self, sql: sql)
    }

    /// Runs one statement in the schema `scratchURL` names (a test moving a session's expiry, say).
    public static func execute(_ sql: String, in scratchURL: String) throws {
        try PostgresConnection(conninfo: scratchURL).execute(sql: sql)
    }

    /// Drops the schema `makeSchema` made for `scratchURL`, with everything in it.
    public static func dropSchema(_ scratchURL: String, on url: String) {
        guard let range = scratchURL.range(of: "search_path%3D") else { return }
        let schema = scratchURL[range.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        guard let connection = try? PostgresConnection(conninfo: url) else { return }
        try? connection.command("DROP SCHEMA IF EXISTS \(schema) CASCADE")
    }
}
