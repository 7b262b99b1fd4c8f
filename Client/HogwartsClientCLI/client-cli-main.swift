import ArgumentParser
import Foundation
import HogwartsClient

/// `hogwarts-client`: the sync client's command-line face. A person signs in to a school's
/// server, reads and writes against the local copy (with or without a network), and sees what
/// is still queued; tests drive the same commands.
@main
struct HogwartsClientCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hogwarts-client",
        abstract: "Offline-first Hogwarts client: a local copy of your school data and a queue of your changes.",
        discussion: """
            Writes (attendance take, message send) go to the local queue and show at once; `sync` sends
            them in order and brings the server's changes. State lives in --home (default ~/.hogwarts-client).
            """,
        subcommands: [Login.self, Logout.self, Status.self, Sync.self, Pull.self, Outbox.self, Retry.self,
                      Show.self, AttendanceCommands.self, MessageCommands.self])
}

/// Where the state lives and which language the messages are in; every command takes them.
struct ClientOptions: ParsableArguments {
    @Option(help: "The client's state directory (local copy, queue, session).")
    var home: String?

    @Option(help: "Language of messages: ar or en (default: from LANG).")
    var language: String?

    var homeURL: URL {
        if let home { return URL(fileURLWithPath: (home as NSString).expandingTildeInPath) }
        return FileManager.default.homeDirectoryForCurrentUser.appending(path: ".hogwarts-client")
    }

    var clientLanguage: ClientLanguage {
        language.flatMap(ClientLanguage.init(rawValue:)) ?? .fromEnvironment()
    }

    /// The store, created with a private directory (it holds the tokens).
    func openStore() throws -> ClientStore {
        let directory = homeURL
        if !FileManager.default.fileExists(atPath: directory.path) {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        return try ClientStore(path: directory.appending(path: "client.sqlite").path)
    }

    /// A client for the server this home signed in to (any server for offline-only commands).
    func client(server: String? = nil) async throws -> SyncClient {
        let store = try openStore()
        let address = try server ?? SessionInfo.server(in: store)
        guard let address, let url = URL(string: address), url.scheme == "http" || url.scheme == "https" else {
            if let server { throw ClientError.invalidServer(server) }
            return SyncClient(store: store, transport: NoServer())
        }
        return SyncClient(store: store, transport: URLSessionTransport(baseURL: url), serverName: address)
    }

    /// Runs a command body, printing a client error in the chosen language with a non-zero exit.
    func run(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let error as ClientError {
            FileHandle.standardError.write(Data((error.message(clientLanguage) + "\n").utf8))
            throw ExitCode(error.isTransient ? 75 : 1)
        }
    }
}

/// Before any sign-in there is no server to talk to.
struct NoServer: SyncTransport {
    func send(_ request: TransportRequest) async throws -> TransportResponse { throw ClientError.notSignedIn }
}

enum SessionInfo {
    static func server(in store: ClientStore) throws -> String? {
        try store.queue.read { db in try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'server'") }
    }
}

func say(_ line: String) { print(line) }
