import Foundation
import HogwartsBase

/// PostgreSQL's spelling of what differs between engines.
package struct PostgresDialect: SQLDialect {
    package var name: String { "PostgreSQL" }

    /// A PL/pgSQL function and a row trigger of the same name (shortened with a digest past
    /// PostgreSQL's 63-byte names), with the digest of the declaration as the trigger's comment:
    /// the catalog keeps no text to compare, so the comment is what `triggers(prefixed:)` reads back.
    package func rowTrigger(name: String, table: String, event: String, body: String) -> TriggerDefinition {
        let object = Self.identifier(name)
        let digest = Digest.sha256Hex(Data("\(name)|\(table)|\(event)|\(body)".utf8))
        let script = """
            CREATE OR REPLACE FUNCTION \(object)() RETURNS trigger LANGUAGE plpgsql AS $hogwarts$ BEGIN \(body) RETURN NULL; END $hogwarts$;
            CREATE TRIGGER \(object) AFTER \(event) ON \(table) FOR EACH ROW EXECUTE FUNCTION \(object)();
            COMMENT ON TRIGGER \(object) ON \(table) IS '\(digest)';
            """
        return TriggerDefinition(script: script, definition: digest)
    }

    package func dropTrigger(name: String, table: String) -> String {
        "DROP TRIGGER IF EXISTS \(name) ON \(table); DROP FUNCTION IF EXISTS \(name)();"
    }

    package var jsonTextList: String { "SELECT jsonb_array_elements_text(CAST(? AS jsonb))" }

    /// A transaction-scoped advisory lock on the key's 64-bit hash (a collision only makes two
    /// keys wait for each other); released at commit or rollback.
    package var writerLock: String? { "SELECT pg_advisory_xact_lock(hashtextextended(CAST(? AS text), 0))" }

    /// Rows another transaction holds are left to it, so several runners share a queue.
    package var skipLockedRows: String { "FOR UPDATE SKIP LOCKED" }

    /// Names over 63 bytes keep their first 40 and a digest of the whole, so the prefix the
    /// catalog is searched by survives and two long names never meet.
    static func identifier(_ name: String) -> String {
        guard name.utf8.count > 63 else { return name }
        return String(name.prefix(40)) + "_" + Digest.sha256Hex(Data(name.utf8)).prefix(16)
    }
}
