import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Waits for a child process by reaping it here, polling `waitpid(pid, WNOHANG)`.
///
/// Foundation's `Process` on Linux notices children ending on one thread for the whole test
/// process, which then calls a blocking `waitpid` on the child it believes ended. In a local CI
/// run that thread sat in `wait4()` on a `hogwarts serve` still running (its test had not stopped
/// it yet), so every other child that ended stayed a zombie, and every `waitUntilExit()` behind it
/// waited: the tests holding both host-test threads stopped, and the PostgreSQL pass made no
/// progress for 25 minutes until its time ran out. Reaping our own children does not depend on
/// that thread. The status is Foundation's `terminationStatus`: the exit code, or the signal.
public enum ChildExit {
    /// Statuses of the children reaped here, for a second wait on the same process.
    private static let reaped = Mutex<[Int32: Int32]>([:])

    /// The exit code (or the signal that ended it) of `process`, once it has ended.
    @discardableResult
    public static func wait(for process: Process) -> Int32 {
        let pid = process.processIdentifier
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid {
                let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : status & 0x7f
                reaped.withLock { $0[pid] = code }
                return code
            }
            if result == -1 && errno == EINTR { continue }
            if result == -1 {
                // Not our child any more: reaped here before, or by Foundation's thread, which
                // sets the status right after its waitpid.
                if let code = reaped.withLock({ $0[pid] }) { return code }
                process.waitUntilExit()
                return process.terminationStatus
            }
            usleep(20_000)
        }
    }

    /// Whether `process` is still running, without waiting on Foundation's thread to notice it ended.
    public static func isRunning(_ process: Process) -> Bool {
        let pid = process.processIdentifier
        guard pid > 0, reaped.withLock({ $0[pid] }) == nil else { return false }
        return kill(pid, 0) == 0 && !isZombie(pid)
    }

    private static func isZombie(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }
}
