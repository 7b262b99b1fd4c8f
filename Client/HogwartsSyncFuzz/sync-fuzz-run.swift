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
        /// Told where the run is (each phase and round, and every `heartbeat` seconds within a
        /// round); nil says nothing.
        public var progress: (@Sendable (String) -> Void)?
        public var heartbeat: UInt64 = 30
        /// The server's database: a PostgreSQL URL (an empty schema the caller made and drops),
        /// or nil for a SQLite file of the run's own.
        public var database: String?

        public init(clients: Int, mutations: Int, rounds: Int, seed: UInt64, progress: (@Sendable (String) -> Void)? = nil) {
            self.clients = clients
            self.mutations = mutations
            self.rounds = rounds
            self.seed = seed
            self.progress = progress
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
        /// Mutations in a ledger twice or messages stored twice: any is also a failure.
        public var duplicates = 0
        /// Replicas compared with a fresh snapshot of their user's scope, and their entities.
        public var replicasCompared = 0
        public var entitiesCompared = 0
        /// Pushes sent through the nemesis and their bytes.
        public var pushes = 0
        public var pushBytes = 0
        /// The server's refusals by error code (the rules working, not failures).
        public var rejections: [String: Int] = [:]
        public var seconds = 0.0
    }

    /// The demo accounts the devices sign in as, in turn: each sees a different scope.
    public static let accounts = ["teacher@databayt.org", "teacher2@databayt.org", "parent@databayt.org", "student@databayt.org",
                                  "admin@databayt.org", "staff@databayt.org"]

    public static func run(_ configuration: Configuration) async throws -> Outcome {
        let start = Date()
        let progress = FuzzProgress(configuration.progress)
        let elapsed: @Sendable () -> String = { String(format: "%.0f s", Date().timeIntervalSince(start)) }
        let server = try FuzzServer(database: configuration.database)
        progress.say("setup: demo schools created (\(elapsed()))")
        let slot = ServerSlot()
        var random = SeededRandom(seed: configuration.seed)
        let devices = try (0..<configuration.clients).map { index in
            try FuzzDevice(account: accounts[index % accounts.count], slot: slot, seed: configuration.seed &+ UInt64(index) &* 7919,
                           address: "10.0.\(index / 200).\(index % 200 + 1)", progress: progress)
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
                progress.say("setup: \(devices.count) devices signed in and holding a snapshot (\(elapsed()))")
            }
            // One device is cut off for the round while the others write.
            let cutIndex = round % devices.count
            let cut = devices[cutIndex]
            cut.nemesis.partition()
            let slice = plan[min(round * perRound, plan.count)..<min((round + 1) * perRound, plan.count)]
            let restartAfter = 1_000_000 + random.next() % 50_000_000
            let label = "round \(round + 1)/\(configuration.rounds)"
            progress.say("\(label): \(slice.count) mutations, device \(cutIndex) cut off, the server restarts after \(restartAfter / 1_000_000) ms (\(elapsed()))")
            let heartbeat = progress.heartbeat(every: configuration.heartbeat) { queued, syncs in
                "\(label): \(queued) mutations queued by all devices so far, \(syncs) syncs started (\(elapsed()))"
            }
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
            heartbeat?.cancel()
            cut.nemesis.partition(false)
            // Between rounds the server is down: devices keep writing offline.
            slot.current = nil
            for device in devices { try await device.enqueueOne(random.next()) }
            if progress.isOn {
                let (queued, syncs) = progress.counts
                let ledger = try server.count("SELECT COUNT(*) FROM kernel_sync_mutations")
                progress.say("\(label) done: \(queued) mutations queued in all, \(syncs) syncs, \(ledger) in the server's ledger (\(elapsed()))")
            }
        }

        // Quiesce and drain on a calm network.
        slot.current = try server.start()
        var outcome = Outcome()
        for device in devices {
            device.nemesis.quiet()
            try await device.drain()
        }
        progress.say("drain: every outbox sent on a calm network (\(elapsed()))")
        // Later drains wrote into earlier devices' scopes: every device pulls once more.
        for device in devices { try await device.client.pull() }
        progress.say("drain: every device pulled once more (\(elapsed()))")
        // Account by account: a fresh snapshot of the user's scope, then every device of that user
        // compared with it (an admin's scope is the whole school: one held at a time, not six).
        let copies = try server.messageCopies()
        for (accountIndex, account) in accounts.enumerated() where devices.contains(where: { $0.account == account }) {
            guard let transport = slot.current?.from("10.1.0.\(accountIndex + 1)") else { break }
            let witness = SyncClient(store: try ClientStore(path: nil), transport: transport, clock: FuzzClock())
            try await signIn(witness, account, school: server.schoolID)
            try await witness.sync()
            let truth = try await witness.serverView()
            for (index, device) in devices.enumerated() where device.account == account {
                let found = try await device.check(truth: truth, server: server, copies: copies)
                outcome.failures += found.failures.map { "seed \(configuration.seed), device \(index) (\(device.account)): \($0)" }
                outcome.acknowledged += found.acknowledged
                outcome.rejected += found.rejected
                outcome.duplicates += found.duplicates
                outcome.replicasCompared += 1
                outcome.entitiesCompared += found.entitiesCompared
            }
            progress.say("check: \(account)'s devices compared with a fresh snapshot of their scope (\(truth.count) entities) (\(elapsed()))")
        }
        outcome.rejections = try server.rejections()
        progress.say("check: \(outcome.replicasCompared) replicas compared, \(outcome.failures.count) findings (\(elapsed()))")
        outcome.faults = devices.reduce(into: [String: Int]()) { total, device in total.merge(device.nemesis.faults, uniquingKeysWith: +) }
        for device in devices {
            let pushes = device.nemesis.pushes
            outcome.pushes += pushes.count
            outcome.pushBytes += pushes.bytes
        }
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
