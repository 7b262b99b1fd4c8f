import Foundation

/// One endpoint as wrk sees it: the request it repeats and how many connections repeat it.
struct WrkTarget {
    let name: String
    let port: Int
    let method: String
    let path: String
    var headers: [String: String] = [:]
    var body: String?
    /// Bodies sent in turn instead of `body`, each wrk thread cycling through them.
    var bodies: [String] = []
    var connections: Int
    /// The process that answers, for its CPU time per request.
    var serverPID: Int32
    /// Counts statuses during the measured run too (sign-in, where most answers are 429 and
    /// bcrypt, not wrk's Lua, is the bottleneck).
    var countsStatuses = false

    var url: String { "http://127.0.0.1:\(port)\(path)" }
}

/// What wrk printed for one run, and the statuses its warm-up counted.
struct WrkResult: Codable {
    let requestsPerSecond: Double
    let p50Milliseconds: Double
    let p99Milliseconds: Double
    let requests: Int
    /// "Non-2xx or 3xx responses" (wrk counts 4xx and 5xx).
    let non2xx: Int
    /// connect + read + write + timeout.
    let socketErrors: Int
    /// The answering process's CPU time (user + system) over the measured run, per request.
    var serverCPUMicroseconds: Double?
    /// Responses by status, e.g. `["200": 9000]` or `["429": 8990, "200": 10]`: counted during the
    /// measured run when the target asks for it, else during the warm-up.
    var statuses: [String: Int] = [:]

    var errors: Int { non2xx + socketErrors }
}

/// Runs wrk on loopback: a short warm-up that counts statuses (a Lua `response` hook, which costs
/// wrk some CPU, so it is not used while measuring), then the measured run with `--latency`.
struct Wrk {
    let executable: URL
    /// Where the Lua scripts are written (the bench's temporary directory).
    let directory: URL
    let threads: Int
    let seconds: Int
    let warmupSeconds: Int

    /// wrk on the PATH, or nil.
    static func find() -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/usr/local/bin"
        return path.split(separator: ":").map { URL(filePath: String($0)).appending(path: "wrk") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    func measure(_ target: WrkTarget) throws -> WrkResult {
        let slug = target.name.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }
        let request = directory.appending(path: "wrk-\(String(slug)).lua")
        let counting = directory.appending(path: "wrk-\(String(slug))-count.lua")
        try WrkScript.request(target).write(to: request, atomically: true, encoding: .utf8)
        try (WrkScript.request(target) + WrkScript.statusCounter).write(to: counting, atomically: true, encoding: .utf8)

        let warmup = try run(target, script: counting, seconds: warmupSeconds, latency: false)
        let cpuBefore = ProcessCPU.seconds(of: target.serverPID)
        let measured = try run(target, script: target.countsStatuses ? counting : request, seconds: seconds, latency: true)
        let cpuAfter = ProcessCPU.seconds(of: target.serverPID)
        var result = try WrkOutput.parse(measured)
        if let cpuBefore, let cpuAfter, result.requests > 0 {
            result.serverCPUMicroseconds = (cpuAfter - cpuBefore) / Double(result.requests) * 1e6
        }
        result.statuses = WrkOutput.statuses(target.countsStatuses ? measured : warmup)
        return result
    }

    /// Measures `target` (as `measure`) while a second wrk sends `beside` for the whole warm-up
    /// and measured run: how one load slows the other. `beside`'s figures span that whole time,
    /// its statuses counted; neither has a CPU time per request, as both share the server.
    func measure(_ target: WrkTarget, beside: WrkTarget) throws -> (target: WrkResult, beside: WrkResult) {
        let script = directory.appending(path: "wrk-beside.lua")
        try (WrkScript.request(beside) + WrkScript.statusCounter).write(to: script, atomically: true, encoding: .utf8)
        let running = try launch(beside, script: script, seconds: warmupSeconds + seconds, latency: true)
        var measured = try measure(target)
        let report = try running.finish()
        var besideResult = try WrkOutput.parse(report)
        besideResult.statuses = WrkOutput.statuses(report)
        measured.serverCPUMicroseconds = nil
        return (measured, besideResult)
    }

    private func run(_ target: WrkTarget, script: URL, seconds: Int, latency: Bool) throws -> String {
        try launch(target, script: script, seconds: seconds, latency: latency).finish()
    }

    private func launch(_ target: WrkTarget, script: URL, seconds: Int, latency: Bool) throws -> RunningWrk {
        let process = Process()
        process.executableURL = executable
        process.arguments = ["-t", String(min(threads, target.connections)), "-c", String(target.connections), "-d", "\(seconds)s",
                             "--timeout", "5s", "-s", script.path] + (latency ? ["--latency"] : []) + [target.url]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        return RunningWrk(process: process, output: output, script: script)
    }
}

