import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO

/// PostgresNIO on one event loop thread, driven from the main thread (not an event loop thread)
/// through a synchronous bridge. Two ways of bridging:
/// - `futures`: the EventLoopFuture API and `wait()`; its queries are not named prepared
///   statements, so the server parses each row's statement again (one round trip, as libpq's).
/// - `prepared`: the async API with a named prepared statement (`PostgresPreparedStatement`),
///   each call a task the thread blocks on (`Blocking.run`): what an engine keeping statements
///   prepared, as the libpq engine does, would run.
final class NIODriver: DayDriver {
    enum Mode { case futures, prepared }

    let name: String
    private let mode: Mode
    private let group: MultiThreadedEventLoopGroup
    private let connection: PostgresConnection
    private let logger = Logger(label: "postgres-drivers")

    struct Upsert: PostgresPreparedStatement {
        typealias Row = ()
        static let sql = AttendanceDay.upsert
        let values: [String]

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: values.count)
            for value in values { bindings.append(value) }
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {}
    }

    init(url: String, schema: String, mode: Mode) throws {
        self.mode = mode
        name = mode == .futures ? "PostgresNIO, futures + wait()" : "PostgresNIO, prepared, async + blocking bridge"
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let configuration = try Self.configuration(url)
        do {
            connection = try PostgresConnection.connect(on: group.next(), configuration: configuration, id: 1, logger: logger).wait()
        } catch {
            try? group.syncShutdownGracefully()
            throw error
        }
        try command("SET search_path TO \(schema)")
    }

    /// host, port, user, password and database from a `postgres://` URL; no TLS (the cluster is on loopback, as for libpq's default `prefer` over it).
    static func configuration(_ url: String) throws -> PostgresConnection.Configuration {
        guard let components = URLParts(url) else { throw DriverError(description: "not a postgres:// URL: \(url)") }
        return PostgresConnection.Configuration(host: components.host, port: components.port, username: components.user,
                                                password: components.password, database: components.database, tls: .disable)
    }

    func close() {
        try? connection.close().wait()
        try? group.syncShutdownGracefully()
    }

    func command(_ sql: String) throws {
        switch mode {
        case .futures:
            _ = try connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).wait()
        case .prepared:
            let connection = connection, logger = logger
            try Blocking.run { _ = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger) }
        }
    }

    func upsert(_ parameters: [String]) throws {
        switch mode {
        case .futures:
            var bindings = PostgresBindings(capacity: parameters.count)
            for value in parameters { bindings.append(value) }
            _ = try connection.query(PostgresQuery(unsafeSQL: AttendanceDay.upsert, binds: bindings), logger: logger).wait()
        case .prepared:
            let connection = connection, logger = logger, statement = Upsert(values: parameters)
            try Blocking.run { _ = try await connection.execute(statement, logger: logger) }
        }
    }
}

/// The parts of `postgres://user:password@host:port/database` PostgresNIO's configuration takes.
struct URLParts {
    let user: String
    let password: String?
    let host: String
    let port: Int
    let database: String?

    init?(_ url: String) {
        guard let schemeEnd = url.range(of: "://"), url.hasPrefix("postgres") else { return nil }
        var rest = Substring(url[schemeEnd.upperBound...])
        if let query = rest.firstIndex(of: "?") { rest = rest[..<query] }
        var authority = rest
        var database: String?
        if let slash = rest.firstIndex(of: "/") {
            authority = rest[..<slash]
            let name = rest[rest.index(after: slash)...]
            database = name.isEmpty ? nil : String(name)
        }
        var hostPart = authority
        var user = "postgres"
        var password: String?
        if let at = authority.lastIndex(of: "@") {
            let credentials = authority[..<at]
            hostPart = authority[authority.index(after: at)...]
            if let colon = credentials.firstIndex(of: ":") {
                user = String(credentials[..<colon])
                password = String(credentials[credentials.index(after: colon)...]).removingPercentEncoding
            } else {
                user = String(credentials)
            }
        }
        var host = String(hostPart)
        var port = 5432
        if let colon = hostPart.lastIndex(of: ":"), let number = Int(hostPart[hostPart.index(after: colon)...]) {
            host = String(hostPart[..<colon])
            port = number
        }
        self.user = user
        self.password = password
        self.host = host.isEmpty ? "127.0.0.1" : host
        self.port = port
        self.database = database
    }
}
