import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOPosix
import Synchronization
import HogwartsBase
import HogwartsKernel

/// The request context of the API: Hummingbird's, plus the caller's address.
public struct APIContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: String
    /// Filled in by the route (the caller's school), read by the log line after it answers.
    package let facts = RequestFacts()
    /// Who is calling, put here by `APIAuthenticator` before the route runs.
    public var caller: APICaller = .anonymous
    /// The largest body the API reads; more is 413.
    public var maxUploadSize: Int { APIServer.maximumBodySize }

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress?.ipAddress ?? "unknown"
    }

    /// The client's address: the socket's peer, or behind a trusted proxy the address it
    /// forwarded for (`HOGWARTS_TRUSTED_PROXIES`). Limits, audit and logs use this one.
    public func clientAddress(of request: Request) -> String {
        TrustedProxies.configured.clientAddress(peer: remoteAddress, headers: request.headers)
    }
}

/// What a route learns about a request that the log line reports: contexts are values, so the
/// route and the middleware share this one box.
package final class RequestFacts: Sendable {
    private let school = Mutex<SchoolID?>(nil)

    package var schoolID: SchoolID? {
        get { school.withLock { $0 } }
        set { school.withLock { $0 = newValue } }
    }
}

/// The HTTP API in one readable place: the kernel's own routes, every module's routes, and
/// the middleware that logs, measures and answers errors in one JSON shape.
public struct APIServer: Sendable {
    /// Kernel threads: one more than the cores, so reads keep every core busy while a writer
    /// waits for the single writer; more only switch between each other. Measured on 2 cores
    /// (`hogwarts-bench --http --threads`): 3 threads against 4 took the class register from
    /// 6,000 to 6,400 req/s and its p99 from 22 to 18 ms, the student list from 8,700 to 10,500.
    public static var defaultThreads: Int { max(3, ProcessInfo.processInfo.activeProcessorCount + 1) }

    public static let maximumBodySize = 1 << 20

    /// `HOGWARTS_CONSOLE_SECURE=1` (exactly): the console's cookies are `Secure` even without `X-Forwarded-Proto: https`.
    public static func consoleAlwaysSecure(_ variables: [String: String]) -> Bool {
        variables["HOGWARTS_CONSOLE_SECURE"] == "1"
    }

    public let kernel: Kernel
    public let tokens: AccessTokens
    public let metrics: APIMetrics
    package let threadPool: NIOThreadPool
    package let signInLimiter: RateLimiter
    let switches: ModuleSwitchCache
    /// The node's live streams (`/api/v1/live`).
    package let live: LiveHub

    /// What the layers above HTTP serve on the same router (sync's routes, the web console).
    let extensions: [any ServerExtension]

    /// The API alone, with what the layers above it bring: `APIServer(kernel:threadPool:)` of
    /// the CLI layer adds offline sync and the console, as `hogwarts serve` runs them.
    /// - Parameter threadPool: where the synchronous kernel runs; started by the caller.
    public init(kernel: Kernel, threadPool: NIOThreadPool, signInLimit: RateLimiter.Limit = .signIn, extensions: [any ServerExtension]) {
        self.kernel = kernel
        self.extensions = extensions
        self.threadPool = threadPool
        tokens = AccessTokens(kernel: kernel, threadPool: threadPool)
        metrics = APIMetrics()
        signInLimiter = RateLimiter("sign-in", limit: signInLimit, kernel: kernel, threadPool: threadPool)
        switches = ModuleSwitchCache(kernel: kernel, threadPool: threadPool)
        live = LiveHub(kernel: kernel, threadPool: threadPool, interval: LiveHub.interval(ProcessInfo.processInfo.environment))
    }

    /// Work done once before listening: the signing keys (the first one is made here).
    public func prepare() async throws {
        try await tokens.prepare()
    }

    /// Every route: the kernel's and the layers' above, then each module's in dependency order.
    public var routes: [(module: ModuleID?, route: APIRoute)] {
        (KernelRoutes(server: self).all + extensions.flatMap { $0.routes(self) }).map { (nil, $0) } + kernel.registry.modules.flatMap { module in module.contributedRoutes.map { (module.id, $0) } }
    }

    /// The router with every route and middleware; also what tests drive without a socket.
    public func router() -> Router<APIContext> {
        let router = Router(context: APIContext.self)
        let all = routes
        router.add(middleware: APIObservationMiddleware(kernel: kernel, metrics: metrics, methods: RouteMethods(all.map(\.route))))
        router.add(middleware: APIAuthenticator(tokens: tokens))
        for (module, route) in all {
            let dispatcher = RouteDispatcher(server: self, module: module, route: route)
            router.on(RouterPath(route.path), method: HTTPRequest.Method(rawValue: route.method.rawValue) ?? .get) { request, context in
                try await dispatcher.respond(to: request, context: context)
            }
        }
        for serverExtension in extensions { serverExtension.mount(on: router, server: self) }
        return router
    }

    /// The application, listening on `host:port` once run.
    public func application(host: String, port: Int, logger: Logger) -> some ApplicationProtocol {
        Application(router: router(), configuration: .init(address: .hostname(host, port: port), serverName: "hogwarts"), logger: logger)
    }
}

/// Which methods each route path takes, to answer a known path with another method 405 and
/// `Allow`, instead of the router's 404.
struct RouteMethods: Sendable {
    private let patterns: [(segments: [Substring], methods: [String])]

    init(_ routes: [APIRoute]) {
        var byPath: [String: [String]] = [:]
        for route in routes { byPath[route.path, default: []].append(route.method.rawValue) }
        patterns = byPath.map { (path, methods) in (path.split(separator: "/"), methods.sorted()) }
    }

    /// The methods the path takes, empty when no route has this path.
    func allowed(for path: String) -> [String] {
        let segments = path.split(separator: "?", maxSplits: 1).first.map { $0.split(separator: "/") } ?? []
        return patterns.filter { pattern in
            pattern.segments.count == segments.count
                && zip(pattern.segments, segments).allSatisfy { $0.hasPrefix(":") || $0 == $1 }
        }.flatMap(\.methods)
    }
}

/// Routes and pages a layer above HTTP serves beside the API (HogwartsSync's routes, the web
/// console of HogwartsConsole): HTTP knows neither, and they reach the kernel through the server.
public protocol ServerExtension: Sendable {
    /// Routes dispatched like the kernel's own: access checked, errors answered in one shape.
    func routes(_ server: APIServer) -> [APIRoute]
    /// Anything else the layer puts on the router (the console's pages at `/`).
    func mount(on router: Router<APIContext>, server: APIServer)
}

extension ServerExtension {
    public func routes(_ server: APIServer) -> [APIRoute] { [] }
    public func mount(on router: Router<APIContext>, server: APIServer) {}
}
