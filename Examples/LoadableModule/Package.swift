// swift-tools-version: 6.1
import Foundation
import PackageDescription

/// The Hogwarts package this module builds against: HOGWARTS_PACKAGE_PATH, or this repository
/// where the example stands. SwiftPM names a package depended on by path after its folder.
let hogwartsPath = Context.environment["HOGWARTS_PACKAGE_PATH"] ?? "../.."
let hogwarts = URL(fileURLWithPath: hogwartsPath, relativeTo: URL(fileURLWithPath: Context.packageDirectory, isDirectory: true))
    .standardizedFileURL.lastPathComponent

/// READING_NEEDS_TRANSPORT=1 builds a variant that needs a module no host has: the host's
/// refusal of it is tested (Tests/HostTests/loadable-module-tests.swift).
let readingSettings: [SwiftSetting] = [.swiftLanguageMode(.v6)]
    + (Context.environment["READING_NEEDS_TRANSPORT"] == "1" ? [.define("READING_NEEDS_TRANSPORT")] : [])

/// Reading, a module the `hogwarts` host loads from its modules folder. `build-loadable.sh`
/// compiles these two targets and links the shared object from their objects alone.
let package = Package(
    name: "Reading",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "Reading", targets: ["Reading", "ReadingEntry"]),
    ],
    dependencies: [
        .package(path: hogwartsPath),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .target(
            name: "Reading",
            dependencies: [.product(name: "Core", package: hogwarts), .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: readingSettings
        ),
        // The handshake block, in C so that the host can read it before touching any Swift type.
        .target(
            name: "ReadingEntry",
            dependencies: [.product(name: "HogwartsModuleABI", package: hogwarts)]
        ),
    ]
)
