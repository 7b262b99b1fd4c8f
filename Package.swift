// swift-tools-version: 6.1
import Foundation
import PackageDescription

/// The feature modules. Each entry is one folder `Modules/<name>/` (a library target) and one
/// `Tests/<name>Tests/` test target. `dependencies` are the other modules it imports; the host
/// picks every module up from this table, so adding a module never touches Core/ or Host/.
/// `swift package --allow-writing-to-package-directory new-module <Name>` appends to it.
let modules: [(name: String, dependencies: [String])] = [
    ("Auth", []),
    ("Students", ["Auth"]),
    ("Timetable", ["Students"]),
    ("Attendance", ["Students"]),
    ("Grades", ["Students"]),
    ("Messages", ["Students"]),
    ("Notifications", ["Students"]),
    ("OneRoster", ["Students"]),
    ("Fees", ["Students"]),
    ("IdCards", ["Auth", "Students"]),
    ("Announcements", ["Auth", "Students"]),
    ("Events", ["Auth", "Students"]),
    // new-module: entries above this line
]

/// Libraries from outside the package that a module uses, by module name.
let moduleLibraries: [String: [Target.Dependency]] = [
    // OpenID Connect: jwt-kit reads a provider's JWKS and checks RS256/ES256 signatures;
    // AsyncHTTPClient fetches its discovery document and keys.
    "Auth": [.product(name: "HummingbirdBcrypt", package: "hummingbird-auth"), .product(name: "JWTKit", package: "jwt-kit"),
             .product(name: "AsyncHTTPClient", package: "async-http-client"), .product(name: "NIOCore", package: "swift-nio"),
             // The console's code flow: the PKCE challenge is a SHA-256 of the verifier.
             .product(name: "Crypto", package: "swift-crypto")],
    "Attendance": [.product(name: "Crypto", package: "swift-crypto")],
    "IdCards": [.product(name: "Crypto", package: "swift-crypto")],
    "OneRoster": [.product(name: "ZIPFoundation", package: "ZIPFoundation")],
    // Push to APNs (HTTP/2 only) and FCM over TLS: AsyncHTTPClient is a maintained HTTP/2 + TLS
    // client rather than a hand-written one (NIOSSL for a test's or private relay's extra CA).
    // swift-crypto signs APNs' ES256 and FCM's RS256 tokens synchronously, as senders run.
    "Notifications": [
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "CryptoExtras", package: "swift-crypto"),
    ],
]

/// Modules a module's tests need besides its own closure: to raise the events it handles, or to
/// check an optional collaboration (attendance periods from Timetable, report cards' attendance).
let moduleTestDependencies: [String: [String]] = [
    // HogwartsSQLite: the write-lane test counts the SQLite engine's group commits.
    "Attendance": ["Timetable", "IdCards", "HogwartsSQLite"],
    "Grades": ["Attendance"],
    "Notifications": ["Attendance", "Grades", "Messages", "Announcements"],
    "OneRoster": ["Grades"],
    "Announcements": ["Notifications"],
    "Events": ["Timetable", "Grades"],
    "Fees": ["Notifications"],
]

let strictSwift6: [SwiftSetting] = [.swiftLanguageMode(.v6)]

/// Every test target may generate its inputs.
let propertyBased: Target.Dependency = .product(name: "PropertyBased", package: "swift-property-based")
/// Every test target may drive the HTTP router without a socket.
let hummingbirdTesting: Target.Dependency = .product(name: "HummingbirdTesting", package: "hummingbird")

let moduleTargets: [Target] = modules.flatMap { module -> [Target] in
    [
        .target(
            name: module.name,
            dependencies: ["Core"] + module.dependencies.map { Target.Dependency(stringLiteral: $0) } + (moduleLibraries[module.name] ?? []),
            path: "Modules/\(module.name)",
            resources: [.copy("Resources")],
            swiftSettings: strictSwift6
        ),
        .testTarget(
            name: "\(module.name)Tests",
            dependencies: [.target(name: module.name), "HogwartsTestSupport", propertyBased, hummingbirdTesting]
                + (moduleTestDependencies[module.name] ?? []).map { Target.Dependency(stringLiteral: $0) },
            path: "Tests/\(module.name)Tests",
            swiftSettings: strictSwift6
        ),
    ]
}

