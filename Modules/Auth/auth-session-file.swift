import Core
import Foundation

/// The client side of a session: the token kept in the user's config directory, in a file only
/// they can read (mode 0600, the Linux stand-in for the Keychain), one entry per database file.
struct SessionFile {
    struct Entry: Codable, Equatable {
        let schoolID: SchoolID
        let email: String
        let token: String
    }

    let url: URL

    /// In `ConfigDirectory`: `HOGWARTS_CONFIG_DIR`, else `$XDG_CONFIG_HOME/hogwarts`, else `~/.config/hogwarts`.
    init(variables: [String: String]) {
        url = ConfigDirectory.resolve(variables).url.appending(path: "sessions.json")
    }

    static func key(for databasePath: String) -> String {
        URL(filePath: databasePath).standardizedFileURL.path
    }

    /// The session for a database. Warns on stderr first when other users can read the file.
    func entry(for databasePath: String) -> Entry? {
        if let mode = exposedMode() {
            let warning = L("auth.warning.session-file-exposed", ["path": url.path, "mode": String(mode, radix: 8)])
            FileHandle.standardError.write(Data("hogwarts: \(warning)\n".utf8))
        }
        return entries()[Self.key(for: databasePath)]
    }

    /// The file's permission bits when it exists and its group or others have any permission
    /// on it (it holds live sign-in tokens); nil when it is private or absent.
    func exposedMode() -> Int? {
        FileSafety.exposedMode(of: url.path).map(Int.init)
    }

    func save(_ entry: Entry?, for databasePath: String) throws {
        var all = entries()
        all[Self.key(for: databasePath)] = entry
        let directory = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(all)
        // Written beside the target, created 0600 (never readable by others, not even for a
        // moment), then moved over it atomically.
        let temporary = directory.appending(path: ".sessions-\(UUID().uuidString).json")
        try FileSafety.writePrivateFile(data, to: temporary.path)
        guard rename(temporary.path, url.path) == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            throw KernelError.storage("cannot replace \(url.path): \(String(cString: strerror(errno)))")
        }
    }

    private func entries() -> [String: Entry] {
        guard let data = try? Data(contentsOf: url) else { return [:] }
        return (try? JSONDecoder().decode([String: Entry].self, from: data)) ?? [:]
    }
}

/// Runs every module command as the signed-in user, in their school, with their role.
struct SessionIdentityProvider: IdentityProvider {
    func currentPrincipal(kernel: Kernel, variables: [String: String]) throws -> Principal? {
        guard let entry = SessionFile(variables: variables).entry(for: kernel.databasePath) else { throw AuthError.notSignedIn }
        let resolved = try kernel.run(ResolveSession.self, .init(token: entry.token), as: .anonymous, in: entry.schoolID)
        switch resolved.state {
        case .valid:
            guard let user = resolved.user else { throw AuthError.notSignedIn }
            return Principal(userID: user.id, role: user.role, schoolID: entry.schoolID, displayName: user.displayName)
        case .expired: throw AuthError.sessionExpired
        case .invalid: throw AuthError.notSignedIn
        }
    }

    func currentUser(kernel: Kernel, school: SchoolID, userID: String) throws -> IdentifiedUser? {
        guard let user = try kernel.run(CurrentUser.self, .init(userID: userID), as: .anonymous, in: school) else { return nil }
        return IdentifiedUser(principal: Principal(userID: user.id, role: user.role, schoolID: school, displayName: user.displayName), email: user.email)
    }
}

/// Reads a password without echo from a terminal, or one line from standard input, so it never
/// lands in the shell history.
enum PasswordInput {
    static func read(prompt: String) throws -> String {
        if isatty(STDIN_FILENO) == 1, let typed = getpass(prompt + " ") {
            return String(cString: typed)
        }
        guard let line = readLine(strippingNewline: true) else { throw AuthError.passwordUnreadable }
        return line
    }
}
