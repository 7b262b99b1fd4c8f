@testable import Core
import Foundation
import HogwartsTestSupport
import Testing

/// The API signing keys are sealed in the database under a secret kept outside it: the
/// database and its backups hold no usable key, and keys stored in plain by an older version
/// are sealed at the first start that finds them.
@Suite struct SigningKeySealTests {
    @Test("the database and a backup hold the signing key only sealed", .enabled(if: !TestDatabase.isPostgres, "SQLite files: PostgreSQL refuses backup"))
    func keysAreSealedInTheDatabaseAndItsBackup() async throws {
        let harness = try TestHarness(modules: [NotesModule()])
        try await harness.api { api in _ = try await api.server.tokens.issue(for: harness.user(.teacher), email: nil) }
        let keys = try harness.kernel.tokenStore.signingKeys(at: harness.kernel.now())
        let stored = try harness.kernel.store.read { db in try db.fetchAll(sql: "SELECT secret FROM kernel_signing_keys").map { $0.string("secret") } }
        #expect(!stored.isEmpty && stored.allSatisfy { $0.hasPrefix(SigningKeySeal.prefix) })
        let backupPath = harness.directory.appending(path: "backup.sqlite").path
        try harness.kernel.backup(to: backupPath)
        for file in [harness.databasePath, backupPath] {
            let bytes = try Data(contentsOf: URL(filePath: file))
            for key in keys.all {
                #expect(bytes.range(of: key.secret) == nil && bytes.range(of: Data(key.secret.base64EncodedString().utf8)) == nil, "\(file) carries a key in plain")
            }
        }
        let secretFile = harness.directory.appending(path: SigningKeySeal.fileName).path
        let mode = try FileManager.default.attributesOfItem(atPath: secretFile)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func aKeyStoredInPlainIsSealedAndStillVerifies() async throws {
        let harness = try TestHarness(modules: [NotesModule()])
        let secret = Data((0..<32).map { UInt8($0) })
        try harness.kernel.store.write { db in
            try db.execute(sql: "INSERT INTO kernel_signing_keys (id, secret, created_at) VALUES (?, ?, ?)",
                           arguments: ["legacy-key", secret.base64EncodedString(), harness.kernel.now()])
        }
        try await harness.api { api in
            let pair = try await api.server.tokens.issue(for: harness.user(.teacher), email: nil)
            #expect(try await api.get("/api/notes", headers: ["Authorization": "Bearer " + pair.accessToken]).status == 200)
        }
        let keys = try harness.kernel.tokenStore.signingKeys(at: harness.kernel.now())
        #expect(keys.current == "legacy-key" && keys.all.first?.secret == secret)
        let stored = try harness.kernel.store.read { db in try db.fetchOne(sql: "SELECT secret FROM kernel_signing_keys WHERE id = 'legacy-key'")?.string("secret") }
        #expect(stored?.hasPrefix(SigningKeySeal.prefix) == true)
    }

    @Test func anotherSecretCannotOpenTheKeys() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "hogwarts-seal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let one = try SigningKeySeal.load(folder: folder, variables: [:])
        let sealed = try one.seal(Data(repeating: 7, count: 32), kid: "k1")
        #expect(try SigningKeySeal.load(folder: folder, variables: [:]).open(sealed, kid: "k1")?.secret == Data(repeating: 7, count: 32))
        let otherFile = folder.appending(path: "other.secret")
        try Data(repeating: 1, count: 40).write(to: otherFile)
        let other = try SigningKeySeal.load(folder: folder, variables: ["HOGWARTS_SIGNING_SECRET_FILE": otherFile.path])
        #expect(throws: KernelError.signingSecretMismatch) { try other.open(sealed, kid: "k1") }
        #expect(throws: KernelError.signingSecretMismatch) { try one.open(sealed, kid: "k2") }
    }
}
