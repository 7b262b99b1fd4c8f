import Foundation
import HogwartsTestSupport
import Testing

/// Messages in a real browser (`Tests/Browser/console_messages_flows.py`): on a 390 px phone a
/// guardian answers her child's teacher from the conversation's reply box, the reply is stored
/// once, and the teacher reads it; in Arabic and in English. Runs where chromium and playwright
/// are installed, and must run in CI (`HOGWARTS_REQUIRE_API_TOOLS=1`).
@Suite("Messages in a browser", .waitsOnProcesses, .serialized)
struct ConsoleMessagesBrowserTests {
    @Test("a guardian replies to the teacher on a phone and the teacher reads it, in Arabic and English",
          .disabled(if: TestDatabase.isPostgres, "what a browser sees is the same on either engine: the SQLite pass runs it"),
          .enabled(if: ConsoleBrowserTests.toolsInstalled || ConsoleBrowserTests.required, "install chromium (apt) and playwright (pip) to run this"))
    func reply() async throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo", "--force"]).status == 0)
        let server = try ServedHogwarts(hogwarts)
        defer { _ = server.stop() }
        let script = HogwartsProcess.packageRoot.appending(path: "Tests/Browser/console_messages_flows.py")
        for language in ["ar", "en"] {
            let run = try HogwartsProcess.run(URL(filePath: "/usr/bin/env"), [
                "python3", script.path, "--base-url", "http://127.0.0.1:\(server.port)", "--lang", language,
                "--database", hogwarts.databasePath, "--chromium", ConsoleBrowserTests.chromium,
            ], in: hogwarts.directory)
            #expect(run.status == 0, "messages in a browser, \(language):\n\(run.stdout.suffix(2000))\n\(run.stderr.suffix(3000))")
        }
    }
}
