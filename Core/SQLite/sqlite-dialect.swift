import HogwartsBase

/// SQLite's spelling of what differs between engines.
struct SQLiteDialect: SQLDialect {
    var name: String { "SQLite" }

    /// SQLite keeps the exact text in `sqlite_master.sql`, which `triggers(prefixed:)` reads back.
    func rowTrigger(name: String, table: String, event: String, body: String) -> TriggerDefinition {
        let script = "CREATE TRIGGER \(name) AFTER \(event) ON \(table) BEGIN \(body) END"
        return TriggerDefinition(script: script, definition: script)
    }

    var jsonTextList: String { "SELECT value FROM json_each(?)" }

    /// SQLite has one writer at a time: a write transaction already holds every key.
    var writerLock: String? { nil }

    /// Nothing to add: a write transaction already excludes every other writer.
    var skipLockedRows: String { "" }

    func dropTrigger(name: String, table: String) -> String {
        "DROP TRIGGER IF EXISTS \(name)"
    }
}
