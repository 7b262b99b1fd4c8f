/// The SQL that differs between engines, provided by each engine. Module and kernel SQL stays one
/// text where it can; what cannot (triggers, catalog reads, list parameters) is asked of the
/// dialect, never spelled out for one engine outside its folder.
package protocol SQLDialect: Sendable {
    /// The engine's name in messages: `SQLite`, `PostgreSQL`.
    var name: String { get }
    /// A row-level trigger `name` running `body` (statements reading `NEW`/`OLD`, each ending in
    /// `;`) after each `event` (INSERT, UPDATE or DELETE) on `table`.
    func rowTrigger(name: String, table: String, event: String, body: String) -> TriggerDefinition
    /// The script that removes trigger `name` (as the catalog names it) on `table`, and anything created with it.
    func dropTrigger(name: String, table: String) -> String
    /// A subquery listing the text elements of the JSON array bound to one `?`: `x IN (<this>)`
    /// matches a list bound as one value, so the statement text (and its prepared form) never varies.
    var jsonTextList: String { get }
    /// A statement (one `?`: a text key) that makes other transactions asking for the same key
    /// wait until this one ends; nil where write transactions already exclude each other.
    var writerLock: String? { get }
    /// The clause that ends a SELECT of queued rows a runner is about to claim: the rows it reads
    /// stay its own until it commits, and rows another runner holds are skipped. Empty where
    /// write transactions already exclude each other.
    var skipLockedRows: String { get }
}

/// A trigger as an engine creates it.
package struct TriggerDefinition: Sendable {
    /// The script that creates it.
    package let script: String
    /// What `StorageConnection.triggers(prefixed:)` reads back for it: equal text means the
    /// trigger in the database is this one.
    package let definition: String

    package init(script: String, definition: String) {
        self.script = script
        self.definition = definition
    }
}
