import Foundation
import Testing

@Suite("Attendance commands with --json, the export and dates (issue 11)", .waitsOnProcesses, .commandLineShape)
struct HostAttendanceJSONTests {
    @Test("register, history, stats, excuses and the export print snake_case JSON; stats works without --class and with --school")
    func attendanceFamily() throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo"]).status == 0)
        #expect(try hogwarts.login("admin@databayt.org", school: "demo").status == 0)
        let gr = try PlatformJSON.firstStudent(of: "7A", hogwarts)
        let commands: [[String]] = [
            ["attendance", "register", "--class", "7A", "--date", "2026-11-19"], ["attendance", "history", "--student", gr],
            ["attendance", "stats", "--class", "7A"], ["attendance", "stats"], ["attendance", "stats", "--school", "demo", "--from", "2026-11-01"],
            ["attendance", "excuse", "list"], ["attendance", "export", "--class", "7A", "--from", "2026-11-19", "--to", "2026-11-19"],
        ]
        for command in commands { try PlatformJSON.run(hogwarts, command) }

        let export = try hogwarts.run(["attendance", "export", "--class", "7A", "--from", "2026-11-19", "--to", "2026-11-19", "--json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [[String: Any]])
        #expect(rows.count == 24 && rows.allSatisfy { $0["student_unique_id"] is String && $0["event_date"] as? String == "2026-11-19" })
        let csv = try hogwarts.run(["attendance", "export", "--class", "7A", "--from", "2026-11-19", "--to", "2026-11-19"])
        #expect(csv.stdout.hasPrefix("StudentUniqueId,EventDate,ClassPeriod,AttendanceEventCategoryDescriptor,Status\n"))

        #expect(try hogwarts.login("student@databayt.org").status == 0)
        let own = PlatformJSON.check(try hogwarts.run(["attendance", "history", "--json"]), ["attendance", "history"]) as? [String: Any]
        #expect((own?["records"] as? [Any])?.count == 60, "a student's own history without --student")
    }

    @Test("a register dated 0001-01-01 or outside the school year is refused with a clear message, and nothing is written")
    func dates() throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo"]).status == 0)
        #expect(try hogwarts.login("admin@databayt.org", school: "demo").status == 0)
        let before = try hogwarts.run(["attendance", "stats", "--json"]).stdout
        let ancient = try hogwarts.run(["attendance", "take", "--class", "7A", "--date", "0001-01-01", "--lang", "en"])
        #expect(ancient.status == 65 && ancient.stderr.contains("1900"), "\(ancient.stderr)")
        let outside = try hogwarts.run(["attendance", "take", "--class", "7A", "--date", "1999-03-01", "--lang", "en"])
        #expect(outside.status == 65 && outside.stderr.contains("outside the school's years"), "\(outside.stderr)")
        #expect(try hogwarts.run(["attendance", "stats", "--json"]).stdout == before, "nothing was written")
    }
}
