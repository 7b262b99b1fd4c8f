@testable import Core
import Foundation
import HogwartsTestSupport
import Synchronization
import Testing

@Suite("Dated backups and their pruning")
struct BackupRotationTests {
    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appending(path: "hogwarts-rotation-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test("a backup's name is its UTC time to the second, and names sort as times do")
    func names() throws {
        let date = try Date.ISO8601FormatStyle().parse("2026-11-27T22:15:00Z")
        #expect(BackupRotation.fileName(at: date) == "hogwarts-2026-11-27T221500Z.sqlite")
        #expect(BackupRotation.fileName(at: date.addingTimeInterval(-1)) == "hogwarts-2026-11-27T221459Z.sqlite")
        #expect(BackupRotation.fileName(at: date.addingTimeInterval(-1)) < BackupRotation.fileName(at: date))
    }

    @Test("only names of exactly the backup pattern are ours")
    func pattern() {
        #expect(BackupRotation.isDated("hogwarts-2026-11-27T221500Z.sqlite"))
        for name in ["hogwarts-2026-11-27T221500Z.sqlite-wal", ".hogwarts-2026-11-27T221500Z.sqlite.partial-1a2b3c4d", "my-hogwarts-2026-11-27T221500Z.sqlite",
                     "hogwarts-2026-11-27T2215Z.sqlite", "hogwarts-٢٠٢٦-11-27T221500Z.sqlite", "hogwarts.sqlite", "hogwarts-2026-11-27T221500Z.sqlite.bak"] {
            #expect(!BackupRotation.isDated(name), "\(name)")
        }
    }

    @Test("pruning keeps the newest N of ours and touches nothing else")
    func prune() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ours = (1...5).map { "hogwarts-202\($0)-01-01T000000Z.sqlite" }
        let others = ["notes.txt", "hogwarts-2020-01-01T000000Z.sqlite-wal", "hogwarts.sqlite", "hogwarts-2020-01-01T000000Z.sqlite.bak"]
        for name in ours + others { #expect(FileManager.default.createFile(atPath: folder.appending(path: name).path, contents: Data("x".utf8))) }
        // A folder that happens to carry the name is not a backup file.
        try FileManager.default.createDirectory(at: folder.appending(path: "hogwarts-2019-01-01T000000Z.sqlite"), withIntermediateDirectories: false)

        let removed = try BackupRotation.prune(folder.path, keep: 2)
        #expect(removed == Array(ours.prefix(3)))
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
        #expect(left == Set(ours.suffix(2) + others + ["hogwarts-2019-01-01T000000Z.sqlite"]))
        #expect(try BackupRotation.prune(folder.path, keep: 2).isEmpty, "pruning again removes nothing")
    }

    @Test("while a backup is written nothing exists at its name; it appears whole, and the hidden temporary file is gone", .enabled(if: !TestDatabase.isPostgres, "SQLite files"))
    func noTornFile() throws {
        let harness = try TestHarness(modules: [NotesModule()])
        for index in 0..<50 { try harness.run(AddNote.self, .init(title: "note \(index)"), as: .admin) }
        let destination = harness.directory.appending(path: "hogwarts-2026-11-27T221500Z.sqlite").path
        let seen = Mutex<[Bool]>([])
        try harness.kernel.backup(to: destination) { _, _, _ in
            seen.withLock { $0.append(FileManager.default.fileExists(atPath: destination)) }
        }
        #expect(!seen.withLock { $0 }.isEmpty && !seen.withLock { $0 }.contains(true), "the name appeared before the copy was complete")
        #expect(try Kernel(databasePath: destination, modules: [NotesModule()]).checkIntegrity().ok)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: harness.directory.path).filter { $0.contains(".partial-") }
        #expect(leftovers.isEmpty)
    }
}
