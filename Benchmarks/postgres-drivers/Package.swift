// swift-tools-version: 6.1
import PackageDescription

/// The driver comparison behind the PostgreSQL engine's choice of libpq (issue 13): the
/// benchmark's attendance day floor through libpq, and through PostgresNIO behind a synchronous
/// bridge. A package of its own, so that the main build never compiles PostgresNIO and its
/// dependencies. `swift run -c release postgres-drivers postgres://postgres@127.0.0.1:5433/bench`
let package = Package(
    name: "postgres-drivers",
    platforms: [.macOS(.v14)],
    products: [.executable(name: "postgres-drivers", targets: ["PostgresDrivers"])],
    dependencies: [
        // Resolved from the local package copies (git's `insteadOf` for github.com).
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.3"),
    ],
    targets: [
        // libpq as the main package links it (Drivers/CLibPQ): a target's path must lie inside its package.
        .systemLibrary(name: "CLibPQ", path: "Sources/CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .executableTarget(
            name: "PostgresDrivers",
            dependencies: [
                "CLibPQ",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/PostgresDrivers",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
