import Foundation
import HogwartsTestSupport
import Testing

/// The register in a real browser: `Tests/Browser/console_register_flows.py` (Playwright for
/// Python, Debian's chromium) against a live `hogwarts serve`, in Arabic and in English, as the
/// demo teacher on a phone: the register taken by Tab, Space and an arrow with the focus on the
/// result afterwards, a double tap sent once, and a register saved after the session ended kept
/// across signing in again (checked in the database each time). Runs where chromium and
/// playwright are installed, and must run where `HOGWARTS_REQUIRE_API_TOOLS=1` (CI).
@Suite("Web console register in a browser", .waitsOnProcesses, .serialized)
struct ConsoleRegisterBrowserTests {
    @Test("the register by keyboard, a double tap sent once, and a register kept across an ended session, in Arabic and English",
          .enabled(if: !TestDatabase.isPostgres, "what a browser sees is the same on either engine: the SQLite pass runs it"),
          .enabled(if: ConsoleBrowserTests.toolsInstalled || ConsoleBrowserTests.required, "install chromium (apt) and playwright (pip) to run this"))
    func flows() async throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo", "--force"]).status == 0)
        let server = try ServedHogwarts(hogwarts)
        defer { _ = server.stop() }
        let script = HogwartsProcess.packageRoot.appending(path: "Tests/Browser/console_register_flows.py")
        for language in ["ar", "en"] {
            let run = try HogwartsProcess.run(URL(filePath: "/usr/bin/env"), [
                "python3", script.path, "--base-url", "http://127.0.0.1:\(server.port)", "--lang", language,
                "--database", hogwarts.databasePath, "--chromium", ConsoleBrowserTests.chromium,
            ], in: hogwarts.directory)
            #expect(run.status == 0, "register flows in \(language):\n\(run.stdout.suffix(3000))\n\(run.stderr.suffix(3000))")
        }
    }
}
