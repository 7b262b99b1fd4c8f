import Core
import Foundation
import HogwartsClient
import HogwartsTestSupport
import Testing

/// The model-based fuzz test (§3.8 case 12): N clients queue M mutations through a nemesis while
/// the server restarts between rounds; after draining, every acknowledged mutation was applied
/// exactly once, in each client's order, and every replica equals the server's view.
///
/// `HOGWARTS_SYNC_FUZZ=full swift test --filter SyncFuzz` runs the full configuration (20
/// clients, 10,000 mutations); `HOGWARTS_SYNC_FUZZ_SEED=n` repeats a run.
@Suite("SyncFuzz: clients, a nemesis and server restarts")
struct SyncFuzzTests {
    struct Configuration {
        var clients: Int
        var mutations: Int
        var rounds: Int
        var seed: UInt64

        static var fromEnvironment: Configuration {
            let environment = ProcessInfo.processInfo.environment
            let seed = environment["HOGWARTS_SYNC_FUZZ_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1...UInt64(UInt32.max))
            return environment["HOGWARTS_SYNC_FUZZ"] == "full"
                ? Configuration(clients: 20, mutations: 10_000, rounds: 10, seed: seed)
                : Configuration(clients: 3, mutations: 120, rounds: 3, seed: seed)
        }
    }

    /// One fuzzed device: its store outlives restarts of the app (a new SyncClient on it).
    final class Device: @unchecked Sendable {
        let store: ClientStore
        let nemesis: Nemesis
        var client: SyncClient
        /// What this device queued, in order: (seq, mutation id, name, client id of a message).
        var queued: [(seq: Int64, id: String, name: String, messageID: String?)] = []

        init(slot: ServerSlot, seed: UInt64) throws {
            store = try ClientStore(path: nil)
            nemesis = Nemesis(slot: slot, seed: seed)
            client = SyncClient(store: store, transport: nemesis, clock: TestClock())
        }

        /// The app is killed and started again: nothing in memory survives, the store does.
        func restartApp() {
            client = SyncClient(store: store, transport: nemesis, clock: TestClock())
        }
    }

    @Test("every acknowledged mutation once, in order; replicas equal the server's view")
    func fuzz() async throws {
        let configuration = Configuration.fromEnvironment
        print("SyncFuzz seed \(configuration.seed) (repeat with HOGWARTS_SYNC_FUZZ_SEED=\(configuration.seed)); clients \(configuration.clients), mutations \(configuration.mutations)")
        let harness = try demoServer()
        let slot = ServerSlot()
        var random = SeededRandom(seed: configuration.seed)
        let devices = try (0..<configuration.clients).map { index in try Device(slot: slot, seed: configuration.seed &+ UInt64(index) &* 7919) }
        let perRound = (configuration.mutations + configuration.rounds - 1) / configuration.rounds
        var drawn: [(device: Int, draw: UInt64)] = []
        for _ in 0..<configuration.mutations { drawn.append((Int(random.next() % UInt64(configuration.clients)), random.next())) }
        let plan = drawn

        for round in 0..<configuration.rounds {
            // A server restart: a new kernel and router on the same database file.
            let kernel = round == 0 ? harness.kernel : try Kernel(databasePath: harness.databasePath, modules: fuzzModules(), language: .en)
            try await serve(kernel) { transport in
                slot.current = transport
                defer { slot.current = nil }
                if round == 0 {
                    // Signed in and a first copy taken on a calm network; the storm starts after.
                    for device in devices {
                        device.nemesis.quiet()
                        _ = try await device.client.signIn(identifier: "teacher@databayt.org", password: "1234")
                        try await Self.drain(device)
                        device.nemesis.quiet(false)
                    }
                }
                let slice = plan[min(round * perRound, plan.count)..<min((round + 1) * perRound, plan.count)]
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for (index, device) in devices.enumerated() {
                        let draws = slice.filter { $0.device == index }.map(\.draw)
                        group.addTask { try await Self.work(device, draws: draws) }
                    }
                    try await group.waitForAll()
                }
            }
            // Between rounds the server is down: devices keep writing offline.
            for device in devices { try await Self.enqueueOne(device, draw: random.next()) }
        }

