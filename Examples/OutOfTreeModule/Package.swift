// swift-tools-version: 6.1
import Foundation
import PackageDescription

/// The Hogwarts package this module builds against: HOGWARTS_PACKAGE_PATH, or the checkout
/// the scaffold ran in. SwiftPM names a package depended on by path after its folder.
let hogwartsPath = Context.environment["HOGWARTS_PACKAGE_PATH"] ?? "../.."
let hogwarts = URL(fileURLWithPath: hogwartsPath, relativeTo: URL(fileURLWithPath: Context.packageDirectory, isDirectory: true))
    .standardizedFileURL.lastPathComponent
let strictSwift6: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
    name: "Clubs",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "Clubs", targets: ["Clubs"]),
        // The built-in modules plus this one: `swift run clubs-host serve`.
        .executable(name: "clubs-host", targets: ["ClubsHost"]),
    ],
    dependencies: [
        .package(path: hogwartsPath),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .target(
            name: "Clubs",
            dependencies: [.product(name: "Core", package: hogwarts), .product(name: "ArgumentParser", package: "swift-argument-parser")]
                + [.product(name: "Students", package: hogwarts)],
            resources: [.copy("Resources")],
            swiftSettings: strictSwift6
        ),
        .executableTarget(
            name: "ClubsHost",
            dependencies: ["Clubs", .product(name: "HogwartsHost", package: hogwarts)],
            swiftSettings: strictSwift6
        ),
        .testTarget(
            name: "ClubsTests",
            dependencies: ["Clubs", .product(name: "HogwartsTestSupport", package: hogwarts)] + [.product(name: "Auth", package: hogwarts), .product(name: "Students", package: hogwarts)],
            swiftSettings: strictSwift6
        ),
    ]
)
