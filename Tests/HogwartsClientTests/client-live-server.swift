import Core
import Foundation
import GRDB
import HogwartsClient
import HogwartsSyncFuzz
import HogwartsTestSupport

func fuzzModules() -> [any AppModule] { FuzzServer.modules() }

/// Runs `body` with a transport to a freshly started API server over `kernel` (no socket): the
/// router `hogwarts serve` runs, as the fuzz reaches it.
func serve(_ kernel: Kernel, _ body: @escaping @Sendable (any SyncTransport) async throws -> Void) async throws {
    try await body(RouterTransport(kernel: kernel))
}

/// A network that can be cut: down, every request fails before reaching the server.
final class NetworkSwitch: @unchecked Sendable {
    private let lock = NSLock()
    private var down = false
    var isDown: Bool {
        get { lock.withLock { down } }
        set { lock.withLock { down = newValue } }
    }
}

struct SwitchedTransport: SyncTransport {
    let inner: any SyncTransport
    let network: NetworkSwitch
    struct Unreachable: Error {}

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        if network.isDown { throw Unreachable() }
        return try await inner.send(request)
    }
}

/// The demo schools on a fresh database with every module that shares data with offline apps.
func demoServer() throws -> TestHarness {
    try TestHarness.withDemo(modules: fuzzModules()).0
}

extension TestHarness {
    /// The server's sync ledger for one client: (seq, mutation id, status), in seq order.
    func ledger(of clientID: String) throws -> [(seq: Int64, id: String, status: String)] {
        try serverStrings("""
            SELECT CAST(mutation_seq AS TEXT) || '|' || mutation_id || '|' || status FROM kernel_sync_mutations
            WHERE client_id = \(Self.quoted(clientID)) ORDER BY mutation_seq
            """).map { line in
            let parts = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            return (Int64(parts[0]) ?? -1, parts.count > 1 ? parts[1] : "", parts.count > 2 ? parts[2] : "")
        }
    }

    /// `COUNT(*)` of a statement whose `?`s take `arguments` (ids and dates), read straight from
    /// the server's database.
    func count(_ sql: String, _ arguments: [String] = []) throws -> Int {
        var text = ""
        var remaining = arguments.makeIterator()
        for character in sql {
            if character == "?", let argument = remaining.next() { text += Self.quoted(argument) } else { text.append(character) }
        }
        return try serverStrings("SELECT CAST((\(text)) AS TEXT)").first.flatMap { Int($0) } ?? 0
    }

    /// The first column of each row, as text, from the server's database: its file, or its
    /// schema with `HOGWARTS_TEST_DATABASE=postgres://...`.
    private func serverStrings(_ sql: String) throws -> [String] {
        if TestDatabase.isPostgres { return try PostgresScratch.strings(sql, in: databasePath) }
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: databasePath, configuration: configuration)
        return try queue.read { db in try String.fetchAll(db, sql: sql) }
    }

    private static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }
}
