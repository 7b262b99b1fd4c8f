import Foundation
import HogwartsSyncFuzz

/// `hogwarts-bench --sync-fuzz [--clients 20] [--mutations 10000] [--seed S]`: the sync fuzz at
/// full size (the client tests run it small in CI). Prints the seed first, so a failing run can be
/// repeated, then the outcome and its time; a failure exits non-zero.
enum SyncFuzzBench {
    struct Failed: Error, CustomStringConvertible {
        let seed: UInt64
        let failures: [String]
        var description: String {
            "sync fuzz failed (repeat with --seed \(seed)): \(failures.count) findings\n" + failures.prefix(20).joined(separator: "\n")
        }
    }

    /// Carries the async run's result back to the synchronous command.
    private final class Box: @unchecked Sendable {
        var result: Result<SyncFuzz.Outcome, any Error> = .failure(CancellationError())
    }

    static func run(clients: Int, mutations: Int, seed: UInt64?) throws {
        let seed = seed ?? SyncFuzz.Configuration.randomSeed()
        var configuration = SyncFuzz.Configuration.full(seed: seed)
        configuration.clients = clients
        configuration.mutations = mutations
        configuration.rounds = max(1, min(10, mutations / max(1, clients)))
        print("sync fuzz: seed \(seed), \(clients) clients, \(mutations) mutations, \(configuration.rounds) rounds")
        // Out now, not when the buffer fills: a run stopped by hand must still leave its seed.
        fflush(nil)
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do { box.result = .success(try await SyncFuzz.run(configuration)) } catch { box.result = .failure(error) }
            done.signal()
        }
        done.wait()
        let outcome = try box.result.get()
        let faults = outcome.faults.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        print(String(format: "sync fuzz: %@ in %.1f s; %d mutations acknowledged (%d rejected by the server's rules); faults: %@",
                     outcome.failures.isEmpty ? "passed" : "FAILED", outcome.seconds, outcome.acknowledged, outcome.rejected, faults))
        guard outcome.failures.isEmpty else { throw Failed(seed: seed, failures: outcome.failures) }
    }
}
