import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory new-module <Name> [--depends-on A,B] [--package DIR]`
///
/// Scaffolds `Modules/<Name>/` (the AppModule with a migration, permissions, two actions, a CLI
/// command and Arabic/English strings) and `Tests/<Name>Tests/`, and registers the module in
/// Package.swift's module table. Nothing in Core/ or Host/ changes: the host's module list is
/// generated from that table at build time. With `--package DIR` the module is a package of its
/// own instead, outside this repository (`Scaffold.packageFiles`).
@main
struct NewModule: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let request = try ScaffoldRequest(arguments: arguments)
        let root = context.package.directoryURL
        let dependencies = try dependencyClosure(of: request.dependencies, in: context.package)
        let scaffold = Scaffold(name: request.name, directDependencies: request.dependencies, dependencyClosure: dependencies)
        if let packagePath = request.packageDirectory {
            // A relative folder is taken from this package's root, where `swift package` runs.
            try writePackage(scaffold, at: URL(fileURLWithPath: packagePath, relativeTo: root), hogwarts: root)
            return
        }
        let moduleDirectory = root.appending(path: "Modules/\(request.name)")
        guard !FileManager.default.fileExists(atPath: moduleDirectory.path()) else {
            throw ScaffoldError("Modules/\(request.name) already exists: choose another name.")
        }
        try write(scaffold.files, under: root)
        try register(scaffold.packageEntry, in: root.appending(path: "Package.swift"))
        print("registered \(request.name) in Package.swift; try: swift run hogwarts migrate && swift run hogwarts \(scaffold.id) list")
    }

    /// `--package DIR`: the module as a package of its own outside this repository, built against
    /// this package's SDK products by path, with its tests and its own host.
    private func writePackage(_ scaffold: Scaffold, at directory: URL, hogwarts: URL) throws {
        let directory = directory.standardizedFileURL
        guard !FileManager.default.fileExists(atPath: directory.appending(path: "Package.swift").path()) else {
            throw ScaffoldError("\(directory.path()) already holds a package: choose another folder.")
        }
        var hogwartsPath = hogwarts.standardizedFileURL.path(percentEncoded: false)
        if hogwartsPath.count > 1, hogwartsPath.hasSuffix("/") { hogwartsPath.removeLast() }
        try write(scaffold.packageFiles(hogwartsPath: hogwartsPath), under: directory)
        print("created the package \(scaffold.name) in \(directory.path()); try: cd \(directory.path()) && swift test && swift run \(scaffold.id)-host demo (see its README.md)")
    }

    private func write(_ files: [(String, String)], under root: URL) throws {
        for (path, contents) in files {
            let url = root.appending(path: path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try contents.write(to: url, atomically: true, encoding: .utf8)
            print("created \(url.path())")
        }
    }

    /// Adds the module's line to Package.swift's module table, just above the marker line.
    private func register(_ entry: String, in manifest: URL) throws {
        let marker = "    // new-module: entries above this line"
        let text = try String(contentsOf: manifest, encoding: .utf8)
        guard text.contains(marker) else { throw ScaffoldError("Package.swift has no line '\(marker)'; add the module to the table by hand.") }
        try text.replacingOccurrences(of: marker, with: "\(entry)\n\(marker)").write(to: manifest, atomically: true, encoding: .utf8)
    }

    /// The named modules and everything they depend on, dependencies first: a module's tests
    /// install exactly that closure.
    private func dependencyClosure(of names: [String], in package: Package) throws -> [String] {
        var ordered: [String] = []
        func visit(_ name: String) throws {
            guard !ordered.contains(name) else { return }
            guard let target = package.targets.first(where: { $0.name == name }),
                  target.directoryURL.deletingLastPathComponent().lastPathComponent == "Modules"
            else { throw ScaffoldError("There is no module named \(name) under Modules/.") }
            for case .target(let dependency) in target.dependencies
            where dependency.directoryURL.deletingLastPathComponent().lastPathComponent == "Modules" {
                try visit(dependency.name)
            }
            ordered.append(name)
        }
        for name in names { try visit(name) }
        return ordered
    }
}

struct ScaffoldRequest {
    let name: String
    let dependencies: [String]
    /// `--package DIR`: scaffold a package outside this repository instead of `Modules/<Name>/`.
    let packageDirectory: String?

    init(arguments: [String]) throws {
        var extractor = ArgumentExtractor(arguments)
        let dependencies = extractor.extractOption(named: "depends-on").flatMap { $0.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) } }
        let packageDirectory = extractor.extractOption(named: "package").last
        let positional = extractor.remainingArguments.filter { !$0.hasPrefix("-") }
        guard positional.count == 1, let name = positional.first, name.range(of: "^[A-Z][A-Za-z0-9]*$", options: .regularExpression) != nil else {
            throw ScaffoldError("usage: swift package --allow-writing-to-package-directory new-module <Name> [--depends-on A,B] [--package DIR], where <Name> is UpperCamelCase, e.g. Library")
        }
        self.name = name
        self.dependencies = dependencies
        self.packageDirectory = packageDirectory
    }
}

struct ScaffoldError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
