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
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: databasePath, configuration: configuration)
        return try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT mutation_seq, mutation_id, status FROM kernel_sync_mutations WHERE client_id = ? ORDER BY mutation_seq",
                             arguments: [clientID]).map { ($0["mutation_seq"], $0["mutation_id"], $0["status"]) }
        }
    }

    /// Rows of a table matching a condition, read straight from the server's database.
    func count(_ sql: String, _ arguments: StatementArguments = []) throws -> Int {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: databasePath, configuration: configuration)
        return try queue.read { db in try Int.fetchOne(db, sql: sql, arguments: arguments) ?? 0 }
    }
}
