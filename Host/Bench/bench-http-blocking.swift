import Dispatch
import Foundation

/// Runs async work to its end from the synchronous bench. The bench's main thread is not part of
/// Swift's cooperative pool, so waiting on it here blocks nothing the work needs.
enum Blocking {
    static func run<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox<T>()
        Task {
            do { box.set(.success(try await work())) } catch { box.set(.failure(error)) }
            done.signal()
        }
        done.wait()
        guard let result = box.result else { throw BenchHTTPError("async work ended without a result") }
        return try result.get()
    }

    private final class ResultBox<T: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: Result<T, any Error>?
        var result: Result<T, any Error>? { lock.withLock { stored } }
        func set(_ value: Result<T, any Error>) { lock.withLock { stored = value } }
    }
}

/// A failure of the HTTP bench's own machinery (a server that does not start, wrk missing).
struct BenchHTTPError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
