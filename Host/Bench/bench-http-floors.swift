import Dispatch
import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// A Hummingbird application running inside the bench on a loopback port, until `stop()`: the
/// floors, and the platform's `APIServer` in-process when a run needs a setting `hogwarts serve`
/// does not offer (a higher sign-in limit).
final class InProcessServer: Sendable {
    let port: Int
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    private init(group: ServiceGroup, task: Task<Void, any Error>, port: Int) {
        self.group = group
        self.task = task
        self.port = port
    }

    /// A router of the floor's own, on a port the system picks.
    static func start(_ router: Router<BasicRequestContext>) throws -> InProcessServer {
        let ready = DispatchSemaphore(value: 0)
        let bound = PortBox()
        let application = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: "floor"),
                                      onServerRunning: { channel in
                                          bound.set(channel.localAddress?.port)
                                          ready.signal()
                                      }, logger: quietLogger)
        let (group, task) = launch(application)
        guard ready.wait(timeout: .now() + 30) == .success, let port = bound.port else {
            try? stop(group, task)
            throw BenchHTTPError("a floor server did not start")
        }
        return InProcessServer(group: group, task: task, port: port)
    }

    /// Any application listening on a known port (one from `LoopbackHTTP.freePort()`), once `/health` answers.
    static func start<App: ApplicationProtocol>(_ application: App, port: Int) throws -> InProcessServer {
        let (group, task) = launch(application)
        do {
            try LoopbackHTTP.waitUntilHealthy(port: port, timeout: 30) { true }
        } catch {
            try? stop(group, task)
            throw error
        }
        return InProcessServer(group: group, task: task, port: port)
    }

    /// Stops accepting, lets requests in flight finish, and waits for the server to end.
    func stop() throws {
        try Self.stop(group, task)
    }

    private static func launch<App: ApplicationProtocol>(_ application: App) -> (ServiceGroup, Task<Void, any Error>) {
        let group = ServiceGroup(configuration: .init(services: [application], gracefulShutdownSignals: [], logger: quietLogger))
        return (group, Task { try await group.run() })
    }

    private static func stop(_ group: ServiceGroup, _ task: Task<Void, any Error>) throws {
        try Blocking.run {
            await group.triggerGracefulShutdown()
            try await task.value
        }
    }

    static let quietLogger: Logger = {
        var logger = Logger(label: "hogwarts-bench.http")
        logger.logLevel = .error
        return logger
    }()

    private final class PortBox: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: Int?
        var port: Int? { lock.withLock { stored } }
        func set(_ value: Int?) { lock.withLock { stored = value } }
    }
}

/// The floors: Hummingbird answering a constant, the bare student list and the bare bulk write.
enum Floors {
    static func helloWorld() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/hello") { _, _ in "Hello, world!" }
        return router
    }

    static func bareStudentList(_ floor: BareStudentList) -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/students") { request, _ in try await floor.respond(to: request) }
        return router
    }

    static func bareBulkWrite(_ floor: BareBulkWrite) -> Router<BasicRequestContext> {
        let router = Router()
        router.post("/attendance/bulk") { request, _ in try await floor.respond(to: request) }
        return router
    }
}