        // Quiesce and drain on a calm network.
        try await serve(try Kernel(databasePath: harness.databasePath, modules: fuzzModules(), language: .en)) { transport in
            slot.current = transport
            defer { slot.current = nil }
            for device in devices {
                device.nemesis.quiet()
                try await Self.drain(device)
            }
            // Every device is the same teacher: the ones drained first pull what the later ones sent.
            for device in devices { try await device.client.pull() }
            let witness = SyncClient(store: try ClientStore(path: nil), transport: transport, clock: TestClock())
            try await witness.signIn(identifier: "teacher@databayt.org", password: "1234")
            try await witness.sync()
            let truth = try await witness.serverView()
            for (index, device) in devices.enumerated() {
                try await Self.check(device, index: index, truth: truth, harness: harness, seed: configuration.seed)
            }
        }
        let faults = devices.reduce(into: [String: Int]()) { total, device in total.merge(device.nemesis.faults, uniquingKeysWith: +) }
        print("SyncFuzz seed \(configuration.seed): faults \(faults.sorted { $0.key < $1.key })")
    }

    static func work(_ device: Device, draws: [UInt64]) async throws {
        for draw in draws {
            try await enqueueOne(device, draw: draw)
            switch draw % 10 {
            case 0: device.restartApp()
            case 1, 2, 3: _ = try? await device.client.sync()
            case 4: _ = try? await device.client.pull()
            default: break
            }
        }
        _ = try? await device.client.sync()
    }

    /// One mutation: mostly messages (exactly-once is countable), registers, and some the server refuses.
    static func enqueueOne(_ device: Device, draw: UInt64) async throws {
        let client = device.client
        let conversations = try await client.entities("conversation").map(\.id).sorted()
        let classes = try await client.entities("class").filter { $0.data["code"] != nil }.sorted { $0.id < $1.id }
        let kind = (draw >> 8) % 10
        let id = UUID().uuidString.lowercased()
        let seq: Int64
        var messageID: String?
        let name: String
        if kind < 6, !conversations.isEmpty {
            name = "messages.send@1"
            messageID = id
            seq = try await client.enqueue(name: name, args: ["conversation": .string(conversations[Int(draw >> 16) % conversations.count]),
                                                              "body": .string("fuzz \(draw)"), "clientId": .string(id)], id: id)
        } else if kind < 9, !classes.isEmpty {
            name = "attendance.take@1"
            let schoolClass = classes[Int(draw >> 16) % classes.count]
            let day = 10 + Int((draw >> 24) % 10)
            seq = try await client.enqueue(name: name, args: ["classCode": schoolClass.data["code"] ?? .null, "date": .string("2026-11-\(day)"),
                                                              "defaultStatus": (draw >> 32) % 2 == 0 ? "PRESENT" : "LATE"], id: id)
        } else {
            name = "messages.send@1"
            messageID = id
            seq = try await client.enqueue(name: name, args: ["conversation": "no-such-conversation", "body": "refused", "clientId": .string(id)], id: id)
        }
        device.queued.append((seq, id, name, messageID))
    }

    static func drain(_ device: Device) async throws {
        for _ in 0..<20 {
            let report = try await device.client.sync()
            if report.pending == 0 && report.waiting == nil && report.pullError == nil { return }
        }
    }

    static func check(_ device: Device, index: Int, truth: [String: JSONValue], harness: TestHarness, seed: UInt64) async throws {
        let client = device.client
        let clientID = try await client.clientID()
        let context = "seed \(seed), device \(index)"
        #expect(try await client.outbox().isEmpty, "drained (\(context))")
        let ledger = try harness.ledger(of: clientID)
        // Each acknowledged mutation once, in the order the device queued them.
        #expect(ledger.map(\.seq) == device.queued.map(\.seq), "ledger seqs (\(context))")
        #expect(ledger.map(\.id) == device.queued.map(\.id), "ledger ids in queue order (\(context))")
        let statuses = Dictionary(uniqueKeysWithValues: ledger.map { ($0.seq, $0.status) })
        for mutation in device.queued {
            guard let messageID = mutation.messageID else { continue }
            let copies = try harness.count("SELECT COUNT(*) FROM messages_messages WHERE client_id = ?", [messageID])
            #expect(copies == (statuses[mutation.seq] == "applied" ? 1 : 0), "message \(mutation.seq) copies \(copies) (\(context))")
        }
        let failed = try await client.failed().map(\.seq)
        #expect(failed.allSatisfy { statuses[$0] == "rejected" }, "failed are the server's rejections (\(context))")
        #expect(try await client.serverView() == truth, "replica equals the server's view (\(context))")
        #expect(try await client.entities("message").allSatisfy { !$0.pending }, "nothing left optimistic (\(context))")
    }
}
