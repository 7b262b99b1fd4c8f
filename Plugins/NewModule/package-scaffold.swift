/// `new-module --package DIR`: the same module, tests and strings as an in-repository module,
/// laid out as a package of its own that depends on this one by path, with a host of its own.
extension Scaffold {
    func packageFiles(hogwartsPath: String) -> [(String, String)] {
        let sources = files.map { path, contents in
            (path.replacingOccurrences(of: "Modules/\(name)/", with: "Sources/\(name)/"), contents)
        }
        return [
            ("Package.swift", fill(PackageTemplates.manifest).replacingOccurrences(of: "__HOGWARTS_PATH__", with: hogwartsPath)),
            ("Sources/\(name)Host/\(id)-host.swift", fill(PackageTemplates.host)),
            ("README.md", fill(PackageTemplates.readme)),
            (".gitignore", ".build/\nPackage.resolved\n"),
        ] + sources
    }
}

enum PackageTemplates {
    static let manifest = """
        // swift-tools-version: 6.1
        import Foundation
        import PackageDescription

        /// The Hogwarts package this module builds against: HOGWARTS_PACKAGE_PATH, or the checkout
        /// the scaffold ran in. SwiftPM names a package depended on by path after its folder.
        let hogwartsPath = Context.environment["HOGWARTS_PACKAGE_PATH"] ?? "__HOGWARTS_PATH__"
        let hogwarts = URL(fileURLWithPath: hogwartsPath, relativeTo: URL(fileURLWithPath: Context.packageDirectory, isDirectory: true))
            .standardizedFileURL.lastPathComponent
        let strictSwift6: [SwiftSetting] = [.swiftLanguageMode(.v6)]

        let package = Package(
            name: "__Name__",
            platforms: [.macOS(.v14)],
            products: [
                .library(name: "__Name__", targets: ["__Name__"]),
                // The built-in modules plus this one: `swift run __id__-host serve`.
                .executable(name: "__id__-host", targets: ["__Name__Host"]),
            ],
            dependencies: [
                .package(path: hogwartsPath),
                .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
            ],
            targets: [
                .target(
                    name: "__Name__",
                    dependencies: [.product(name: "Core", package: hogwarts), .product(name: "ArgumentParser", package: "swift-argument-parser")]
                        + [__PRODUCTS__],
                    resources: [.copy("Resources")],
                    swiftSettings: strictSwift6
                ),
                .executableTarget(
                    name: "__Name__Host",
                    dependencies: ["__Name__", .product(name: "HogwartsHost", package: hogwarts)],
                    swiftSettings: strictSwift6
                ),
                .testTarget(
                    name: "__Name__Tests",
                    dependencies: ["__Name__", .product(name: "HogwartsTestSupport", package: hogwarts)] + [__TEST_PRODUCTS__],
                    swiftSettings: strictSwift6
                ),
            ]
        )

        """

    static let host = """
        import HogwartsHost
        import __Name__

        /// `__id__-host`: the Hogwarts host with every built-in module and __Name__.
        @main
        enum __Name__Host {
            static func main() {
                HogwartsHost.main(modules: HogwartsHost.builtIn + [__Name__Module()])
            }
        }

        """

    static let readme = """
        # __Name__, a Hogwarts module built outside the Hogwarts repository

        - `Sources/__Name__/`: the module (tables, actions, permissions, strings, command, routes, console page).
        - `Tests/__Name__Tests/`: its tests, on a fresh database migrated to its dependencies, with users of each role.
        - `Sources/__Name__Host/`: a host with the built-in modules and this one.

        ```text
        swift test
        swift run __id__-host demo
        swift run __id__-host login --email admin@databayt.org --school demo
        swift run __id__-host __id__ list --school demo
        ```

        Set `HOGWARTS_PACKAGE_PATH` to build against another Hogwarts checkout.

        """
}