let package = Package(
    name: "Hogwarts",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "hogwarts", targets: ["Host"]),
        .executable(name: "hogwarts-bench", targets: ["HogwartsBench"]),
        // The SDK an outside module package builds against (Examples/OutOfTreeModule, docs/adding-a-module.md):
        // the kernel, every built-in module, the host as a library and the test support.
        .library(name: "Core", targets: ["Core"]),
        // The kernel's layers one by one, for a package that needs less than all of them.
        .library(name: "HogwartsBase", targets: ["HogwartsBase"]),
        .library(name: "HogwartsKernel", targets: ["HogwartsKernel"]),
        .library(name: "HogwartsHTTP", targets: ["HogwartsHTTP"]),
        .library(name: "HogwartsSync", targets: ["HogwartsSync"]),
        .library(name: "HogwartsConsole", targets: ["HogwartsConsole"]),
        .library(name: "HogwartsCLI", targets: ["HogwartsCLI"]),
        .library(name: "HogwartsHost", targets: ["HogwartsHost"]),
        .library(name: "HogwartsTestSupport", targets: ["HogwartsTestSupport"]),
        // The header a loadable module's one C file includes (Examples/LoadableModule).
        .library(name: "HogwartsModuleABI", targets: ["HogwartsModuleABI"]),
        // The offline sync client an app embeds (speaks the wire protocol only), and its command line.
        .library(name: "HogwartsClient", targets: ["HogwartsClient"]),
        // The sync wire shapes alone (Foundation only), shared by the server and the client.
        .library(name: "HogwartsSyncWire", targets: ["HogwartsSyncWire"]),
        .executable(name: "hogwarts-client", targets: ["HogwartsClientCLI"]),
        .plugin(name: "NewModule", targets: ["NewModule"]),
    ] + modules.map { .library(name: $0.name, targets: [$0.name]) },
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.1.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        // The HTTP API: server, graceful shutdown on SIGTERM, access tokens, metrics.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.7.0"),
        // Push notifications: APNs needs HTTP/2 over TLS, FCM HTTPS (Notifications only).
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // Generated inputs for the tests (CSV importers, number and date parsing, grade scales).
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.0"),
        // The web console's pages: logic-less HTML templates, escaped by default, no build step.
        .package(url: "https://github.com/hummingbird-project/swift-mustache", exact: "2.1.1"),
        // OneRoster sets arrive and leave as zip files (RFC 1951 deflate), which Foundation cannot read or write on Linux.
        .package(url: "https://github.com/weichsel/ZIPFoundation", exact: "0.9.20"),
    ],
    targets: ([
        // The kernel in layers; each arrow below is an import the compiler enforces.
        // HogwartsBase: the words every layer speaks (errors, roles, versions, civil dates) and the
        // storage seam the engines implement, without knowing modules or actions.
        .target(
            name: "HogwartsBase",
            dependencies: [.product(name: "Crypto", package: "swift-crypto")],
            path: "Core/Base",
            swiftSettings: strictSwift6
        ),
        // The storage engines, each the only code that knows its driver.
        .target(
            name: "HogwartsSQLite",
            dependencies: ["HogwartsBase", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Core/SQLite",
            swiftSettings: strictSwift6
        ),
        .target(
            name: "HogwartsPostgreSQL",
            dependencies: ["HogwartsBase", "CLibPQ"],
            path: "Core/PostgreSQL",
            swiftSettings: strictSwift6
        ),
        // The transport-free kernel: registry, actions, access, tenancy, events, settings, strings,
        // the change log offline sync reads, and the opening of a database by its URL (hence the engines).
        .target(
            name: "HogwartsKernel",
            dependencies: ["HogwartsBase", "HogwartsSQLite", "HogwartsPostgreSQL",
                           .product(name: "Crypto", package: "swift-crypto"), .product(name: "Logging", package: "swift-log")],
            path: "Core/Kernel",
            resources: [.copy("Resources")],
            swiftSettings: strictSwift6
        ),
        // The HTTP API: routes, dispatch, tokens, limits, metrics, live events.
        .target(
            name: "HogwartsHTTP",
            dependencies: ["HogwartsKernel", "HogwartsPostgreSQL", "HogwartsSyncWire",
                           .product(name: "Hummingbird", package: "hummingbird"),
                           .product(name: "HTTPTypes", package: "swift-http-types"),
                           .product(name: "JWTKit", package: "jwt-kit"),
                           .product(name: "Logging", package: "swift-log"),
                           .product(name: "NIOCore", package: "swift-nio"),
                           .product(name: "NIOPosix", package: "swift-nio"),
                           .product(name: "Prometheus", package: "swift-prometheus"),
                           .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")],
            path: "Core/HTTP",
            swiftSettings: strictSwift6
        ),
        // Offline sync: push, pull and snapshots over the API's routes.
        .target(
            name: "HogwartsSync",
            dependencies: ["HogwartsKernel", "HogwartsHTTP", "HogwartsSyncWire"],
            path: "Core/Sync",
            swiftSettings: strictSwift6
        ),
        // The web console: pages from the modules, served beside the API.
        .target(
            name: "HogwartsConsole",
            dependencies: ["HogwartsKernel", "HogwartsHTTP", "HogwartsSyncWire",
                           .product(name: "Hummingbird", package: "hummingbird"),
                           .product(name: "HTTPTypes", package: "swift-http-types"),
                           .product(name: "Mustache", package: "swift-mustache"),
                           .product(name: "Crypto", package: "swift-crypto"),
                           .product(name: "NIOCore", package: "swift-nio"),
                           .product(name: "NIOPosix", package: "swift-nio")],
            path: "Core/Console",
            resources: [.copy("Resources")],
            swiftSettings: strictSwift6
        ),
        // The command line, and `serve`, which assembles the API, sync and the console.
        .target(
            name: "HogwartsCLI",
            dependencies: ["HogwartsKernel", "HogwartsPostgreSQL", "HogwartsHTTP", "HogwartsSync", "HogwartsConsole",
                           .product(name: "ArgumentParser", package: "swift-argument-parser"),
                           .product(name: "Hummingbird", package: "hummingbird"),
                           .product(name: "Logging", package: "swift-log"),
                           .product(name: "NIOPosix", package: "swift-nio"),
                           .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")],
            path: "Core/CLI",
            swiftSettings: strictSwift6
        ),
        // Every layer under one name: what a module imports (`import Core`).
        .target(
            name: "Core",
            dependencies: ["HogwartsBase", "HogwartsKernel", "HogwartsHTTP", "HogwartsSync", "HogwartsConsole", "HogwartsCLI"],
            path: "Core/Umbrella",
            swiftSettings: strictSwift6
        ),
        // libpq, PostgreSQL's own C client: the PostgreSQL engine's driver. Its header at build
        // time (Debian's `libpq-dev`); the library (`libpq5`) is loaded on the first PostgreSQL
        // connection, not linked, so a process on SQLite does not load its ~22 shared libraries.
        .target(
            name: "CLibPQ",
            path: "Drivers/CLibPQ",
            linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]
        ),
        // The host as a library (`HogwartsHost.main(modules:)`): what an outside package's own host calls.
        .target(
            name: "HogwartsHost",
            dependencies: ["Core", "HogwartsModuleABI"] + modules.map { Target.Dependency(stringLiteral: $0.name) },
            path: "Host/Library",
            swiftSettings: strictSwift6,
            plugins: ["ModuleListGenerator"]
        ),
        // The handshake block a loadable module carries and the host checks before touching any
        // Swift type in it (PostgreSQL's PG_MODULE_MAGIC is the precedent).
        .target(
            name: "HogwartsModuleABI",
            path: "Drivers/HogwartsModuleABI"
        ),
        .executableTarget(
            name: "Host",
            dependencies: ["HogwartsHost"],
            path: "Host",
            exclude: ["Bench", "Library"],
            swiftSettings: strictSwift6,
            // The kernel's symbols are exported, as postgres and nginx export theirs (-Wl,-E): a
            // loadable module leaves them unresolved and binds to the host's one copy at load.
            linkerSettings: [.unsafeFlags(["-Xlinker", "--export-dynamic"], .when(platforms: [.linux]))]
        ),
        .executableTarget(
            name: "HogwartsBench",
            dependencies: ["Core", "Auth", "Students", "Timetable", "Attendance", "Grades", "Messages", "OneRoster", "Fees",
                           .product(name: "GRDB", package: "GRDB.swift"),
                           .product(name: "ArgumentParser", package: "swift-argument-parser"),
                           // `--http`: the floors (Hummingbird hello-world and a bare student list) beside `hogwarts serve`.
                           .product(name: "Hummingbird", package: "hummingbird"),
                           .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                           .product(name: "JWTKit", package: "jwt-kit"),
                           .product(name: "NIOCore", package: "swift-nio"),
                           .product(name: "NIOPosix", package: "swift-nio"),
                           .product(name: "Logging", package: "swift-log"),
                           // `--sync-fuzz`: the full sync fuzz.
                           "HogwartsSyncFuzz",
                           // `--database postgres://...`: the PostgreSQL floors, through libpq directly, in a scratch schema.
                           "CLibPQ", "HogwartsPostgreSQL",
                           // `--delivery`: the tests' APNs stand-in, and its floor posted straight with AsyncHTTPClient.
                           "Notifications", "HogwartsTestSupport",
                           .product(name: "AsyncHTTPClient", package: "async-http-client"), .product(name: "NIOSSL", package: "swift-nio-ssl")],
            path: "Host/Bench",
            swiftSettings: strictSwift6
        ),
        .plugin(
            name: "ModuleListGenerator",
            capability: .buildTool(),
            dependencies: ["GenerateModuleList"],
            path: "Plugins/ModuleListGenerator"
        ),
        .executableTarget(
            name: "GenerateModuleList",
            path: "Plugins/GenerateModuleList",
            swiftSettings: strictSwift6
        ),
        .plugin(
            name: "NewModule",
            capability: .command(
                intent: .custom(verb: "new-module", description: "Scaffold a Hogwarts feature module and its tests"),
                permissions: [.writeToPackageDirectory(reason: "Creates Modules/<Name>/, Tests/<Name>Tests/ and registers the module in Package.swift")]
            ),
            path: "Plugins/NewModule"
        ),
        .target(
            name: "HogwartsTestSupport",
            // HogwartsPostgreSQL: a test's scratch schema on the shared server.
            dependencies: ["Core", "HogwartsPostgreSQL", hummingbirdTesting, .product(name: "HTTPTypes", package: "swift-http-types"),
                           .product(name: "Logging", package: "swift-log")],
            path: "Tests/Support",
            swiftSettings: strictSwift6
        ),
        .testTarget(
            name: "CoreTests",
            // The engines: their own tests, and the data-safety tests' backups and commit counts.
            dependencies: ["Core", "HogwartsSQLite", "HogwartsPostgreSQL", "HogwartsTestSupport", propertyBased, hummingbirdTesting, .product(name: "GRDB", package: "GRDB.swift")],
            path: "Tests/CoreTests",
            swiftSettings: strictSwift6
        ),
        // Runs the built binary end to end, and walks every built-in module's actions in-process
        // (the same generated module list as the host's, so a new module is walked too).
        .testTarget(
            name: "HostTests",
            // HogwartsClient: the live tests listen through the client library's `LiveEvents`, as an app does.
            // HogwartsPostgreSQL: the outage and demo-copy tests make scratch schemas on the shared server.
            dependencies: ["Core", "HogwartsPostgreSQL", "HogwartsTestSupport", "HogwartsClient", hummingbirdTesting, .product(name: "GRDB", package: "GRDB.swift")]
                + modules.map { Target.Dependency(stringLiteral: $0.name) },
            path: "Tests/HostTests",
            // Read from the package root (upgrade-tests.swift), not as a resource.
            exclude: ["Fixtures"],
            swiftSettings: strictSwift6,
            plugins: ["ModuleListGenerator"]
        ),
        // The sync wire shapes, defined once: Core's sync routes and the client library both use them.
        .target(
            name: "HogwartsSyncWire",
            path: "Core/SyncWire",
            swiftSettings: strictSwift6
        ),
        // The sync client: no Core or module dependency, so an app links only Foundation and GRDB.
        .target(
            name: "HogwartsClient",
            dependencies: ["HogwartsSyncWire", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Client/HogwartsClient",
            swiftSettings: strictSwift6
        ),
        .executableTarget(
            name: "HogwartsClientCLI",
            dependencies: ["HogwartsClient", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Client/HogwartsClientCLI",
            swiftSettings: strictSwift6
        ),
        // The sync fuzz (devices, a nemesis, server restarts, the checks): one model that the client
        // tests run small in CI and `hogwarts-bench --sync-fuzz` runs at full size.
        .target(
            name: "HogwartsSyncFuzz",
            dependencies: ["HogwartsClient", "Core", .product(name: "GRDB", package: "GRDB.swift"),
                           .product(name: "Hummingbird", package: "hummingbird"), .product(name: "HTTPTypes", package: "swift-http-types"),
                           .product(name: "Logging", package: "swift-log"), .product(name: "NIOCore", package: "swift-nio"),
                           .product(name: "NIOEmbedded", package: "swift-nio")]
                + modules.map { Target.Dependency(stringLiteral: $0.name) },
            path: "Client/HogwartsSyncFuzz",
            swiftSettings: strictSwift6
        ),
        // Unit tests against a fake server; integration and fuzz tests against the real router in-process.
        .testTarget(
            name: "HogwartsClientTests",
            dependencies: ["HogwartsClient", "HogwartsSyncFuzz", "Core", "HogwartsTestSupport", hummingbirdTesting, .product(name: "GRDB", package: "GRDB.swift")]
                + modules.map { Target.Dependency(stringLiteral: $0.name) },
            path: "Tests/HogwartsClientTests",
            swiftSettings: strictSwift6
        ),
    ] + moduleTargets).filter { target in
        // A copy of the package that carries only some of its test folders builds only those: the
        // scaffold's test builds a copy with the tests it runs, not every suite a second time.
        target.type != .test || FileManager.default.fileExists(atPath: Context.packageDirectory + "/" + (target.path ?? "Tests/\(target.name)"))
    }
)
