import NIOPosix
import HogwartsKernel
import HogwartsHTTP
import HogwartsSync
import HogwartsConsole

extension APIServer {
    /// The server `hogwarts serve` runs: the API, offline sync and the web console.
    /// - Parameter threadPool: where the synchronous kernel runs; started by the caller.
    public init(kernel: Kernel, threadPool: NIOThreadPool, signInLimit: RateLimiter.Limit = .signIn) {
        self.init(kernel: kernel, threadPool: threadPool, signInLimit: signInLimit,
                  extensions: [SyncServerExtension(), ConsoleServerExtension()])
    }

    /// The same on NIO's shared thread pool, for tests and tools that do not size their own.
    public init(kernel: Kernel) {
        self.init(kernel: kernel, threadPool: .singleton)
    }
}
