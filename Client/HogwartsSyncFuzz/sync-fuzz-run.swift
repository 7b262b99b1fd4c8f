import Foundation
import HogwartsClient

/// The model-based fuzz of the sync protocol (§3.8 case 12), shared by the test target (a small
/// configuration in CI) and `hogwarts-bench --sync-fuzz` (the full one).
///
/// Devices of several users and scopes (two teachers of different classes, a guardian, a student,
/// the admin, staff) queue mutations through a nemesis; each round one device is cut off while the
/// others write, apps are killed mid-push and mid-pull, and the server restarts between rounds and
/// once during each round, with requests in it. After draining on a calm network, every
/// acknowledged mutation was applied exactly once, each device's order was kept, and every replica
/// equals the server's view of its user's scope.
public enum SyncFuzz {
    public struct Configuration: Sendable {
        public var clients: Int
        public var mutations: Int
        public var rounds: Int
        public var seed: UInt64

        public init(clients: Int, mutations: Int, rounds: Int, seed: UInt64) {
            self.clients = clients
            self.mutations = mutations
            self.rounds = rounds
            self.seed = seed
        }

        public static func full(seed: UInt64) -> Configuration { Configuration(clients: 20, mutations: 10_000, rounds: 10, seed: seed) }
        public static func ci(seed: UInt64) -> Configuration { Configuration(clients: 6, mutations: 120, rounds: 3, seed: seed) }
        public static func randomSeed() -> UInt64 { UInt64.random(in: 1...UInt64(UInt32.max)) }
    }

    /// What a run found: an empty `failures` is a pass.
    public struct Outcome: Sendable {
        public var failures: [String] = []
        public var faults: [String: Int] = [:]
        public var acknowledged = 0
        public var rejected = 0
        public var seconds = 0.0
    }

    /// The demo accounts the devices sign in as, in turn: each sees a different scope.
    public static let accounts = ["teacher@databayt.org", "teacher2@databayt.org", "parent@databayt.org", "student@databayt.org",
                                  "admin@databayt.org", "staff@databayt.org"]

    public static func run(_ configuration: Configuration) async throws -> Outcome {
        let start = Date()
        let server = try FuzzServer()
        let slot = ServerSlot()
        var random = SeededRandom(seed: configuration.seed)
        let devices = try (0..<configuration.clients).map { index in
            try FuzzDevice(account: accounts[index % accounts.count], slot: slot, seed: configuration.seed &+ UInt64(index) &* 7919)
        }
        let perRound = (configuration.mutations + configuration.rounds - 1) / configuration.rounds
        var plan: [(device: Int, draw: UInt64)] = []
        for _ in 0..<configuration.mutations { plan.append((Int(random.next() % UInt64(configuration.clients)), random.next())) }

        for round in 0..<configuration.rounds {
            slot.current = try server.start()
            if round == 0 {
                // Signed in and a first copy taken on a calm network; the storm starts after.
                for device in devices {
                    device.nemesis.quiet()
                    try await signIn(device.client, device.account, school: server.schoolID)
                    try await device.drain()
                    device.nemesis.quiet(false)
                }
            }
            // One device is cut off for the round while the others write.
            let cut = devices[round % devices.count]
            cut.nemesis.partition()
            let slice = plan[min(round * perRound, plan.count)..<min((round + 1) * perRound, plan.count)]
            let restartAfter = 1_000_000 + random.next() % 50_000_000
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, device) in devices.enumerated() {
                    let draws = slice.filter { $0.device == index }.map(\.draw)
                    group.addTask { try await device.work(draws) }
                }
                // The server restarts mid-round: requests in the old one get no answer.
                group.addTask {
                    try await Task.sleep(nanoseconds: restartAfter)
                    slot.current = try server.start()
                }
                try await group.waitForAll()
            }
            cut.nemesis.partition(false)
            // Between rounds the server is down: devices keep writing offline.
            slot.current = nil
            for device in devices { try await device.enqueueOne(random.next()) }
        }

        // Quiesce and drain on a calm network.
        slot.current = try server.start()
        var outcome = Outcome()
        for device in devices {
            device.nemesis.quiet()
            try await device.drain()
        }
        // Later drains wrote into earlier devices' scopes: every device pulls once more.
        for device in devices { try await device.client.pull() }
        var truths: [String: [String: JSONValue]] = [:]
        for account in Set(devices.map(\.account)) {
            guard let transport = slot.current else { break }
            let witness = SyncClient(store: try ClientStore(path: nil), transport: transport, clock: FuzzClock())
            try await signIn(witness, account, school: server.schoolID)
            try await witness.sync()
            truths[account] = try await witness.serverView()
        }
        for (index, device) in devices.enumerated() {
            let found = try await device.check(truth: truths[device.account] ?? [:], server: server)
            outcome.failures += found.map { "seed \(configuration.seed), device \(index) (\(device.account)): \($0)" }
            let statuses = try server.ledger(of: try await device.client.clientID()).map(\.status)
            outcome.acknowledged += statuses.count
            outcome.rejected += statuses.filter { $0 == "rejected" }.count
        }
        outcome.faults = devices.reduce(into: [String: Int]()) { total, device in total.merge(device.nemesis.faults, uniquingKeysWith: +) }
        outcome.seconds = Date().timeIntervalSince(start)
        return outcome
    }
}

extension SyncFuzz {
    /// Signs in, waiting out the server's sign-in throttle: several devices share each account.
    static func signIn(_ client: SyncClient, _ account: String, school: String) async throws {
        for attempt in 1...30 {
            do {
                _ = try await client.signIn(identifier: account, password: "1234", schoolID: school)
                return
            } catch ClientError.signInRefused where attempt < 30 {
                // The password is right: the refusal is the throttle (`kernel.api.too-many-requests`).
                try await Task.sleep(nanoseconds: 5_000_000_000)
            }
        }
    }
}

/// Time for the fuzzed clients: retry waits pass at once.
final class FuzzClock: SyncClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current = Date()
    func now() -> Date { lock.withLock { current } }
    func sleep(seconds: Double) async throws {
        lock.withLock { current = current.addingTimeInterval(seconds) }
        await Task.yield()
    }
}
