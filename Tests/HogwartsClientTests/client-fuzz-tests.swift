import Foundation
import HogwartsSyncFuzz
import HogwartsTestSupport
import Testing

/// The model-based fuzz test (§3.8 case 12), in its CI size: devices of six users and scopes,
/// a nemesis, a partition each round, apps killed mid-sync, the server restarted between rounds
/// and mid-round. The model lives in `HogwartsSyncFuzz`; `hogwarts-bench --sync-fuzz` runs it at
/// full size (20 clients, 10,000 mutations). `HOGWARTS_SYNC_FUZZ_SEED=n` repeats a run.
@Suite("SyncFuzz: clients of several scopes, a nemesis, partitions, kills and server restarts")
struct SyncFuzzTests {
    @Test("every acknowledged mutation once, in order; every replica equals the server's view of its scope")
    func fuzz() async throws {
        let environment = ProcessInfo.processInfo.environment
        let seed = environment["HOGWARTS_SYNC_FUZZ_SEED"].flatMap(UInt64.init) ?? SyncFuzz.Configuration.randomSeed()
        var configuration = SyncFuzz.Configuration.ci(seed: seed)
        // With HOGWARTS_TEST_DATABASE=postgres://... the fuzz's server runs there too.
        let folder = FileManager.default.temporaryDirectory.appending(path: "hogwarts-fuzz-\(UUID().uuidString)")
        if TestDatabase.isPostgres { configuration.database = try TestDatabase.fresh(in: folder) }
        defer { if let database = configuration.database { TestDatabase.drop(database) } }
        print("SyncFuzz seed \(seed) (repeat with HOGWARTS_SYNC_FUZZ_SEED=\(seed)); clients \(configuration.clients), mutations \(configuration.mutations)")
        let outcome = try await SyncFuzz.run(configuration)
        print("SyncFuzz seed \(seed): \(outcome.acknowledged) acknowledged (\(outcome.rejected) rejected), faults \(outcome.faults.sorted { $0.key < $1.key })")
        #expect(outcome.failures.isEmpty, "seed \(seed): \(outcome.failures.prefix(10).joined(separator: "; "))")
        #expect(outcome.faults["restart-mid-request", default: 0] + outcome.faults["partitioned", default: 0] > 0, "the nemesis did something")
    }
}
