import Core
import HogwartsPostgreSQL
import Foundation
import HogwartsTestSupport
import Synchronization

/// `hogwarts demo` into an empty database, which the host tests run dozens of times: the first
/// run in each ten minutes is the real command, in a runner of its own; the others copy what it
/// made. On SQLite that is its file; on PostgreSQL the binary's own `migrate` makes the tables and
/// the server copies the rows (seeding the demo over the network is half a minute, a copy a
/// second or two). The answer is the real run's, with the database named as the caller's.
///
/// A demo run with other options, with input or environment, or into a database that is not
/// empty, is always the real command.
enum DemoCopy {
    private struct Seeded {
        let runner: HogwartsProcess
        let result: HogwartsProcess.Result
    }

    /// The real runs by ten-minute slot; their runners (and databases) stay for the whole run.
    private static let seeded = Mutex<[Int: Seeded]>([:])

    static func applies(to arguments: [String], input: String?, environment: [String: String], runner: HogwartsProcess) throws -> Bool {
        guard arguments == ["demo"] || arguments == ["demo", "--force"], input == nil, environment.isEmpty,
              runner.binary == HogwartsProcess.binary else { return false }
        if !TestDatabase.isPostgres { return !FileManager.default.fileExists(atPath: runner.databasePath) }
        // Only a schema of the test server's (not one on the outage test's server, say).
        guard let server = TestDatabase.server, runner.databasePath.hasPrefix(server), runner.databasePath.contains("search_path%3D") else { return false }
        return try runner.strings("SELECT tablename FROM pg_catalog.pg_tables WHERE schemaname = current_schema()").isEmpty
    }

    static func run(into runner: HogwartsProcess) throws -> HogwartsProcess.Result {
        let template = try seeded.withLock { seeded in
            // The demo stamps rows with the time ("earlier today"): a copy is at most ten minutes old.
            let slot = Int(Date().timeIntervalSince1970 / 600)
            if let made = seeded[slot] { return made }
            let real = try HogwartsProcess()
            let result = try HogwartsProcess.run(real.binary, ["demo"], in: real.directory, environment: real.ownEnvironment)
            let made = Seeded(runner: real, result: result)
            if result.status == 0 { seeded[slot] = made }
            return made
        }
        guard template.result.status == 0 else { return template.result }
        if let server = TestDatabase.server {
            let migrated = try runner.run(["migrate"])
            guard migrated.status == 0 else { return migrated }
            try PostgresScratch.copyRows(from: template.runner.databasePath, into: runner.databasePath, on: server)
        } else {
            try TestDatabase.copyFile(template.runner.databasePath, to: runner.databasePath)
        }
        // The API signing keys in the copied rows are sealed with the template's secret file.
        let secret = template.runner.directory.appending(path: "hogwarts-signing.secret")
        if FileManager.default.fileExists(atPath: secret.path) {
            try FileManager.default.copyItem(at: secret, to: runner.directory.appending(path: "hogwarts-signing.secret"))
        }
        let own = { (text: String) in text.replacingOccurrences(of: template.runner.databasePath, with: runner.databasePath) }
        return HogwartsProcess.Result(status: 0, stdout: own(template.result.stdout), stderr: own(template.result.stderr))
    }
}
