import Dispatch
import Foundation
import NIOPosix

/// Lowers the CPU priority of a pool's threads, so their long CPU work (bcrypt) yields the cores
/// to short requests and still has every idle cycle. Linux only: elsewhere it does nothing.
package enum ThreadPriority {
    /// Gives each of the pool's `threads` threads one task that makes it `step` nicer and waits
    /// until all have run, so none takes two.
    static func lower(every pool: NIOThreadPool, threads: Int, by step: Int32) {
        #if os(Linux)
        let arrived = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        for _ in 0..<threads {
            pool.submit { _ in
                if let current = niceness() { setNiceness(min(19, current + step)) }
                arrived.signal()
                release.wait()
            }
        }
        for _ in 0..<threads { arrived.wait() }
        for _ in 0..<threads { release.signal() }
        #endif
    }

    /// The calling thread's niceness, nil where it cannot be read.
    package static func niceness() -> Int32? {
        #if os(Linux)
        guard let thread = currentThreadID() else { return nil }
        errno = 0
        let value = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(thread))
        return errno == 0 ? value : nil
        #else
        return nil
        #endif
    }

    #if os(Linux)
    /// Linux applies `setpriority` to one thread when given its id.
    private static func setNiceness(_ value: Int32) {
        guard let thread = currentThreadID() else { return }
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(thread), value)
    }

    /// The calling thread's id, from `/proc/thread-self` (a link to `<pid>/task/<tid>`): Swift
    /// sees no `gettid`.
    private static func currentThreadID() -> Int32? {
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self") else { return nil }
        return target.split(separator: "/").last.flatMap { Int32($0) }
    }
    #endif
}
