import Core
import Foundation
import HogwartsClient
import HogwartsSyncFuzz
import HogwartsTestSupport
import Testing

/// The network between a device and the real server (in-process), with one fault armed at a
/// time: the app dies before or after its request reached the server (it sends nothing more
/// until it is started again), or the server restarts with the request in it (no answer; the
/// device's retries reach the new server).
final class CrashNetwork: SyncTransport, @unchecked Sendable {
    enum Fault { case killBeforeSend, killAfterSend, restartAfterSend }
    struct Killed: Error {}

    private let lock = NSLock()
    private var server: any SyncTransport
    private let restart: @Sendable () throws -> any SyncTransport
    private var armed: (suffix: String, remaining: Int, fault: Fault)?
    private var dead = false
    private(set) var fired = 0

    init(_ server: any SyncTransport, restart: @escaping @Sendable () throws -> any SyncTransport) {
        self.server = server
        self.restart = restart
    }

    /// The `nth` request from now whose path ends with `suffix` meets `fault`.
    func arm(_ fault: Fault, on suffix: String, nth: Int = 1) { lock.withLock { armed = (suffix, nth, fault) } }
    /// The app is started again.
    func revive() { lock.withLock { dead = false } }
    var hasFired: Bool { lock.withLock { fired > 0 } }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let (target, fault): (any SyncTransport, Fault?) = try lock.withLock {
            if dead { throw Killed() }
            // The path carries the query (`/api/v1/sync/pull?clientId=…`): match the route alone.
            let route = request.path.prefix { $0 != "?" }
            guard var plan = armed, route.hasSuffix(plan.suffix) else { return (server, nil) }
            plan.remaining -= 1
            armed = plan.remaining == 0 ? nil : plan
            if plan.remaining > 0 { return (server, nil) }
            fired += 1
            if plan.fault != .restartAfterSend { dead = true }
            return (server, plan.fault)
        }
        switch fault {
        case nil: return try await target.send(request)
        case .killBeforeSend: throw Killed()
        case .killAfterSend:
            _ = try await target.send(request)
            throw Killed()
        case .restartAfterSend:
            _ = try await target.send(request)
            let restarted = try restart()
            lock.withLock { server = restarted }
            throw Killed()
        }
    }
}

/// §3.8 case 8 (a device killed at each point of a sync) and case 9 (the server restarted with a
/// push or a pull in it): the device converges, the ledger has each mutation once with no gap,
/// and no message exists twice.
@Suite("Sync crashes: the device killed mid-sync, the server restarted mid-request")
struct SyncCrashTests {
    struct Setup {
        let harness: TestHarness
        let network: CrashNetwork
        let store: ClientStore
        let conversation: String
    }

    /// The demo teacher signed in and synced on a calm network.
    static func setUp() async throws -> (Setup, SyncClient) {
        let harness = try demoServer()
        let path = harness.databasePath
        let network = CrashNetwork(RouterTransport(kernel: harness.kernel)) {
            RouterTransport(kernel: try Kernel(databasePath: path, modules: fuzzModules(), language: .en))
        }
        let store = try ClientStore(path: nil)
        let client = SyncClient(store: store, transport: network, clock: TestClock(), pullLimit: 2)
        try await client.signIn(identifier: "teacher@databayt.org", password: "1234")
        try await client.sync()
        // A conversation the teacher may write to (some in the demo are not): found by another device.
        let probe = SyncClient(store: try ClientStore(path: nil), transport: RouterTransport(kernel: harness.kernel), clock: TestClock())
        try await probe.signIn(identifier: "teacher@databayt.org", password: "1234")
        try await probe.sync()
        var writable: String?
        for candidate in try await probe.entities("conversation").map(\.id).sorted() where writable == nil {
            try await probe.enqueue(name: "messages.send@1", args: ["conversation": .string(candidate), "body": "probe", "clientId": .string(UUID().uuidString.lowercased())])
            if try await probe.sync().rejected.isEmpty { writable = candidate }
        }
        let conversation = try #require(writable)
        return (Setup(harness: harness, network: network, store: store, conversation: conversation), client)
    }

    /// The app started again on the same store: nothing in memory survives.
    static func restarted(_ setup: Setup) -> SyncClient {
        setup.network.revive()
        return SyncClient(store: setup.store, transport: setup.network, clock: TestClock(), pullLimit: 2)
    }

    @discardableResult
    static func send(_ client: SyncClient, _ setup: Setup, _ text: String) async throws -> String {
        let id = UUID().uuidString.lowercased()
        try await client.enqueue(name: "messages.send@1", args: ["conversation": .string(setup.conversation), "body": .string(text), "clientId": .string(id)], id: id)
        return id
    }

