import Dispatch

/// The synchronous bridge an engine over PostgresNIO would need: the kernel's actions are
/// synchronous inside their transaction, so each statement starts a task and the calling thread
/// (a kernel thread, never an event loop thread) waits for it.
enum Blocking {
    private final class Outcome<T: Sendable>: @unchecked Sendable {
        // Written by the task before it signals, read by the waiter after: the semaphore orders them.
        var result: Result<T, any Error>?
    }

    static func run<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
        let semaphore = DispatchSemaphore(value: 0)
        let outcome = Outcome<T>()
        Task {
            do {
                outcome.result = .success(try await work())
            } catch {
                outcome.result = .failure(error)
            }
            semaphore.signal()
        }
        semaphore.wait()
        guard let result = outcome.result else { throw DriverError(description: "the bridged task ended without a result") }
        return try result.get()
    }
}
