/// A database read or written behind the platform's back, on whichever engine `location` names
/// (a file, or a `postgres://` URL): what a test checks after a `hogwarts` process or a server
/// wrote, and the odd row it moves (a session's expiry). The platform's own work never goes
/// through here: it runs as actions on the kernel's store.
public enum DatabaseProbe {
    /// The first column of every row, as text, with each `?` bound to the next of `arguments`.
    public static func strings(_ sql: String, _ arguments: [String] = [], in location: String) throws -> [String] {
        try KernelStore(location: location).read { db in
            try db.fetchValues(String.self, sql: sql, arguments: arguments.map { $0 })
        }
    }

    /// Runs one statement in its own transaction.
    public static func execute(_ sql: String, in location: String) throws {
        try KernelStore(location: location).write { try $0.execute(sql: sql) }
    }
}
