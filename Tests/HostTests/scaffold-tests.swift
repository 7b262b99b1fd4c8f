import Foundation
import Testing

/// Adding a module must not touch Core/ or Host/: scaffold two modules into a copy of this
/// package, build it, and use the new commands through the real binary. Then a module from
/// outside the repository: `Examples/OutOfTreeModule`, copied elsewhere, built against that copy,
/// and `Examples/LoadableModule` loaded into that copy's `hogwarts` (scaffold-loadable-tests.swift).
@Suite("Scaffolding a new module", .waitsOnProcesses)
struct ScaffoldTests {
    @Test("a scaffolded module builds, migrates, runs its sample command and passes its own tests; so does the out-of-tree example, whose host serves its route; the loadable example loads into hogwarts, and bad loadables are refused")
    func scaffoldedModuleWorks() async throws {
        let copy = FileManager.default.temporaryDirectory.appending(path: "hogwarts-scaffold-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: copy) }
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        // The test support and no suite: the manifest leaves out test targets whose folder is
        // absent, so `swift test` here builds the scaffolded modules' tests, not all of ours again.
        try FileManager.default.createDirectory(at: copy.appending(path: "Tests"), withIntermediateDirectories: true)
        for item in ["Package.swift", "Core", "Drivers", "Modules", "Host", "Plugins", "Tests/Support", "Client"] {
            try FileManager.default.copyItem(at: HogwartsProcess.packageRoot.appending(path: item), to: copy.appending(path: item))
        }
        let kernelBefore = try fingerprint(of: ["Core", "Host"], in: copy)

        try swift(["package", "--allow-writing-to-package-directory", "new-module", "Library"], in: copy)
        try swift(["package", "--allow-writing-to-package-directory", "new-module", "ReadingLog", "--depends-on", "Library"], in: copy)
        #expect(try fingerprint(of: ["Core", "Host"], in: copy) == kernelBefore, "Core/ and Host/ are untouched")
        let manifest = try String(contentsOf: copy.appending(path: "Package.swift"), encoding: .utf8)
        #expect(manifest.contains("(\"ReadingLog\", [\"Library\"]),"))

        try swift(["build", "--product", "hogwarts"], in: copy)
        let hogwarts = try HogwartsProcess(binary: copy.appending(path: ".build/debug/hogwarts"))
        defer { hogwarts.cleanUp() }
        let migrated = try hogwarts.run(["migrate", "--json"])
        #expect(migrated.stdout.contains("library/001-create-items") && migrated.stdout.contains("reading-log/001-create-items"))
        #expect(try hogwarts.run(["school", "create", "--slug", "north", "--name-ar", "الشمال", "--name-en", "North", "--admin-email", "head@north.org"],
                                 input: "Corr3ct-Horse\n").status == 0)
        #expect(try hogwarts.login("head@north.org", password: "Corr3ct-Horse").status == 0)
        let added = try hogwarts.run(["library", "add", "Atlas of Sudan", "--school", "north", "--lang", "en"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.contains("Added \"Atlas of Sudan\""))
        #expect(try hogwarts.run(["library", "list", "--school", "north", "--json"]).stdout.contains("Atlas of Sudan"))

        let modules = try hogwarts.run(["modules", "list", "--school", "north", "--lang", "en"])
        #expect(modules.stdout.contains("reading-log") && modules.stdout.contains("library *"))
        let refused = try hogwarts.run(["modules", "disable", "library", "--school", "north", "--lang", "en"])
        #expect(refused.status != 0 && refused.stderr.contains("reading-log"))
        #expect(try hogwarts.run(["modules", "disable", "library", "--school", "north", "--cascade"]).status == 0)
        #expect(try hogwarts.run(["library", "list", "--school", "north"]).status == 69)
        #expect(try hogwarts.run(["modules", "enable", "library", "--school", "north"]).status == 0)
        #expect(try hogwarts.run(["library", "list", "--school", "north", "--json"]).stdout.contains("Atlas of Sudan"), "data came back")

        try swift(["test", "--filter", "LibraryTests"], in: copy)
        try await outOfTreeExampleWorks(against: copy)
        try await loadableExampleLoads(into: copy)
    }

    /// `Examples/OutOfTreeModule` from a folder outside any checkout, pointing at `hogwarts` by
    /// path: its own tests pass, and its host (the built-in modules plus Clubs) runs its command and
    /// its route. It builds in the copy's `.build`, after the copy's own builds are done, so the
    /// platform's dependencies are compiled once (a package of its own would compile them again).
    private func outOfTreeExampleWorks(against hogwarts: URL) async throws {
        let example = FileManager.default.temporaryDirectory.appending(path: "clubs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: example) }
        try FileManager.default.copyItem(at: HogwartsProcess.packageRoot.appending(path: "Examples/OutOfTreeModule"), to: example)
        let scratch = ["--scratch-path", hogwarts.appending(path: ".build").path]
        let environment = ["HOGWARTS_PACKAGE_PATH": hogwarts.path]
        try swift(["build"] + scratch, in: example, environment: environment)
        try swift(["test"] + scratch, in: example, environment: environment)

        let host = try HogwartsProcess(binary: hogwarts.appending(path: ".build/debug/clubs-host"))
        defer { host.cleanUp() }
        #expect(try host.run(["demo"]).status == 0)
        #expect(try host.run(["modules", "list", "--school", "demo", "--lang", "en"]).stdout.contains("clubs"))
        #expect(try host.login("admin@databayt.org", school: "demo").status == 0)
        let added = try host.run(["clubs", "add", "Chess", "--school", "demo", "--lang", "en"])
        #expect(added.status == 0 && added.stdout.contains("Added \"Chess\""), "\(added.stderr)")
        #expect(try host.run(["students", "list", "--school", "demo", "--json"]).status == 0, "the built-in modules are there too")

        let server = try ServedHogwarts(host)
        defer { _ = server.stop() }
        let answer = try await server.request("GET", "/api/v1/clubs/items", token: try await server.signIn("teacher@databayt.org"))
        #expect(answer.status == 200)
        #expect(answer.data.count == 2 && answer.data.last?["title"] as? String == "Chess", "the demo's item, then Chess")
    }

    /// Runs `swift` in a directory; a failure records its output.
    private func swift(_ arguments: [String], in directory: URL, environment: [String: String] = [:]) throws {
        let result = try HogwartsProcess.run(URL(filePath: "/usr/bin/env"), ["swift"] + arguments, in: directory, environment: environment)
        #expect(result.status == 0, "swift \(arguments.joined(separator: " ")) failed:\n\(result.stdout.suffix(3000))\n\(result.stderr.suffix(3000))")
        if result.status != 0 { throw CancellationError() }
    }

    /// Every file's path and contents under the given folders.
    private func fingerprint(of folders: [String], in root: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for folder in folders {
            let base = root.appending(path: folder)
            guard let enumerator = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in enumerator where !url.hasDirectoryPath {
                files[url.path.replacingOccurrences(of: root.path, with: "")] = try Data(contentsOf: url)
            }
        }
        return files
    }
}
