import Core
import Foundation

/// One row of the HTTP table: an endpoint under wrk, and how it compares with the floors.
struct HTTPFigure: Codable {
    enum Kind: String, Codable {
        case floor
        case platform
        /// bcrypt-bound: reported beside the others, held to no target.
        case signIn = "sign-in"
        /// The student list with sign-ins going on beside it, and alone on the same server: what
        /// the password lane leaves to reads; reported, held to no target.
        case besideSignIn = "beside sign-in"
    }

    let endpoint: String
    let kind: Kind
    let connections: Int
    var result: WrkResult?
    /// Why there is no result (a route not there yet), or what to know about it (429s).
    var note: String?
    /// The floor this row's "vs bare" compares with: the bare student list when nil.
    var floor: String?
    /// req/s over its bare floor's, and over hello-world's.
    var ratioToBare: Double?
    var ratioToHello: Double?
    /// "ok", or the targets missed: ratio ≥ 0.6x its bare floor, p99 < 20 ms, 0 errors (and ≥ 7,000 req/s for the student list).
    var verdict: String?
    /// The student list as a teacher: the row the 7,000 req/s goal is about.
    var isStudentListGoal = false

    init(endpoint: String, kind: Kind, connections: Int, result: WrkResult? = nil, note: String? = nil) {
        self.endpoint = endpoint
        self.kind = kind
        self.connections = connections
        self.result = result
        self.note = note
    }
}

/// How the run was made, printed above the table and in the JSON.
struct HTTPRunSettings: Codable {
    let students: Int
    let cores: Int
    let serverThreads: Int
    let wrkThreads: Int
    let seconds: Int
    let warmupSeconds: Int
    let date: String
    /// The 1-minute load average before the bench began: other work on the machine skews every figure.
    let loadAverage: Double

    static var currentLoadAverage: Double {
        var loads = [Double](repeating: 0, count: 3)
        return getloadavg(&loads, 3) > 0 ? loads[0] : -1
    }
}

enum HTTPReport {
    static let minimumRatio = 0.6
    static let maximumP99 = 20.0
    static let studentListGoal = 7_000.0

    /// Fills in each row's ratios to the floors and, for platform routes, the verdict.
    static func compare(_ figures: [HTTPFigure], bare: String, hello: String) -> [HTTPFigure] {
        func rate(_ endpoint: String) -> Double? { figures.first { $0.endpoint == endpoint }?.result?.requestsPerSecond }
        let helloRate = rate(hello)
        return figures.map { figure in
            var figure = figure
            guard let result = figure.result else { return figure }
            figure.ratioToBare = rate(figure.floor ?? bare).map { result.requestsPerSecond / max($0, 1e-9) }
            figure.ratioToHello = helloRate.map { result.requestsPerSecond / max($0, 1e-9) }
            guard figure.kind == .platform else { return figure }
            var missed: [String] = []
            if let ratio = figure.ratioToBare, ratio < minimumRatio { missed.append(String(format: "ratio %.2fx < 0.6x", ratio)) }
            if result.p99Milliseconds >= maximumP99 { missed.append(String(format: "p99 %.1f ms ≥ 20 ms", result.p99Milliseconds)) }
            if result.errors > 0 { missed.append("\(result.errors) errors") }
            if figure.isStudentListGoal, result.requestsPerSecond < studentListGoal {
                missed.append(String(format: "%.0f req/s < 7,000 goal", result.requestsPerSecond))
            }
            figure.verdict = missed.isEmpty ? "ok" : "MISS: " + missed.joined(separator: "; ")
            return figure
        }
    }

    static func print(_ figures: [HTTPFigure], settings: HTTPRunSettings, json: Bool) {
        if json {
            struct Document: Encodable {
                let settings: HTTPRunSettings
                let figures: [HTTPFigure]
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            if let data = try? encoder.encode(Document(settings: settings, figures: figures)) {
                Swift.print(String(decoding: data, as: UTF8.self))
            }
            return
        }
        Swift.print("""
            HTTP on loopback, \(settings.date): \(settings.students) students, \(settings.cores) cores, kernel threads \(settings.serverThreads), \
            wrk \(settings.wrkThreads) threads, \(settings.seconds) s a run after \(settings.warmupSeconds) s of warm-up, \
            load average \(String(format: "%.2f", settings.loadAverage)) at the start
            """)
        let table = TextTable(
            headers: ["endpoint", "conns", "req/s", "p50", "p99", "errors", "CPU/req", "vs bare", "vs hello", "targets", "note"],
            rows: figures.map { figure in
                let result = figure.result
                return [figure.endpoint, String(figure.connections),
                        result.map { String(format: "%.0f", $0.requestsPerSecond) } ?? "-",
                        result.map { milliseconds($0.p50Milliseconds) } ?? "-",
                        result.map { milliseconds($0.p99Milliseconds) } ?? "-",
                        result.map(errors) ?? "-",
                        result?.serverCPUMicroseconds.map { String(format: "%.0f µs", $0) } ?? "-",
                        figure.ratioToBare.map { String(format: "%.2fx", $0) } ?? "-",
                        figure.ratioToHello.map { String(format: "%.2fx", $0) } ?? "-",
                        figure.verdict ?? "-", figure.note ?? ""]
            })
        Swift.print(table.rendered, terminator: "")
    }

    static func milliseconds(_ value: Double) -> String {
        value < 10 ? String(format: "%.2f ms", value) : String(format: "%.1f ms", value)
    }

    /// "0", or "12 (non-2xx 10, socket 2)".
    static func errors(_ result: WrkResult) -> String {
        guard result.errors > 0 else { return "0" }
        return "\(result.errors) (non-2xx \(result.non2xx), socket \(result.socketErrors))"
    }
}
