import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// CPU time a process has used (user + system), from `/proc/<pid>/stat`. Divided by the requests
/// of a run it gives the server's CPU per request, a figure that other work on the machine skews
/// far less than req/s or latency.
enum ProcessCPU {
    static func seconds(of pid: Int32) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        // After "pid (comm)": field 3 (state) is index 0, so utime (14) is 11 and stime (15) is 12.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
