import CLibPQ
import Foundation
import Synchronization
import HogwartsBase

/// `LISTEN` on a connection of its own, for the live streams: a live event stored on any server
/// sends `NOTIFY hogwarts_live` with its commit (`LiveOutbox.store`), and each server's listener
/// rings its bell, so its streams read the event at once instead of at their next look. The look
/// stays, as the fallback while this connection is down (it reconnects every few seconds).
package final class PostgresListener: Sendable {
    package static let channel = "hogwarts_live"

    private let stopped = Mutex(false)

    /// Starts listening on a thread of its own; `heard` is called once per batch of notifications.
    package init(conninfo: String, timeouts: PostgresTimeouts, heard: @escaping @Sendable () -> Void) {
        let thread = Thread { [self] in
            while !isStopped {
                do {
                    try listen(conninfo: conninfo, timeouts: timeouts, heard: heard)
                } catch {
                    // The database is away: the streams fall back on their look until it is back.
                }
                if !isStopped { Thread.sleep(forTimeInterval: 2) }
            }
        }
        thread.name = "hogwarts-live-listener"
        thread.start()
    }

    private var isStopped: Bool { stopped.withLock { $0 } }

    package func stop() {
        stopped.withLock { $0 = true }
    }

    /// One connection's life: LISTEN, then wait on its socket (a second at a time, to see a stop).
    private func listen(conninfo: String, timeouts: PostgresTimeouts, heard: @Sendable () -> Void) throws {
        let connection = try PostgresConnection(conninfo: conninfo, timeouts: timeouts)
        try connection.command("LISTEN \(Self.channel)", answerWithin: TimeInterval(timeouts.connect))
        // Anything committed while this connection was being made is read by the look that follows.
        heard()
        while !isStopped {
            var socket = pollfd(fd: PQsocket(connection.handle), events: Int16(POLLIN), revents: 0)
            let waited = poll(&socket, 1, 1000)
            if waited < 0 && errno != EINTR { throw KernelError.databaseUnavailable("PostgreSQL: the listener's connection failed") }
            guard waited > 0 else { continue }
            guard PQconsumeInput(connection.handle) == 1 else { throw KernelError.databaseUnavailable("PostgreSQL: the listener's connection closed") }
            var any = false
            while let notification = PQnotifies(connection.handle) {
                PQfreemem(notification)
                any = true
            }
            if any { heard() }
        }
    }
}
