import Foundation

// `postgres-drivers postgres://postgres@127.0.0.1:5433/bench [--students 2000] [--rounds 3]`
//
// The attendance day floor of `hogwarts-bench --database postgres://...` (one transaction per
// register, one prepared upsert per row) through libpq and through PostgresNIO behind a
// synchronous bridge, on a schema of its own that it drops at the end. Each round runs every
// driver on an emptied table (first marking, then the update pass), in a rotating order so that
// a change in the machine's load falls on all of them; the table shows each one's median.

func option(_ name: String) -> String? {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

func loadAverage() -> String {
    (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)).map { $0.split(separator: " ").prefix(3).joined(separator: " ") } ?? "?"
}

func main() throws {
    guard let url = CommandLine.arguments.dropFirst().first(where: { $0.hasPrefix("postgres") }) ?? ProcessInfo.processInfo.environment["HOGWARTS_DATABASE"] else {
        throw DriverError(description: "usage: postgres-drivers postgres://user@host:port/database [--students 2000] [--rounds 3]")
    }
    let students = option("--students").flatMap(Int.init) ?? 2000
    let rounds = option("--rounds").flatMap(Int.init) ?? 3
    let day = AttendanceDay(students: students)
    let schema = "drivers_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")

    let setup = try LibPQDriver(url: url, schema: "public")
    try setup.command("CREATE SCHEMA \(schema)")
    defer {
        try? setup.command("DROP SCHEMA IF EXISTS \(schema) CASCADE")
        setup.close()
    }
    try setup.command("SET search_path TO \(schema)")
    try setup.command(AttendanceDay.schema)

    let drivers: [any DayDriver] = [
        try LibPQDriver(url: url, schema: schema),
        try NIODriver(url: url, schema: schema, mode: .prepared),
        try NIODriver(url: url, schema: schema, mode: .futures),
    ]
    defer { drivers.forEach { $0.close() } }

    print("attendance day: \(day.classes.count) classes x 8 periods = \(day.registers) registers, \(day.rows) rows, one transaction per register; \(rounds) rounds")
    print("load average before: \(loadAverage())")
    // times[driver][pass - 1]: one per round.
    var times = Array(repeating: [[Timing]](repeating: [], count: 2), count: drivers.count)
    for round in 0..<rounds {
        for offset in 0..<drivers.count {
            let index = (round + offset) % drivers.count
            try setup.command("TRUNCATE attendance_records")
            for pass in 1...2 {
                let timing = try drivers[index].run(day, pass: pass)
                times[index][pass - 1].append(timing)
                FileHandle.standardError.write(Data(("round \(round + 1), \(drivers[index].name), pass \(pass): \(String(format: "%.3f", timing.seconds)) s, "
                    + "CPU \(String(format: "%.3f", timing.cpuSeconds)) s, load \(loadAverage())\n").utf8))
            }
        }
    }
    print("load average after: \(loadAverage())")

    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    print("| driver | pass | median wall | registers/s | wall vs libpq | client CPU per register | CPU vs libpq |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for pass in 1...2 {
        let base = median(times[0][pass - 1].map(\.seconds))
        let baseCPU = median(times[0][pass - 1].map(\.cpuSeconds))
        for (index, driver) in drivers.enumerated() {
            let seconds = median(times[index][pass - 1].map(\.seconds))
            let cpu = median(times[index][pass - 1].map(\.cpuSeconds))
            print("| \(driver.name) | \(pass == 1 ? "first marking" : "again (update)") | \(String(format: "%.2f s", seconds)) | "
                  + "\(String(format: "%.0f", Double(day.registers) / seconds)) | \(String(format: "%.2fx", seconds / base)) | "
                  + "\(String(format: "%.0f µs", cpu / Double(day.registers) * 1e6)) | \(String(format: "%.2fx", cpu / baseCPU)) |")
        }
    }
}

do {
    try main()
} catch {
    FileHandle.standardError.write(Data("postgres-drivers: \(error)\n".utf8))
    exit(1)
}