    /// Converged: nothing queued or failed, each message once on the server, the ledger 1...n
    /// applied once each, and the replica equal to a fresh device's view.
    static func expectConverged(_ client: SyncClient, _ setup: Setup, messages: [String]) async throws {
        let report = try await client.sync()
        #expect(report.pending == 0 && report.waiting == nil)
        let outbox = try await client.outbox()
        let failed = try await client.failed()
        #expect(outbox.isEmpty && failed.isEmpty)
        let ledger = try setup.harness.ledger(of: try await client.clientID())
        #expect(ledger.map(\.seq) == messages.indices.map { Int64($0 + 1) }, "no gap, no duplicate")
        #expect(ledger.allSatisfy { $0.status == "applied" })
        for id in messages {
            #expect(try setup.harness.count("SELECT COUNT(*) FROM messages_messages WHERE client_id = ?", [id]) == 1, "message \(id) once")
        }
        let witness = SyncClient(store: try ClientStore(path: nil), transport: RouterTransport(kernel: setup.harness.kernel), clock: TestClock())
        try await witness.signIn(identifier: "teacher@databayt.org", password: "1234")
        try await witness.sync()
        #expect(try await client.serverView() == witness.serverView(), "the replica equals the server's view")
        #expect(try await client.entities("message").allSatisfy { !$0.pending })
    }

    @Test("killed after enqueue, before any send: the next launch sends it once")
    func killedAfterEnqueue() async throws {
        let (setup, client) = try await Self.setUp()
        setup.network.arm(.killBeforeSend, on: "/sync/push")
        let id = try await Self.send(client, setup, "before the send")
        _ = try? await client.sync()
        #expect(setup.network.hasFired)
        #expect(try setup.harness.count("SELECT COUNT(*) FROM messages_messages WHERE client_id = ?", [id]) == 0)
        try await Self.expectConverged(Self.restarted(setup), setup, messages: [id])
    }

    @Test("killed after the push reached the server, before its answer: the resend is a duplicate, applied once")
    func killedAfterSend() async throws {
        let (setup, client) = try await Self.setUp()
        let first = try await Self.send(client, setup, "one")
        let second = try await Self.send(client, setup, "two")
        setup.network.arm(.killAfterSend, on: "/sync/push")
        _ = try? await client.sync()
        #expect(try setup.harness.count("SELECT COUNT(*) FROM messages_messages WHERE client_id IN (?, ?)", [first, second]) == 2, "the server applied both")
        #expect(try await client.outbox().count == 2, "the device does not know yet")
        try await Self.expectConverged(Self.restarted(setup), setup, messages: [first, second])
    }

    @Test("killed after the server answered, before the device recorded the answer; then more written offline")
    func killedAfterResponse() async throws {
        let (setup, client) = try await Self.setUp()
        let first = try await Self.send(client, setup, "answered")
        // The answer leaves the server and the app dies before its local transaction commits:
        // for the device nothing happened, for the server the seq is done.
        setup.network.arm(.killAfterSend, on: "/sync/push")
        _ = try? await client.sync()
        let device = Self.restarted(setup)
        let second = try await Self.send(device, setup, "after the restart")
        try await Self.expectConverged(device, setup, messages: [first, second])
    }

    @Test("killed mid-pull, after the first page was applied: the next launch pulls on from its cursor, nothing missed")
    func killedMidPull() async throws {
        let (setup, client) = try await Self.setUp()
        // Another device of the same teacher writes five messages the first one has not seen.
        let other = SyncClient(store: try ClientStore(path: nil), transport: RouterTransport(kernel: setup.harness.kernel), clock: TestClock())
        try await other.signIn(identifier: "teacher@databayt.org", password: "1234")
        for index in 0..<5 { try await Self.send(other, setup, "other \(index)") }
        try await other.sync()
        setup.network.arm(.killAfterSend, on: "/sync/pull", nth: 2)
        _ = try? await client.pull()
        #expect(setup.network.hasFired)
        try await Self.expectConverged(Self.restarted(setup), setup, messages: [])
    }

    @Test("the server restarts with a push in it: the retry reaches the new server, no gap and no duplicate in the ledger")
    func serverRestartMidPush() async throws {
        let (setup, client) = try await Self.setUp()
        var ids: [String] = []
        for index in 0..<3 { ids.append(try await Self.send(client, setup, "restart \(index)")) }
        setup.network.arm(.restartAfterSend, on: "/sync/push")
        let report = try await client.sync()
        #expect(setup.network.hasFired && report.pending == 0)
        ids.append(try await Self.send(client, setup, "after the restart"))
        try await Self.expectConverged(client, setup, messages: ids)
    }

    @Test("the server restarts with a pull in it: the device pulls on from the new server, nothing missed")
    func serverRestartMidPull() async throws {
        let (setup, client) = try await Self.setUp()
        let other = SyncClient(store: try ClientStore(path: nil), transport: RouterTransport(kernel: setup.harness.kernel), clock: TestClock())
        try await other.signIn(identifier: "teacher@databayt.org", password: "1234")
        for index in 0..<5 { try await Self.send(other, setup, "other \(index)") }
        try await other.sync()
        setup.network.arm(.restartAfterSend, on: "/sync/pull", nth: 2)
        // The page in the old server is lost (a pull is not retried by itself); the next pull
        // starts from the cursor of the last page applied, on the new server.
        _ = try? await client.pull()
        #expect(setup.network.hasFired)
        try await client.pull()
        try await Self.expectConverged(client, setup, messages: [])
    }
}
