import Crypto
import Foundation
import HogwartsBase

/// Seals the API signing keys before they reach the database (AES-GCM, the key's id as
/// associated data), so the database, a copy of it or a backup holds no usable key. Every server
/// on one database must have the same sealing secret: from the service manager (systemd
/// `LoadCredential=signing-secret:FILE`, read from `$CREDENTIALS_DIRECTORY`), else the file named
/// by `HOGWARTS_SIGNING_SECRET_FILE`, else `hogwarts-signing.secret` in the database's folder,
/// made (0600) at first need. It is never in the database, so never in its backups.
package struct SigningKeySeal: Sendable {
    package static let prefix = "aes-gcm:"
    package static let fileName = "hogwarts-signing.secret"
    static let credentialName = "signing-secret"
    /// The secret file's shortest accepted length: 32 bytes, as a key would be.
    static let minimumSecret = 32

    let key: SymmetricKey

    /// The sealing secret's file, made in `folder` when neither the service manager nor the
    /// environment names one.
    package static func load(folder: URL, variables: [String: String] = ProcessInfo.processInfo.environment) throws -> SigningKeySeal {
        let named = variables["CREDENTIALS_DIRECTORY"].map { URL(filePath: $0).appending(path: credentialName) }
            .flatMap { FileManager.default.fileExists(atPath: $0.path) ? $0 : nil }
            ?? variables["HOGWARTS_SIGNING_SECRET_FILE"].map { URL(filePath: $0) }
        let file = named ?? folder.appending(path: fileName)
        if named == nil { try makeIfMissing(file) }
        guard let secret = FileManager.default.contents(atPath: file.path), secret.count >= minimumSecret else {
            throw KernelError.signingSecretUnreadable(file.path)
        }
        return SigningKeySeal(key: SymmetricKey(data: SHA256.hash(data: secret)))
    }

    package func seal(_ secret: Data, kid: String) throws -> String {
        let box = try AES.GCM.seal(secret, using: key, authenticating: Data(kid.utf8))
        guard let combined = box.combined else { throw KernelError.storage("AES-GCM without a combined form") }
        return Self.prefix + combined.base64EncodedString()
    }

    /// The key's secret, and whether it was stored in plain (made before keys were sealed).
    package func open(_ stored: String, kid: String) throws -> (secret: Data, plain: Bool)? {
        guard stored.hasPrefix(Self.prefix) else { return Data(base64Encoded: stored).map { ($0, true) } }
        guard let combined = Data(base64Encoded: String(stored.dropFirst(Self.prefix.count))) else { return nil }
        do {
            return (try AES.GCM.open(AES.GCM.SealedBox(combined: combined), using: key, authenticating: Data(kid.utf8)), false)
        } catch {
            throw KernelError.signingSecretMismatch
        }
    }

    /// Writes a new random secret beside the database, readable by its owner only. Made under a
    /// temporary name and linked into place, so servers starting together agree on one.
    private static func makeIfMissing(_ file: URL) throws {
        guard !FileManager.default.fileExists(atPath: file.path) else { return }
        var generator = SystemRandomNumberGenerator()
        let secret = Data((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }).base64EncodedString()
        let temporary = file.deletingLastPathComponent().appending(path: ".\(fileName).\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: temporary.path, contents: Data(secret.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw KernelError.signingSecretUnreadable(file.path)
        }
        defer { unlink(temporary.path) }
        if link(temporary.path, file.path) != 0, errno != EEXIST { throw KernelError.signingSecretUnreadable(file.path) }
    }
}
