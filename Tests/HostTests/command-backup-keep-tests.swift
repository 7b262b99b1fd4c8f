import Foundation
import HogwartsTestSupport
import Testing

@Suite("backup --keep", .waitsOnProcesses, .serialized, .enabled(if: !TestDatabase.isPostgres, "SQLite files: PostgreSQL refuses backup and restore"))
struct BackupKeepTests {
    static func files(in folder: URL) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
    }

    @Test("backup --keep N writes a dated, private, intact file and removes the oldest of its own files so that N remain; nothing else is touched")
    func rotation() throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo"]).status == 0)
        let folder = hogwarts.directory.appending(path: "backups")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        let older = ["hogwarts-2024-01-01T000000Z.sqlite", "hogwarts-2025-01-01T000000Z.sqlite", "hogwarts-2025-06-01T000000Z.sqlite"]
        let strangers = ["notes.txt", "hogwarts.sqlite", "hogwarts-2020-01-01T000000Z.sqlite.bak", "my-hogwarts-2020-01-01T000000Z.sqlite"]
        for name in older + strangers { #expect(FileManager.default.createFile(atPath: folder.appending(path: name).path, contents: Data("x".utf8))) }

        let first = try hogwarts.run(["backup", "--to", folder.path, "--keep", "2", "--json"])
        #expect(first.status == 0, "\(first.stderr)")
        PlatformJSON.expect(first.stdout, "backup --keep --json")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any])
        let written = try #require(report["backup"] as? String)
        let name = URL(filePath: written).lastPathComponent
        #expect(name.wholeMatch(of: /hogwarts-20[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9]{6}Z\.sqlite/) != nil, "\(name)")
        #expect(report["removed"] as? [String] == Array(older.prefix(2)))
        #expect(try Self.files(in: folder) == Set([name, older[2]] + strangers))
        #expect(DataSafetyHostTests.permissions(written) == 0o600)
        #expect(try hogwarts.run(["check", "--database", written]).status == 0, "the dated file is a whole database")

        Thread.sleep(forTimeInterval: 1.1)
        let second = try hogwarts.run(["backup", "--to", folder.path, "--keep", "2", "--lang", "en"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("the newest 2 dated backups are kept (1 older ones removed)"), "\(second.stdout)")
        let now = try Self.files(in: folder)
        #expect(now.subtracting(strangers).count == 2 && now.contains(name) && !now.contains(older[2]))
        #expect(now.isSuperset(of: strangers), "files of other names are never pruned")
    }

    @Test("--keep with a --to that is not a folder, or a count out of range, is refused before anything is written")
    func refusals() throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["migrate"]).status == 0)
        let missing = hogwarts.directory.appending(path: "no-such-folder").path
        let noFolder = try hogwarts.run(["backup", "--to", missing, "--keep", "3", "--lang", "en"])
        #expect(noFolder.status == 66 && noFolder.stderr.contains("is not an existing folder") && noFolder.stderr.contains("mkdir"), "\(noFolder.stderr)")
        #expect(!FileManager.default.fileExists(atPath: missing))
        let aFile = hogwarts.databasePath
        #expect(try hogwarts.run(["backup", "--to", aFile, "--keep", "3"]).status == 66, "a file is not a folder")
        for count in ["0", "-1", "many", "10001"] {
            let result = try hogwarts.run(["backup", "--to", hogwarts.directory.path, "--keep", count, "--lang", "en"])
            #expect(result.status == 64 && result.stderr.contains("--keep"), "\(count): \(result.stderr)")
        }
        let left = try Self.files(in: hogwarts.directory).filter { $0.hasPrefix("hogwarts-") || $0.contains(".partial-") }
        #expect(left.isEmpty, "\(left)")
    }
}
