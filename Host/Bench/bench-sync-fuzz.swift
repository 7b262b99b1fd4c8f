import Foundation
import HogwartsSyncFuzz

/// `hogwarts-bench --sync-fuzz [--clients 20] [--mutations 10000] [--seed S]`: the sync fuzz at
/// full size (the client tests run it small in CI). Prints the seed first, so a failing run can be
/// repeated, then where the run is (each phase and round, a heartbeat within a round, with the
/// process's memory), then a summary; a failure exits non-zero.
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
        // stdout is often a pipe or a file (a long run in the background): every line goes out at once.
        configuration.progress = { line in say("sync fuzz: \(line); \(FuzzMemory.describe())") }
        say("sync fuzz: seed \(seed), \(clients) clients, \(mutations) mutations, \(configuration.rounds) rounds (repeat with --seed \(seed))")
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do { box.result = .success(try await SyncFuzz.run(configuration)) } catch { box.result = .failure(error) }
            done.signal()
        }
        done.wait()
        let outcome: SyncFuzz.Outcome
        do {
            outcome = try box.result.get()
        } catch {
            say("sync fuzz: stopped by an error (repeat with --seed \(seed)): \(error)")
            throw error
        }
        let faults = outcome.faults.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        let refusals = outcome.rejections.sorted { $0.value > $1.value }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        say(String(format: "sync fuzz: %@ in %.1f s (seed %llu); %d mutations acknowledged (%d rejected by the server's rules), %d duplicates; "
                + "%d replicas compared with their scope's snapshot (%d entities); %d pushes (%.1f MB); peak RSS %@; faults: %@; refusals: %@",
                     outcome.failures.isEmpty ? "passed" : "FAILED", outcome.seconds, seed, outcome.acknowledged, outcome.rejected, outcome.duplicates,
                     outcome.replicasCompared, outcome.entitiesCompared, outcome.pushes, Double(outcome.pushBytes) / 1_048_576,
                     FuzzMemory.megabytes(FuzzMemory.peakKilobytes()), faults, refusals))
        guard outcome.failures.isEmpty else { throw Failed(seed: seed, failures: outcome.failures) }
    }

    private static func say(_ line: String) {
        print(line)
        fflush(nil)
    }
}

/// The process's memory from /proc (Linux); "?" elsewhere.
enum FuzzMemory {
    static func describe() -> String { "RSS \(megabytes(kilobytes("VmRSS:"))), peak \(megabytes(peakKilobytes()))" }

    static func peakKilobytes() -> Int? { kilobytes("VmHWM:") }

    static func megabytes(_ kilobytes: Int?) -> String { kilobytes.map { "\($0 / 1024) MB" } ?? "?" }

    private static func kilobytes(_ field: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        let line = status.split(separator: "\n").first { $0.hasPrefix(field) }
        return line.flatMap { Int($0.dropFirst(field.count).trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "") }
    }
}
