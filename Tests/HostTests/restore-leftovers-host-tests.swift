import Foundation
import HogwartsTestSupport
import Testing

@Suite("What restore leaves beside the backup it reads", .waitsOnProcesses, .enabled(if: !TestDatabase.isPostgres, "SQLite files: PostgreSQL refuses backup and restore"))
struct RestoreLeftoversHostTests {
    @Test("restore leaves no -wal or -shm beside the backup it read, whether backup wrote it or it is a copy of a live file")
    func restoreLeavesNoSidecars() throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo"]).status == 0)
        let backup = hogwarts.directory.appending(path: "backup.sqlite").path
        #expect(try hogwarts.run(["backup", "--to", backup]).status == 0)
        // Bytes 18 and 19 of the header: 1 is a file on its own, 2 a file that wants a WAL beside it.
        let header = try #require(FileManager.default.contents(atPath: backup)).prefix(20)
        #expect(Array(header.suffix(2)) == [1, 1], "a backup is one self-contained file")
        // A copy of the live file keeps its WAL mark, as backups of older versions did.
        let copied = hogwarts.directory.appending(path: "copied.sqlite").path
        try FileManager.default.copyItem(atPath: hogwarts.databasePath, toPath: copied)
        for source in [backup, copied] {
            let restored = try hogwarts.run(["restore", "--from", source, "--lang", "en"])
            #expect(restored.status == 0, "\(source): \(restored.stderr)")
            for suffix in ["-wal", "-shm", "-journal"] {
                #expect(!FileManager.default.fileExists(atPath: source + suffix), "restore left \(source)\(suffix)")
            }
        }
        #expect(try hogwarts.run(["school", "list"]).status == 0)
    }
}
