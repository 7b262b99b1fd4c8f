import Core
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One line of the benchmark table: our time beside the floor's for the same work.
struct Figure: Codable {
    let scenario: String
    /// Rows written or read by the scenario.
    let rows: Int
    let seconds: Double
    let floorSeconds: Double?
    /// Which floor, where a scenario has more than one (attendance: one commit per register, or one transaction).
    var floorKind: String?
    /// The target ratio to the floor (3 for writes, 2 for reads), or a time limit for cold starts.
    let target: String
    /// The process's peak resident memory once this scenario had run: the first scenario whose
    /// figure is higher than the one before raised it.
    var peakMegabytes: Double?
    /// Peak resident memory while our side ran, and while the floor ran (each measured from a
    /// reset high-water mark, so it includes what the process held when the side began).
    var oursPeakMegabytes: Double?
    var floorPeakMegabytes: Double?

    init(scenario: String, rows: Int, seconds: Double, floorSeconds: Double?, floorKind: String? = nil, target: String,
         oursPeakMegabytes: Double? = nil, floorPeakMegabytes: Double? = nil) {
        self.oursPeakMegabytes = oursPeakMegabytes
        self.floorPeakMegabytes = floorPeakMegabytes
        self.scenario = scenario
        self.rows = rows
        self.seconds = seconds
        self.floorSeconds = floorSeconds
        self.floorKind = floorKind
        self.target = target
    }

    var ratio: Double? { floorSeconds.map { seconds / max($0, 1e-9) } }
    var rowsPerSecond: Double { Double(rows) / max(seconds, 1e-9) }
}

enum Clock {
    /// Wall time of `body`, in seconds. Its peak resident memory is kept in `lastPeakMegabytes`.
    static func time(_ body: () throws -> Void) rethrows -> Double {
        resetPeak()
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        last.withLock { $0 = phasePeakMegabytes }
        return seconds
    }

    private static let last = Mutex<Double?>(nil)

    /// The peak resident memory of the last body `time` measured (Linux only; nil elsewhere).
    static var lastPeakMegabytes: Double? { last.withLock { $0 } }

    /// Returns freed memory to the system, then resets the kernel's high-water mark of resident
    /// memory (`VmHWM`) to what is resident now, so the next body's peak is its own and not an
    /// earlier scenario's (Linux: writing 5 to /proc/self/clear_refs).
    private static func resetPeak() {
        #if canImport(Glibc)
        // glibc's malloc_trim, looked up at run time: Swift's Glibc module does not export malloc.h.
        if let symbol = dlsym(dlopen(nil, RTLD_NOW), "malloc_trim") {
            _ = unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)(0)
        }
        #endif
        let before = currentMaxRSS
        earlierPeak.withLock { $0 = max($0, before) }
        try? Data("5".utf8).write(to: URL(filePath: "/proc/self/clear_refs"))
    }

    /// `VmHWM` from /proc/self/status, in megabytes: the peak since the last reset.
    private static var phasePeakMegabytes: Double? {
        guard let status = try? String(contentsOf: URL(filePath: "/proc/self/status"), encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = Double(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "") else { return nil }
        return kilobytes / 1024
    }

    /// The median of several runs: whole-process timings are noisy.
    static func median(runs: Int, _ body: () throws -> Void) rethrows -> Double {
        var times: [Double] = []
        for _ in 0..<runs { times.append(try time(body)) }
        return times.sorted()[times.count / 2]
    }

    /// Peak resident memory of this process so far, in megabytes. Resetting the high-water mark
    /// (see `resetPeak`) resets `ru_maxrss` too, so the peaks before each reset are kept here.
    static var peakMegabytes: Double { max(earlierPeak.withLock { $0 }, currentMaxRSS) }

    private static let earlierPeak = Mutex<Double>(0)

    private static var currentMaxRSS: Double {
        var usage = rusage()
        getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
        return Double(usage.ru_maxrss) / 1024
    }
}

enum Report {
    static func print(_ figures: [Figure], json: Bool, peakMegabytes: Double) {
        if json {
            struct Document: Encodable { let figures: [Figure]; let peakResidentMegabytes: Double }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            if let data = try? encoder.encode(Document(figures: figures, peakResidentMegabytes: peakMegabytes)) {
                Swift.print(String(decoding: data, as: UTF8.self))
            }
            return
        }
        let table = TextTable(
            headers: ["scenario", "ours", "floor", "floor is", "ratio", "target", "rows", "rows/s", "ours MB", "floor MB", "peak MB"],
            rows: figures.map { figure in
                [figure.scenario, milliseconds(figure.seconds), figure.floorSeconds.map(milliseconds) ?? "-", figure.floorKind ?? "-",
                 figure.ratio.map { String(format: "%.2fx", $0) } ?? "-", figure.target, String(figure.rows), String(format: "%.0f", figure.rowsPerSecond),
                 megabytes(figure.oursPeakMegabytes), megabytes(figure.floorPeakMegabytes), megabytes(figure.peakMegabytes)]
            })
        Swift.print(table.rendered, terminator: "")
        Swift.print(String(format: "peak resident memory: %.1f MB", peakMegabytes))
    }

    static func milliseconds(_ seconds: Double) -> String { String(format: "%.1f ms", seconds * 1000) }

    static func megabytes(_ value: Double?) -> String { value.map { String(format: "%.0f", $0) } ?? "-" }
}
