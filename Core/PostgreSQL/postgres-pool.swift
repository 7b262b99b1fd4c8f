import Foundation
import HogwartsBase

/// A fixed number of libpq connections shared by the kernel's threads: a transaction takes one
/// for its whole length and gives it back; a broken one is closed and replaced on demand.
package final class PostgresPool: @unchecked Sendable {
    package let conninfo: String
    private let limit: Int
    package let timeouts: PostgresTimeouts
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var idle: [PostgresConnection] = []
    private var opened = 0

    init(conninfo: String, limit: Int, timeouts: PostgresTimeouts) {
        self.conninfo = conninfo
        self.limit = max(1, limit)
        self.timeouts = timeouts
    }

    func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        let connection = try acquire()
        defer { release(connection) }
        return try body(connection)
    }

    private func acquire() throws -> PostgresConnection {
        condition.lock()
        // Bounded: connections held by requests stuck on a database that stopped answering
        // must not queue every later request behind them without end.
        let deadline = Date().addingTimeInterval(timeouts.poolWait)
        while idle.isEmpty && opened >= limit {
            guard condition.wait(until: deadline) else {
                if !idle.isEmpty || opened < limit { break }
                condition.unlock()
                throw KernelError.databaseUnavailable("no database connection was free within \(Int(timeouts.poolWait)) s")
            }
        }
        if let connection = idle.popLast() {
            condition.unlock()
            return connection
        }
        opened += 1
        condition.unlock()
        do {
            return try PostgresConnection(conninfo: conninfo, timeouts: timeouts)
        } catch {
            condition.lock()
            opened -= 1
            condition.signal()
            condition.unlock()
            throw error
        }
    }

    private func release(_ connection: PostgresConnection) {
        condition.lock()
        if connection.isHealthy {
            idle.append(connection)
        } else {
            opened -= 1
        }
        condition.signal()
        condition.unlock()
    }
}
