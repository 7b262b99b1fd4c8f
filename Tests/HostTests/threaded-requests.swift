import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// Requests sent from threads of their own, for tests that time an answer or keep a load up.
/// The suite's tests run in parallel on the test process's cooperative threads (one per core),
/// and a test waiting for a `hogwarts` command it ran holds one of them: timed from a task, an
/// answer measures the rest of the suite, not the server. In CI (2 cores) a writer task of the
/// failover test sent 40 requests in 66 s, and a 503 the server gave within 3 s was timed at 9.
extension ServedHogwarts {
    /// `request`, waited for on the calling thread; nil when no HTTP answer came (refused, reset).
    func requestWaiting(_ method: String, _ path: String, token: String? = nil, json: Any? = nil, headers: [String: String] = [:]) throws -> Response? {
        let request = try urlRequest(method, path, token: token, json: json, headers: headers)
        let answer = Mutex<Response?>(nil)
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: request) { body, response, _ in
            if response != nil { answer.withLock { $0 = Response(response, body: body ?? Data()) } }
            done.signal()
        }.resume()
        done.wait()
        return answer.withLock { $0 }
    }
}

/// `body` run on a thread of its own; the caller's task waits without holding a thread.
func onThreadOfItsOwn<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}

/// Threads that each run `body(thread, round)` for rounds 0, 1, 2, ... until `stop()`, which
/// waits for the round each is in to end.
final class LoadThreads: Sendable {
    private let stopped = Atomic<Bool>(false)
    private let finished = DispatchGroup()

    init(count: Int, _ body: @escaping @Sendable (_ thread: Int, _ round: Int) -> Void) {
        for thread in 0..<count {
            finished.enter()
            Thread { [self] in
                var round = 0
                while !stopped.load(ordering: .relaxed) {
                    body(thread, round)
                    round += 1
                }
                finished.leave()
            }.start()
        }
    }

    func stop() async {
        stopped.store(true, ordering: .relaxed)
        let finished = finished
        await onThreadOfItsOwn { finished.wait() }
    }
}
