import ArgumentParser
import Dispatch
import Foundation
import Hummingbird
import Logging
import NIOPosix
import HogwartsHTTP

/// `hogwarts serve`: the HTTP API on Hummingbird, and the background work (event deliveries, the
/// modules' jobs). SIGTERM or SIGINT stops accepting, lets the requests in flight finish, then exits 0.
struct ServeCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "serve", abstract: L("kernel.cli.serve"))
    }

    @OptionGroup var global: GlobalOptions
    @Option(name: .customLong("host"), help: ArgumentHelp(L("kernel.option.host")))
    var host: String = CommandEnvironment.current.variables["HOGWARTS_HOST"] ?? Self.defaultHost
    @Option(name: .customLong("port"), help: ArgumentHelp(L("kernel.option.port")))
    var port: String = CommandEnvironment.current.variables["HOGWARTS_PORT"] ?? Self.defaultPort
    @Option(name: .customLong("threads"), help: ArgumentHelp(L("kernel.option.threads")))
    var threads: String?
    @Flag(name: .customLong("migrate"), help: ArgumentHelp(L("kernel.option.serve-migrate")))
    var migrate = false

    static let defaultHost = "127.0.0.1"
    static let defaultPort = "8080"

    /// A port as `--port` and `HOGWARTS_PORT` take it.
    static func port(_ text: String) throws -> Int {
        try ArgumentValue.integer(text, option: "--port", in: 0...65535)
    }

    func run() throws {
        let port = try Self.port(port)
        let threads = try threads.map { try ArgumentValue.integer($0, option: "--threads", in: 1...256) } ?? APIServer.defaultThreads
        // A mistyped proxy range would silently trust no one (or the wrong peers): refuse it.
        _ = try TrustedProxies.fromEnvironment(CommandEnvironment.current.variables)
        // An unmigrated, older or newer database is refused here, in one sentence, before
        // anything listens; `--migrate` brings an older one up to date first (never a newer one).
        let kernel = try global.openKernel(migrate ? .anyVersion : .current)
        if migrate {
            try kernel.migrate(progress: ProgressLine.reporter())
            try kernel.requireCurrentSchema()
        }
        var logger = Logger(label: "hogwarts.http") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = Logger.Level(rawValue: global.logLevel.lowercased()).map { min($0, .info) } ?? .info
        let pool = NIOThreadPool(numberOfThreads: threads)
        pool.start()
        let server = APIServer(kernel: kernel, threadPool: pool)
        let host = host
        let serverLogger = logger
        let background = BackgroundWork(kernel: kernel, threadPool: pool)
        let outcome = BlockingRun.run {
            try await server.prepare()
            // Events and outboxes are delivered here, on every server at once (their rows are
            // claimed), so no cron job is needed. They stop when the server does.
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await server.application(host: host, port: port, logger: serverLogger).runService() }
                group.addTask { await background.run() }
                try await group.next()
                group.cancelAll()
            }
        }
        try? pool.syncShutdownGracefully()
        try outcome.get()
    }
}

/// Runs async work to its end from a synchronous command (the CLI's main thread is not part of
/// Swift's cooperative pool, so waiting on it here blocks nothing the work needs).
enum BlockingRun {
    static func run(_ work: @escaping @Sendable () async throws -> Void) -> Result<Void, any Error> {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox()
        Task {
            do { try await work() } catch { box.set(.failure(error)) }
            done.signal()
        }
        done.wait()
        return box.result
    }

    private final class ResultBox: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: Result<Void, any Error> = .success(())
        var result: Result<Void, any Error> { lock.withLock { stored } }
        func set(_ value: Result<Void, any Error>) { lock.withLock { stored = value } }
    }
}

/// `hogwarts keys rotate`: signs new API tokens with a new key; tokens signed with the previous
/// key stay valid until they expire.
struct KeysCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "keys", abstract: L("kernel.cli.keys"), subcommands: [Rotate.self])
    }

    struct Rotate: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(commandName: "rotate", abstract: L("kernel.cli.keys.rotate"))
        }

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let kernel = try global.openKernel()
            try kernel.rotateSigningKey()
            try global.output.emit(["rotated": true]) { _ in L("kernel.keys.rotated") }
        }
    }
}
