import Foundation

/// How long anything may wait on PostgreSQL, so a database that stops answering, or another
/// server frozen while it holds a lock, turns into a prompt 503 with `Retry-After` instead of a
/// request that hangs. Each is set by an environment variable, in seconds:
///
/// | variable | default | bounds |
/// | --- | --- | --- |
/// | `HOGWARTS_DATABASE_CONNECT_TIMEOUT` | 2 | opening a connection (libpq's `connect_timeout`, at least 2), and the answer to a BEGIN |
/// | `HOGWARTS_DATABASE_POOL_WAIT` | 5 | waiting for a free connection of this server's pool |
/// | `HOGWARTS_DATABASE_LOCK_TIMEOUT` | 10 | waiting for a row or lock another transaction holds |
/// | `HOGWARTS_DATABASE_STATEMENT_TIMEOUT` | 120 | one statement |
/// | `HOGWARTS_DATABASE_IDLE_TIMEOUT` | 60 | a transaction left open with nothing running (a frozen server's), which PostgreSQL then ends, freeing its locks |
package struct PostgresTimeouts: Sendable, Equatable {
    package var connect: Int = 2
    package var poolWait: TimeInterval = 5
    package var lock: Int = 10
    package var statement: Int = 120
    package var idleInTransaction: Int = 60

    package static func fromEnvironment(_ variables: [String: String] = ProcessInfo.processInfo.environment) -> PostgresTimeouts {
        var timeouts = PostgresTimeouts()
        func seconds(_ name: String) -> Int? { Self.seconds(variables[name]) }
        if let value = seconds("HOGWARTS_DATABASE_CONNECT_TIMEOUT") { timeouts.connect = max(2, value) }
        if let value = seconds("HOGWARTS_DATABASE_POOL_WAIT") { timeouts.poolWait = TimeInterval(value) }
        if let value = seconds("HOGWARTS_DATABASE_LOCK_TIMEOUT") { timeouts.lock = value }
        if let value = seconds("HOGWARTS_DATABASE_STATEMENT_TIMEOUT") { timeouts.statement = value }
        if let value = seconds("HOGWARTS_DATABASE_IDLE_TIMEOUT") { timeouts.idleInTransaction = value }
        return timeouts
    }

    /// A variable's value when it is a whole number of seconds, 0 or more; nil otherwise (the default is used).
    package static func seconds(_ text: String?) -> Int? {
        text.flatMap { Int($0) }.flatMap { $0 >= 0 ? $0 : nil }
    }

    /// How long a BEGIN may go unanswered (it waits on nothing) before the server is taken for
    /// frozen: the same bound as opening a connection.
    var beginAnswer: TimeInterval { TimeInterval(connect) }

    /// How long any other statement's answer may take on this side: the server's own statement
    /// timeout, and a little more for the answer to arrive; without end when that is off.
    var statementAnswer: TimeInterval? { statement == 0 ? nil : TimeInterval(statement + 5) }

    /// The connection string with `connect_timeout` added, unless it names one already.
    func bounding(_ conninfo: String) -> String {
        guard !conninfo.contains("connect_timeout") else { return conninfo }
        if conninfo.hasPrefix("postgres://") || conninfo.hasPrefix("postgresql://") {
            return conninfo + (conninfo.contains("?") ? "&" : "?") + "connect_timeout=\(connect)"
        }
        return conninfo + " connect_timeout=\(connect)"
    }

    /// Run once on each new connection (0 turns a timeout off, as in PostgreSQL).
    var sessionSettings: String {
        "SET lock_timeout = '\(lock)s'; SET statement_timeout = '\(statement)s'; SET idle_in_transaction_session_timeout = '\(idleInTransaction)s'"
    }
}
