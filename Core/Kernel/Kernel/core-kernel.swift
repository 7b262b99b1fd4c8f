import Foundation
import Logging
import Synchronization
import HogwartsBase

/// The running platform: one database file, the resolved modules, and the services every
/// transport (CLI today, HTTP and sync later) calls. It knows no feature by name.
public final class Kernel: Sendable {
    public let registry: ModuleRegistry
    public let localizer: Localizer
    public let databasePath: String
    package let store: KernelStore
    package let logger: Logger
    package let now: @Sendable () -> Date
    /// Whether deliveries may be waiting that no run of this process will store: true at start
    /// (a process that stopped after its commit leaves them), and while a handler waits to be retried.
    let deliveriesMayWait = Mutex(true)
    /// Whether this process has found every declared migration applied (`requireMigrated`).
    let migrationsComplete = Mutex(false)
    /// Rung after a commit that stored live events (`/api/v1/live`).
    package let liveBell = LiveBell()
    /// What seals the API signing keys (`SigningKeySeal`), read at first need.
    let signingSeal = Mutex<SigningKeySeal?>(nil)

    /// Resolves the module graph and opens (or creates) the database file in WAL mode.
    /// Migrations are not applied here: see `migrate()`.
    public convenience init(
        databasePath: String,
        modules: [any AppModule],
        language: Language = .default,
        logger: Logger = Logger(label: "hogwarts", factory: { _ in SwiftLogNoOpLogHandler() }),
        clock: @escaping @Sendable () -> Date = { Date() }
    ) throws {
        try self.init(databasePath: databasePath, registry: try ModuleRegistry(modules), language: language, logger: logger, clock: clock)
    }

    /// Opens the database for an already-resolved registry (the CLI resolves it once, before parsing).
    /// - Parameter createIfMissing: false refuses a database file that does not exist (`databaseMissing`).
    public init(
        databasePath: String,
        registry: ModuleRegistry,
        language: Language = .default,
        logger: Logger = Logger(label: "hogwarts", factory: { _ in SwiftLogNoOpLogHandler() }),
        clock: @escaping @Sendable () -> Date = { Date() },
        createIfMissing: Bool = true
    ) throws {
        self.registry = registry
        localizer = Localizer(language: language, catalog: registry.catalog)
        self.databasePath = databasePath
        store = try KernelStore(location: databasePath, recorder: ChangeRecorder(registry: registry, now: clock), createIfMissing: createIfMissing)
        self.logger = logger
        now = clock
        if let mode = FileSafety.exposedMode(of: databasePath) {
            logger.warning("\(localizer("kernel.warning.database-readable", ["path": databasePath, "mode": FileSafety.octal(mode)]))")
        }
    }

    /// The folder that holds the database file (a server database: the working directory): file-path settings resolve here.
    public var databaseFolder: URL { store.engine.folder }
}
