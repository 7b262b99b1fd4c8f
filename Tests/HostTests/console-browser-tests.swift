import Foundation
import HogwartsTestSupport
import Testing

/// The web console in a real browser: `Tests/Browser/console_flows.py` (Playwright for Python)
/// drives Debian's chromium against a live `hogwarts serve`, in Arabic and in English: the admin
/// switches a module off and on and changes a setting, the teacher takes a register with two
/// exceptions (checked in the database), the guardian opens a report card; every page is checked
/// for script errors, its language and direction, a title and labelled controls. CI installs
/// chromium and playwright (`.ci/run`) and sets `HOGWARTS_REQUIRE_API_TOOLS=1`, so there it must
/// run; elsewhere it runs when both are installed.
@Suite("Web console in a browser", .waitsOnProcesses, .serialized)
struct ConsoleBrowserTests {
    static var chromium: String { ProcessInfo.processInfo.environment["HOGWARTS_CHROMIUM"] ?? "/usr/bin/chromium" }
    static var playwrightInstalled: Bool {
        (try? HogwartsProcess.run(URL(filePath: "/usr/bin/env"), ["python3", "-c", "import playwright.sync_api"], in: URL(filePath: "/tmp")).status) == 0
    }
    static var toolsInstalled: Bool { FileManager.default.isExecutableFile(atPath: chromium) && playwrightInstalled }
    static var required: Bool { ProcessInfo.processInfo.environment["HOGWARTS_REQUIRE_API_TOOLS"] == "1" }

    @Test("admin, teacher and guardian flows pass in Arabic and in English",
          .disabled(if: TestDatabase.isPostgres, "what a browser sees is the same on either engine: the SQLite pass runs it (CI's PostgreSQL pass nears its time limit)"),
          .enabled(if: toolsInstalled || required, "install chromium (apt) and playwright (pip) to run this"))
    func flows() async throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo", "--force"]).status == 0)
        let server = try ServedHogwarts(hogwarts)
        defer { _ = server.stop() }
        let script = HogwartsProcess.packageRoot.appending(path: "Tests/Browser/console_flows.py")
        let screenshots = ProcessInfo.processInfo.environment["HOGWARTS_CONSOLE_SCREENSHOTS"]
        for language in ["ar", "en"] {
            let run = try HogwartsProcess.run(URL(filePath: "/usr/bin/env"), [
                "python3", script.path, "--base-url", "http://127.0.0.1:\(server.port)", "--lang", language,
                "--database", hogwarts.databasePath, "--chromium", Self.chromium,
            ] + (screenshots.map { ["--screenshots", $0] } ?? []), in: hogwarts.directory)
            #expect(run.status == 0, "browser flows in \(language):\n\(run.stdout.suffix(3000))\n\(run.stderr.suffix(3000))")
            print(run.stdout.split(separator: "\n").first { $0.hasPrefix("{") } ?? "")
        }
    }

    static var axeInstalled: Bool {
        (try? HogwartsProcess.run(URL(filePath: "/usr/bin/env"), ["python3", "-c", "import axe_playwright_python"], in: URL(filePath: "/tmp")).status) == 0
    }

    /// `Tests/Browser/console_walk.py`: every page of every demo person's menu, and the first
    /// links each offers, at 360 px in both languages, with axe-core on each. What it checks is
    /// layout and words, the same on either engine, so it runs in the SQLite pass only (about
    /// 270 pages, 3.5 minutes on 2 cores).
    @Test("every menu page of every role, at 360 px in Arabic and English: no HTTP error, nothing wider than the screen, no command-line words, no serious axe finding",
          .enabled(if: !TestDatabase.isPostgres, "layout is the same on PostgreSQL: the SQLite pass walks it"),
          .enabled(if: (toolsInstalled && axeInstalled) || required, "install chromium (apt), playwright and axe-playwright-python (pip) to run this"))
    func phoneWalk() async throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo", "--force"]).status == 0)
        let server = try ServedHogwarts(hogwarts)
        defer { _ = server.stop() }
        let script = HogwartsProcess.packageRoot.appending(path: "Tests/Browser/console_walk.py")
        let run = try HogwartsProcess.run(URL(filePath: "/usr/bin/env"), [
            "python3", script.path, "--base-url", "http://127.0.0.1:\(server.port)", "--chromium", Self.chromium,
        ], in: hogwarts.directory)
        #expect(run.status == 0, "\(run.stdout.suffix(500))\n\(run.stderr.suffix(6000))")
        print(run.stdout.split(separator: "\n").last ?? "")
    }
}
