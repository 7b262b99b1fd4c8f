import Foundation
import HogwartsTestSupport
import Testing

/// A new school from zero in a real browser (issue 34), timed: `Tests/Browser/console_new_school.py`
/// drives chromium at phone width against a live `hogwarts serve` on a database that holds only
/// the school and its first administrator, made on the command line. Everything after is done in
/// the console (set-up, invitations by mail, the roster from a file, periods, a two-week
/// timetable, a register, a quiz and its marks, publishing, the parent reading the report card)
/// and checked in the database. What a browser does is the same on either engine: the SQLite
/// pass runs it.
@Suite("A new school from zero, in a browser", .waitsOnProcesses)
struct ConsoleNewSchoolTests {
    @Test("the first administrator, then everything in the browser: set-up, roster, timetable, register, marks, report card read by a parent",
          .enabled(if: !TestDatabase.isPostgres, "a browser sees the same on PostgreSQL: the SQLite pass runs it"),
          .enabled(if: ConsoleBrowserTests.toolsInstalled || ConsoleBrowserTests.required, "install chromium (apt) and playwright (pip) to run this"))
    func fromZero() async throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        let created = try hogwarts.run(["school", "create", "--slug", "new", "--name-ar", "مدرسة جديدة", "--name-en", "New School",
                                        "--admin-email", "head@new.example.org", "--lang", "en"], input: "Orchard-Lamp-2026\n")
        #expect(created.status == 0, "\(created.stdout)\(created.stderr)")
        // Mail leaves through a sendmail stand-in that keeps each message as a file.
        let mails = hogwarts.directory.appending(path: "mails")
        try FileManager.default.createDirectory(at: mails, withIntermediateDirectories: true)
        let sendmail = hogwarts.directory.appending(path: "sendmail.sh")
        try "#!/bin/sh\ncat > \"\(mails.path)/$(date +%s%N)-$$.eml\"\n".write(to: sendmail, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: sendmail.path)
        let server = try ServedHogwarts(hogwarts, environment: ["HOGWARTS_SENDMAIL": sendmail.path])
        defer { _ = server.stop() }

        let script = HogwartsProcess.packageRoot.appending(path: "Tests/Browser/console_new_school.py")
        let run = try HogwartsProcess.run(URL(filePath: "/usr/bin/env"), [
            "python3", script.path, "--base-url", "http://127.0.0.1:\(server.port)", "--database", hogwarts.databasePath,
            "--mail-dir", mails.path, "--chromium", ConsoleBrowserTests.chromium,
        ], in: hogwarts.directory)
        #expect(run.status == 0, "\(run.stdout.suffix(1500))\n\(run.stderr.suffix(6000))")
        print(run.stdout.split(separator: "\n").first { $0.hasPrefix("{") } ?? "")
    }
}
