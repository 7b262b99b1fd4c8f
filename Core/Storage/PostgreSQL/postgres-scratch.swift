import Foundation

/// Throwaway schemas on a PostgreSQL server, one per test (`HOGWARTS_TEST_DATABASE`): each gets
/// its own tables, so tests run in parallel without sharing state, and none needs a new database.
public enum PostgresScratch {
    /// Creates an empty schema on the server `url` names and returns a URL whose connections
    /// work in it (their `search_path`).
    public static func makeSchema(on url: String) throws -> String {
        let schema = "scratch" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let connection = try PostgresConnection(conninfo: url, timeouts: PostgresTimeouts())
        try connection.command("CREATE SCHEMA \(schema)")
        return url + (url.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(schema)"
    }

    /// Drops the schema `makeSchema` made for `scratchURL`, with everything in it.
    public static func dropSchema(_ scratchURL: String, on url: String) {
        guard let range = scratchURL.range(of: "search_path%3D") else { return }
        let schema = scratchURL[range.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        guard let connection = try? PostgresConnection(conninfo: url, timeouts: PostgresTimeouts()) else { return }
        try? connection.command("DROP SCHEMA IF EXISTS \(schema) CASCADE")
    }
}
