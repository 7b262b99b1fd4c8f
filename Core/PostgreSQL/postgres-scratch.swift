import Foundation
import HogwartsBase

/// Throwaway schemas on a PostgreSQL server, one per test (`HOGWARTS_TEST_DATABASE`): each gets
/// its own tables, so tests run in parallel without sharing state, and none needs a new database.
public enum PostgresScratch {
    /// Creates an empty schema on the server `url` names and returns a URL whose connections
    /// work in it (their `search_path`).
    public static func makeSchema(on url: String) throws -> String {
        let schema = "scratch" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let connection = try PostgresConnection(conninfo: url, timeouts: .fromEnvironment())
        try connection.command("CREATE SCHEMA \(schema)")
        return url + (url.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(schema)"
    }

    /// Drops the schema `makeSchema` made for `scratchURL`, with everything in it.
    public static func dropSchema(_ scratchURL: String, on url: String) {
        guard let schema = schema(of: scratchURL),
              let connection = try? PostgresConnection(conninfo: url, timeouts: .fromEnvironment()) else { return }
        try? connection.command("DROP SCHEMA IF EXISTS \(schema) CASCADE")
    }

    /// Replaces every row of `scratchURL`'s schema with the rows of `templateURL`'s, in one
    /// statement on the server, and sets its sequences where the template's stand. Both schemas
    /// must be migrated to the same modules. Triggers (the sync ledger's, foreign keys) do not
    /// fire: the rows are the template's as they were written. Needs a superuser (tests only).
    public static func copyRows(from templateURL: String, into scratchURL: String, on url: String) throws {
        guard let template = schema(of: templateURL), let target = schema(of: scratchURL) else {
            throw KernelError.storage("PostgreSQL: not a scratch schema URL")
        }
        let connection = try PostgresConnection(conninfo: url, timeouts: .fromEnvironment())
        try connection.command("""
            DO $copy$
            DECLARE t record; s record; columns text; last bigint; called boolean;
            BEGIN
              SET LOCAL session_replication_role = replica;
              FOR t IN SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                       WHERE n.nspname = '\(template)' AND c.relkind = 'r' LOOP
                SELECT string_agg(quote_ident(column_name), ', ' ORDER BY ordinal_position) INTO columns
                  FROM information_schema.columns
                  WHERE table_schema = '\(template)' AND table_name = t.relname AND is_generated = 'NEVER';
                EXECUTE format('DELETE FROM \(target).%I', t.relname);
                EXECUTE format('INSERT INTO \(target).%I (%s) SELECT %s FROM \(template).%I', t.relname, columns, columns, t.relname);
              END LOOP;
              FOR s IN SELECT sequencename FROM pg_sequences WHERE schemaname = '\(template)' LOOP
                EXECUTE format('SELECT last_value, is_called FROM \(template).%I', s.sequencename) INTO last, called;
                PERFORM setval(format('\(target).%I', s.sequencename), last, called);
              END LOOP;
            END $copy$
            """)
    }

    /// The schema a scratch URL's connections work in (letters, digits and underscores only).
    private static func schema(of scratchURL: String) -> String? {
        guard let range = scratchURL.range(of: "search_path%3D") else { return nil }
        let schema = scratchURL[range.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        return schema.isEmpty ? nil : String(schema)
    }
}
