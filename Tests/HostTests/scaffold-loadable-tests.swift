import Foundation
import Testing

/// `Examples/LoadableModule` built against a copy of this package and dropped into the real
/// `hogwarts`'s modules folder: it loads and behaves as a module, and the files the host must
/// refuse are refused with their sentence and exit status 78 before anything else happens.
extension ScaffoldTests {
    func loadableExampleLoads(into hogwarts: URL) async throws {
        let work = FileManager.default.temporaryDirectory.appending(path: "loadable-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let example = work.appending(path: "LoadableModule")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: HogwartsProcess.packageRoot.appending(path: "Examples/LoadableModule"), to: example)
        let scratch = ["--scratch-path", hogwarts.appending(path: ".build").path]
        let good = work.appending(path: "modules")
        try build(example, into: good.appending(path: "libreading.so"), scratch, ["HOGWARTS_PACKAGE_PATH": hogwarts.path])

        let host = try HogwartsProcess(binary: hogwarts.appending(path: ".build/debug/hogwarts"))
        defer { host.cleanUp() }
        let loaded = ["HOGWARTS_MODULES_DIR": good.path]
        #expect(try host.run(["demo"], environment: loaded).status == 0)
        let modules = try host.run(["modules", "list", "--school", "demo", "--lang", "en", "--json"], environment: loaded)
        #expect(modules.stdout.contains("\"reading\""), "the loaded module is listed: \(modules.stderr)")
        #expect(try host.login("admin@databayt.org", school: "demo").status == 0)
        let added = try host.run(["--modules-dir", good.path, "reading", "add", "Season of Migration", "--school", "demo", "--lang", "en"])
        #expect(added.status == 0 && added.stdout.contains("Added \"Season of Migration\""), "\(added.stderr)")
        #expect(try host.run(["modules", "disable", "reading", "--school", "demo"], environment: loaded).status == 0)
        #expect(try host.run(["reading", "list", "--school", "demo"], environment: loaded).status == 69, "switched off for this school")
        #expect(try host.run(["modules", "enable", "reading", "--school", "demo"], environment: loaded).status == 0)
        #expect(try host.run(["reading", "list", "--school", "demo"]).status != 0, "without the folder the host has no such module")

        let server = try ServedHogwarts(host, environment: loaded)
        defer { _ = server.stop() }
        let answer = try await server.request("GET", "/api/v1/reading/items", token: try await server.signIn("teacher@databayt.org"))
        #expect(answer.status == 200)
        #expect(answer.data.last?["title"] as? String == "Season of Migration")
        let tokens = try await walkLoadedModule(on: server)
        try walkLoadedConsole(on: server)
        try await switchedOffInOneSchool(host, server, loaded, nile: tokens["admin@nile.databayt.org"], demo: tokens["admin@databayt.org"])

        // Each refusal: exit 78, one sentence naming the file, and no database opened or made.
        let missing = work.appending(path: "needs-transport")
        try build(example, into: missing.appending(path: "libreading.so"), scratch,
                  ["HOGWARTS_PACKAGE_PATH": hogwarts.path, "READING_NEEDS_TRANSPORT": "1"])
        let wrongBlock = try compileC(Self.blockOfAnotherSDK, named: "libold.so", in: work.appending(path: "wrong-block"))
        let noEntry = try compileC("int nothing_here(void) { return 0; }\n", named: "libplain.so", in: work.appending(path: "no-entry"))
        let refusals: [(folder: URL, file: String, words: String)] = [
            (missing, "libreading.so", "needs the module transport ^1.0.0, which this host does not have"),
            (wrongBlock, "libold.so", "was built for Hogwarts SDK 0.9.0"),
            (noEntry, "libplain.so", "has no hogwarts_module_magic entry point"),
        ]
        for refusal in refusals {
            let fresh = try HogwartsProcess(binary: host.binary)
            defer { fresh.cleanUp() }
            let result = try fresh.run(["migrate", "--modules-dir", refusal.folder.path, "--lang", "en"])
            #expect(result.status == 78, "\(refusal.file): \(result.stderr)")
            #expect(result.stderr.contains(refusal.folder.appending(path: refusal.file).path) && result.stderr.contains(refusal.words), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "one sentence")
            #expect(!FileManager.default.fileExists(atPath: fresh.databasePath), "nothing happened before the refusal")
        }
    }

    /// The generated walk over a loaded module: each of its operations in the live OpenAPI
    /// document, as every role of the demo school and the other school's administrator. A role the
    /// module grants gets its answer, any other 403 in the one error shape; never a 5xx or
    /// command-line words; an item never crosses schools. Returns each person's token: sign-in is
    /// limited per address, and the steps after this one reuse them.
    private func walkLoadedModule(on server: ServedHogwarts) async throws -> [String: String] {
        let document = try await server.request("GET", "/openapi.json")
        let paths = document.object["paths"] as? [String: [String: Any]] ?? [:]
        let operations = paths.filter { $0.key.hasPrefix("/api/v1/reading/") }
            .flatMap { path, methods in methods.keys.map { (method: $0.uppercased(), path: path) } }
            .sorted { ($0.path, $0.method) < ($1.path, $1.method) }
        #expect(operations.map { "\($0.method) \($0.path)" } == ["GET /api/v1/reading/items", "POST /api/v1/reading/items"])
        // The example's own grants (reading-authorization.swift): who reads, who adds.
        let people: [(email: String, school: String, reads: Bool, adds: Bool)] = [
            ("dev@databayt.org", "demo", true, true), ("admin@databayt.org", "demo", true, true), ("teacher@databayt.org", "demo", true, true),
            ("staff@databayt.org", "demo", true, false), ("accountant@databayt.org", "demo", false, false),
            ("parent@databayt.org", "demo", false, false), ("student@databayt.org", "demo", false, false),
            ("admin@nile.databayt.org", "nile", true, true),
        ]
        var tokens: [String: String] = [:]
        for person in people {
            let token = try await server.signIn(person.email, school: person.school)
            tokens[person.email] = token
            let title = "Walked by \(person.email)"
            for operation in operations {
                let answer = try await server.request(operation.method, operation.path, token: token,
                                                      json: operation.method == "POST" ? ["title": title] : nil)
                let allowed = operation.method == "POST" ? person.adds : person.reads
                let text = String(decoding: answer.body, as: UTF8.self)
                #expect(allowed ? (200...201).contains(answer.status) : answer.status == 403, "\(person.email) \(operation.method) \(operation.path): \(answer.status) \(text)")
                #expect(allowed || answer.object["code"] is String, "a refusal in the one error shape: \(text)")
                #expect(!text.contains("--") && !text.contains("hogwarts "), "no command-line words on the API: \(text)")
            }
        }
        // Once every item is in: each school's reader sees its own school's and none of the other's.
        for reader in people where reader.email.hasPrefix("admin@") {
            let titles = Set(try await server.request("GET", "/api/v1/reading/items", token: tokens[reader.email]).data.compactMap { $0["title"] as? String })
            let ownSchool = Set(people.filter { $0.school == reader.school && $0.adds }.map { "Walked by \($0.email)" })
            let otherSchool = Set(people.filter { $0.school != reader.school && $0.adds }.map { "Walked by \($0.email)" })
            #expect(ownSchool.isSubset(of: titles) && titles.isDisjoint(with: otherSchool), "\(reader.email): \(titles.sorted())")
        }
        return tokens
    }

    /// The console walk over a loaded module (`Tests/Browser/console_walk.py --only`): its page as
    /// every demo person and the other school's administrator, at 360 px in both languages, with
    /// axe-core. Those its read permission grants find it in their menu and open it; the others
    /// have no link to it and are refused with 403 if they type its address.
    private func walkLoadedConsole(on server: ServedHogwarts) throws {
        guard (ConsoleBrowserTests.toolsInstalled && ConsoleBrowserTests.axeInstalled) || ConsoleBrowserTests.required else { return }
        let page = "/m/reading/items"
        let script = HogwartsProcess.packageRoot.appending(path: "Tests/Browser/console_walk.py")
        let run = try HogwartsProcess.run(URL(filePath: "/usr/bin/env"), [
            "python3", script.path, "--base-url", "http://127.0.0.1:\(server.port)", "--chromium", ConsoleBrowserTests.chromium,
            "--only", "/m/reading/", "--open", page,
        ], in: HogwartsProcess.packageRoot)
        #expect(run.status == 0, "\(run.stdout.suffix(500))\n\(run.stderr.suffix(4000))")
        let summary = run.stdout.split(separator: "\n").last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) } as? [String: Any]
        let opened = summary?["opened"] as? [[String: Any]] ?? []
        let readers: Set<String> = ["dev@databayt.org", "admin@databayt.org", "teacher@databayt.org", "staff@databayt.org", "admin@nile.databayt.org"]
        #expect(opened.count == 16, "8 people in 2 languages: \(opened.count)")
        #expect(summary?["visits"] as? Int == readers.count * 2, "each reader walked the page from their menu: \(String(describing: summary?["visits"]))")
        for answer in opened {
            let person = answer["person"] as? String ?? ""
            let reads = readers.contains(person)
            #expect(answer["status"] as? Int == (reads ? 200 : 403), "\(person) \(answer["lang"] ?? "") opens \(page): \(answer)")
            #expect(answer["in_menu"] as? Bool == reads, "\(person)'s menu \(reads ? "offers" : "does not offer") it: \(answer)")
        }
    }

    /// Switched off in the other school only: there the module's routes answer like a route that
    /// does not exist (within the switch cache's second), while the demo school keeps it; switched
    /// back on, the school's items are all there.
    private func switchedOffInOneSchool(_ host: HogwartsProcess, _ server: ServedHogwarts, _ loaded: [String: String],
                                        nile: String?, demo: String?) async throws {
        let before = try await server.request("GET", "/api/v1/reading/items", token: nile).data.count
        #expect(try host.run(["modules", "disable", "reading", "--school", "nile"], environment: loaded).status == 0)
        let off = try await eventually(within: 10) {
            try await server.request("GET", "/api/v1/reading/items", token: nile).status == 404
        }
        #expect(off, "the other school's switch is read without a restart")
        let added = try await server.request("POST", "/api/v1/reading/items", token: nile, json: ["title": "While off"])
        #expect(added.status == 404 && added.object["code"] as? String == "MODULE_DISABLED", "\(added.status) \(String(decoding: added.body, as: UTF8.self))")
        #expect(try await server.request("GET", "/api/v1/reading/items", token: demo).status == 200, "the demo school keeps it")
        #expect(try host.run(["modules", "enable", "reading", "--school", "nile"], environment: loaded).status == 0)
        let back = try await eventually(within: 10) {
            try await server.request("GET", "/api/v1/reading/items", token: nile).data.count == before
        }
        #expect(back, "switched back on, the school's items are all there and none was added while off")
    }

    /// A block with every field right but the SDK release, as a module built for another host carries.
    static let blockOfAnotherSDK = """
        #include <hogwarts_module_abi.h>
        const hogwarts_module_block *hogwarts_module_magic(void) {
            static const hogwarts_module_block block = { HOGWARTS_MODULE_MAGIC, HOGWARTS_MODULE_CONTRACT, "0.9.0",
                HOGWARTS_TOOLCHAIN, HOGWARTS_BUILD_CONFIGURATION, HOGWARTS_BUILD_ARCHITECTURE, "reading" };
            return &block;
        }

        """

    private func build(_ example: URL, into output: URL, _ scratch: [String], _ environment: [String: String]) throws {
        let result = try HogwartsProcess.run(example.appending(path: "build-loadable.sh"), [output.path] + scratch, in: example, environment: environment)
        #expect(result.status == 0, "build-loadable.sh failed:\n\(result.stdout.suffix(3000))\n\(result.stderr.suffix(3000))")
        if result.status != 0 { throw CancellationError() }
    }

    private func compileC(_ source: String, named name: String, in folder: URL) throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appending(path: "source.c")
        try source.write(to: file, atomically: true, encoding: .utf8)
        let header = HogwartsProcess.packageRoot.appending(path: "Drivers/HogwartsModuleABI/include").path
        let result = try HogwartsProcess.run(URL(filePath: "/usr/bin/env"), ["cc", "-shared", "-fPIC", "-DDEBUG=1", "-I", header, file.path, "-o", name], in: folder)
        #expect(result.status == 0, "cc failed: \(result.stderr)")
        try FileManager.default.removeItem(at: file)
        return folder
    }
}
