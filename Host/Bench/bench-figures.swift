import Core
import Foundation

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

    init(scenario: String, rows: Int, seconds: Double, floorSeconds: Double?, floorKind: String? = nil, target: String) {
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
    /// Wall time of `body`, in seconds.
    static func time(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// The median of several runs: whole-process timings are noisy.
    static func median(runs: Int, _ body: () throws -> Void) rethrows -> Double {
        var times: [Double] = []
        for _ in 0..<runs { times.append(try time(body)) }
        return times.sorted()[times.count / 2]
    }

    /// Peak resident memory of this process so far, in megabytes.
    static var peakMegabytes: Double {
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
            headers: ["scenario", "ours", "floor", "floor is", "ratio", "target", "rows", "rows/s", "peak MB"],
            rows: figures.map { figure in
                [figure.scenario, milliseconds(figure.seconds), figure.floorSeconds.map(milliseconds) ?? "-", figure.floorKind ?? "-",
                 figure.ratio.map { String(format: "%.2fx", $0) } ?? "-", figure.target, String(figure.rows), String(format: "%.0f", figure.rowsPerSecond),
                 figure.peakMegabytes.map { String(format: "%.0f", $0) } ?? "-"]
            })
        Swift.print(table.rendered, terminator: "")
        Swift.print(String(format: "peak resident memory: %.1f MB", peakMegabytes))
    }

    static func milliseconds(_ seconds: Double) -> String { String(format: "%.1f ms", seconds * 1000) }
}