/// A wrk process under way; `finish` waits for its report.
struct RunningWrk {
    let process: Process
    let output: Pipe
    let script: URL

    func finish() throws -> String {
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else { throw BenchHTTPError("wrk exited \(process.terminationStatus): \(text)") }
        // wrk reports a script it cannot load and then runs without it (plain GETs): refuse that.
        guard !text.contains(script.path + ":") else { throw BenchHTTPError("wrk could not load \(script.path):\n\(text)") }
        return text
    }
}

/// The Lua wrk runs: the method, headers and body of the target, and a status counter.
enum WrkScript {
    static func request(_ target: WrkTarget) -> String {
        var lines = ["wrk.method = \(quoted(target.method))"]
        for (name, value) in target.headers.sorted(by: { $0.key < $1.key }) {
            lines.append("wrk.headers[\(quoted(name))] = \(quoted(value))")
        }
        if let body = target.body { lines.append("wrk.body = \(quoted(body))") }
        if !target.bodies.isEmpty {
            lines.append("local bodies = {" + target.bodies.map(quoted).joined(separator: ", ") + "}")
            lines.append("local turn = 0")
            lines.append("function request() turn = turn % #bodies + 1; return wrk.format(nil, nil, nil, bodies[turn]) end")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Each thread counts statuses in its own Lua state; `done` adds them up and prints
    /// `status <code> <count>` lines.
    static let statusCounter = """
        local threads = {}
        function setup(thread) table.insert(threads, thread) end
        function init(args) statuses = {} end
        function response(status, headers, body) statuses[status] = (statuses[status] or 0) + 1 end
        function done(summary, latency, requests)
          for _, thread in ipairs(threads) do
            for code, count in pairs(thread:get("statuses") or {}) do io.write(string.format("status %d %d\\n", code, count)) end
          end
        end

        """

    /// A Lua string literal, byte for byte: quotes and backslashes escaped, control characters and
    /// non-ASCII bytes as `\ddd` (Lua strings are bytes).
    static func quoted(_ text: String) -> String {
        var literal = "\""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): literal += "\\" + String(UnicodeScalar(byte))
            case 0..<32, 127...255: literal += String(format: "\\%03d", byte)
            default: literal.unicodeScalars.append(UnicodeScalar(byte))
            }
        }
        return literal + "\""
    }
}

/// Reads wrk's report: Requests/sec, the latency distribution, and the error lines.
enum WrkOutput {
    static func parse(_ text: String) throws -> WrkResult {
        var requestsPerSecond: Double?
        var p50: Double?
        var p99: Double?
        var requests = 0
        var non2xx = 0
        var socketErrors = 0
        for raw in text.split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            if line.hasPrefix("Requests/sec:"), let value = words.last.flatMap(Double.init) {
                requestsPerSecond = value
            } else if line.hasPrefix("50%"), let value = words.last.flatMap(milliseconds) {
                p50 = value
            } else if line.hasPrefix("99%"), let value = words.last.flatMap(milliseconds) {
                p99 = value
            } else if line.hasPrefix("Non-2xx or 3xx responses:"), let value = words.last.flatMap(Int.init) {
                non2xx = value
            } else if line.hasPrefix("Socket errors:") {
                // "Socket errors: connect 0, read 0, write 0, timeout 10"
                socketErrors = words.compactMap { Int($0.trimmingCharacters(in: CharacterSet(charactersIn: ","))) }.reduce(0, +)
            } else if words.count > 2, words[1] == "requests", words[2] == "in", let value = Int(words[0]) {
                requests = value
            }
        }
        guard let requestsPerSecond, let p50, let p99 else { throw BenchHTTPError("could not read wrk's report:\n\(text)") }
        return WrkResult(requestsPerSecond: requestsPerSecond, p50Milliseconds: p50, p99Milliseconds: p99, requests: requests,
                         non2xx: non2xx, socketErrors: socketErrors)
    }

    /// `status 200 9000` lines from the counting script, by status.
    static func statuses(_ text: String) -> [String: Int] {
        var result: [String: Int] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("status ") {
            let words = line.split(separator: " ")
            guard words.count == 3, let count = Int(words[2]) else { continue }
            result[String(words[1]), default: 0] += count
        }
        return result
    }

    /// wrk's durations: `812.00us`, `4.90ms`, `1.20s`, `2.00m`.
    static func milliseconds(_ text: String) -> Double? {
        let units: [(suffix: String, factor: Double)] = [("us", 0.001), ("ms", 1), ("m", 60_000), ("s", 1000)]
        for unit in units where text.hasSuffix(unit.suffix) {
            return Double(text.dropLast(unit.suffix.count)).map { $0 * unit.factor }
        }
        return Double(text)
    }
}
