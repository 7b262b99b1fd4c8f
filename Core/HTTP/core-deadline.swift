import Foundation
import Synchronization
import HogwartsBase

/// An answer within a time, or 503: for checks a load balancer waits on (`/ready`).
enum Deadline {
    /// `work`'s result if it comes within `seconds`, else `KernelError.databaseUnavailable`.
    /// Work still running then is left to finish on its own (its thread is bounded by the
    /// database timeouts); only the caller stops waiting. A task group would wait for it, so
    /// the two sides race as plain tasks and the first to finish answers.
    static func within<T: Sendable>(seconds: Double, _ work: @escaping @Sendable () async throws -> T) async throws -> T {
        let waiting = FirstAnswer<T>()
        return try await withCheckedThrowingContinuation { continuation in
            waiting.wait(continuation)
            let finish: @Sendable (Result<T, any Error>) -> Void = { waiting.answer($0) }
            Task {
                do { finish(.success(try await work())) } catch { finish(.failure(error)) }
            }
            Task {
                try? await Task.sleep(for: .seconds(seconds))
                finish(.failure(KernelError.databaseUnavailable("no answer within \(seconds) s")))
            }
        }
    }
}

/// Resumes its continuation with the first answer given; later ones are dropped.
private final class FirstAnswer<T: Sendable>: Sendable {
    private let continuation = Mutex<CheckedContinuation<T, any Error>?>(nil)

    func wait(_ waiting: CheckedContinuation<T, any Error>) {
        continuation.withLock { $0 = waiting }
    }

    func answer(_ result: Result<T, any Error>) {
        continuation.withLock { stored in
            stored?.resume(with: result)
            stored = nil
        }
    }
}
