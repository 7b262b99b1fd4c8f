import Foundation
import HogwartsTestSupport
import Testing

@Suite("Data safety and the operator, from the command line", .waitsOnProcesses, .serialized)
struct DataSafetyHostTests {
    static func permissions(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    /// The binary and its resource bundles copied where another user can reach them: the build
    /// folder may sit in a private temporary folder (CI's fresh clone does).
    static func copyForOtherUsers(_ hogwarts: HogwartsProcess) throws -> URL {
        let folder = hogwarts.directory.appending(path: "bin")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let built = hogwarts.binary.deletingLastPathComponent()
        for name in try FileManager.default.contentsOfDirectory(atPath: built.path) where name.hasSuffix(".resources") {
            try FileManager.default.copyItem(at: built.appending(path: name), to: folder.appending(path: name))
        }
        let copy = folder.appending(path: "hogwarts")
        try FileManager.default.copyItem(at: hogwarts.binary, to: copy)
        for path in [folder.path] + (FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String }.map { "\(folder.path)/\($0)" } ?? []) {
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
            chmod(path, isFolder.boolValue || path == copy.path ? 0o755 : 0o644)
        }
        return copy
    }

    @Test("the database is created 0600, and a database others can read draws a warning that says how to fix it", .enabled(if: !TestDatabase.isPostgres, "SQLite files: file modes, damage and read-only mounts"))
    func modes() throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["migrate"]).status == 0)
        #expect(Self.permissions(hogwarts.databasePath) == 0o600)
        #expect(try hogwarts.run(["school", "list", "--lang", "en"]).stderr.isEmpty)
        chmod(hogwarts.databasePath, 0o644)
        let warned = try hogwarts.run(["school", "list", "--lang", "en"])
        #expect(warned.status == 0)
        #expect(warned.stderr.contains("chmod 600"))
    }

    @Test("a damaged database: check exits 65, backup refuses and leaves no file, restore refuses a damaged backup", .enabled(if: !TestDatabase.isPostgres, "SQLite files: file modes, damage and read-only mounts"))
    func damagedFiles() throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo"]).status == 0)
        let check = try hogwarts.run(["check", "--lang", "en"])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("no damage"))

        let damaged = hogwarts.directory.appending(path: "damaged.sqlite").path
        try FileManager.default.copyItem(atPath: hogwarts.databasePath, toPath: damaged)
        let handle = try #require(FileHandle(forUpdatingAtPath: damaged))
        try handle.seek(toOffset: try handle.seekToEnd() / 2)
        try handle.write(contentsOf: Data((0..<65_536).map { _ in UInt8.random(in: 0...255) }))
        try handle.close()

        let failed = try hogwarts.run(["check", "--database", damaged, "--lang", "en", "--json"])
        #expect(failed.status == 65)
        PlatformJSON.expect(failed.stdout, "check --json")
        let copy = hogwarts.directory.appending(path: "copy.sqlite").path
        let backup = try hogwarts.run(["backup", "--database", damaged, "--to", copy, "--lang", "en"])
        #expect(backup.status == 65)
        #expect(backup.stderr.contains("integrity check"))
        #expect(!FileManager.default.fileExists(atPath: copy))
        let restore = try hogwarts.run(["restore", "--from", damaged, "--lang", "en"])
        #expect(restore.status == 65, "\(restore.stderr)")
        #expect(try hogwarts.run(["check"]).status == 0, "the live database was not touched")
    }

    @Test("a read-only database answers every read and refuses writes with a reason", .enabled(if: !TestDatabase.isPostgres, "SQLite files: file modes, damage and read-only mounts"))
    func readOnly() throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo"]).status == 0)
        // Root may write any file, so as root the reads run as `nobody`, for whom the file is read-only.
        let asOther: [String]
        if geteuid() == 0 {
            guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/runuser") else { return }
            chmod(hogwarts.directory.path, 0o755)
            chmod(hogwarts.databasePath, 0o644)
            asOther = ["/usr/sbin/runuser", "-u", "nobody", "--", try Self.copyForOtherUsers(hogwarts).path]
        } else {
            chmod(hogwarts.databasePath, 0o444)
            asOther = [hogwarts.binary.path]
        }
        func run(_ arguments: [String]) throws -> HogwartsProcess.Result {
            try HogwartsProcess.run(URL(filePath: asOther[0]), Array(asOther.dropFirst()) + arguments + ["--database", hogwarts.databasePath, "--lang", "en"],
                                    in: hogwarts.directory, environment: ["HOGWARTS_CONFIG_DIR": hogwarts.directory.appending(path: "other").path])
        }
        for read in [["school", "list"], ["audit", "--school", "demo"], ["settings", "list", "--school", "demo"], ["migrate", "--status"],
                     ["modules", "list", "--school", "demo"], ["check"]] {
            let result = try run(read)
            #expect(result.status == 0, "\(read): \(result.stderr)")
            #expect(!result.stdout.isEmpty, "\(read)")
        }
        let write = try run(["modules", "disable", "messages", "--school", "demo", "--cascade"])
        #expect(write.status == 77)
        #expect(write.stderr.contains("read-only"), "\(write.stderr)")
    }

    @Test("operator commands name the operating-system user in the audit; a log path outside the database's folder needs --force")
    func operatorActions() throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo"]).status == 0)
        #expect(try hogwarts.run(["settings", "set", "attendance.edit-window-days", "5", "--school", "demo"]).status == 0)
        let audit = try hogwarts.run(["audit", "--school", "demo", "--json"])
        PlatformJSON.expect(audit.stdout, "audit --json")
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(audit.stdout.utf8)) as? [[String: Any]])
        let latest = try #require(entries.first)
        #expect(latest["action"] as? String == "kernel.setting.set")
        #expect((latest["user_id"] as? String)?.hasPrefix("operator:") == true, "\(latest)")

        let escaping = try hogwarts.run(["settings", "set", "notifications.log-path", "../hogwarts-elsewhere.log", "--school", "demo", "--lang", "en"])
        #expect(escaping.status == 64)
        #expect(escaping.stderr.contains("outside the database's folder"))
        let outside = try hogwarts.run(["settings", "set", "notifications.log-path", "/tmp/hogwarts-elsewhere.log", "--school", "demo", "--lang", "en"])
        if TestDatabase.isPostgres {
            #expect(outside.status == 0, "a server database has no folder: the operator's absolute path is taken as given")
        } else {
            #expect(outside.status == 64)
            #expect(outside.stderr.contains("outside the database's folder"))
        }
        #expect(try hogwarts.run(["settings", "set", "notifications.log-path", "logs/outbox.log", "--school", "demo"]).status == 0)
        #expect(try hogwarts.run(["settings", "set", "notifications.log-path", "/tmp/hogwarts-elsewhere.log", "--school", "demo", "--force"]).status == 0)
    }

    @Test("a signed-in user works in the session's school: --school or HOGWARTS_SCHOOL naming another is refused")
    func sessionSchool() throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo"]).status == 0)
        #expect(try hogwarts.login("admin@databayt.org").status == 0)
        for attempt in [(["students", "list", "--lang", "en"], ["HOGWARTS_SCHOOL": "nile"]), (["students", "list", "--school", "nile", "--lang", "en"], [:])] {
            let refused = try hogwarts.run(attempt.0, environment: attempt.1)
            #expect(refused.status == 77, "\(attempt)")
            #expect(refused.stderr.contains("signed in to the school demo, not nile"), "\(refused.stderr)")
            #expect(refused.stdout.isEmpty)
        }
        #expect(try hogwarts.run(["students", "list"], environment: ["HOGWARTS_SCHOOL": "demo"]).status == 0)
    }

    @Test("the kernel's commands print the platform's JSON style")
    func kernelJSON() throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo"]).status == 0)
        for command in [["modules", "list", "--school", "demo"], ["modules", "list"], ["settings", "list", "--school", "demo"],
                        ["migrate", "--status"], ["check"], ["audit", "--school", "demo"]] {
            let result = try hogwarts.run(command + ["--json"])
            #expect(result.status == 0, "\(command): \(result.stderr)")
            PlatformJSON.expect(result.stdout, command.joined(separator: " "))
        }
        let backup = hogwarts.directory.appending(path: "b.sqlite").path
        let result = try hogwarts.run(["backup", "--to", backup, "--json", "--lang", "en"])
        if TestDatabase.isPostgres {
            // A server database is backed up with its own tools: refused, saying which.
            #expect(result.status != 0 && result.stderr.contains("pg_dump"), "\(result.stderr)")
        } else {
            PlatformJSON.expect(result.stdout, "backup --json")
            #expect(Self.permissions(backup) == 0o600)
        }
    }
}
