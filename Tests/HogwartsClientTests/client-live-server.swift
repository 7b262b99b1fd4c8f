import Core
import Foundation
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
        try FuzzServer.ledger(of: clientID, in: databasePath)
    }

    /// `COUNT(*)` of a statement whose `?`s take `arguments`, read straight from the server's database.
    func count(_ sql: String, _ arguments: [String] = []) throws -> Int {
        try FuzzServer.count(sql, arguments, in: databasePath)
    }
}
