import Foundation
import Testing

@Suite("Timetable commands with --json and the roster's scope (issue 11)", .waitsOnProcesses, .commandLineShape)
struct HostTimetableJSONTests {
    @Test("week, day, fortnight, now, cycle, slots and periods print snake_case JSON with weeks as letters or null")
    func timetableFamily() throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo"]).status == 0)
        #expect(try hogwarts.login("admin@databayt.org", school: "demo").status == 0)
        let commands: [[String]] = [
            ["timetable", "week", "--class", "7A", "--date", "2026-11-24"], ["timetable", "day", "--class", "7A", "--date", "2026-11-24"],
            ["timetable", "fortnight", "--class", "7A"], ["timetable", "now", "--class", "7A"], ["timetable", "cycle", "--from", "2026-10-25", "--to", "2026-11-30"],
            ["timetable", "slots", "list", "--class", "7A"], ["timetable", "periods", "list"], ["timetable", "week", "--teacher", "teacher@databayt.org"],
        ]
        for command in commands {
            guard let document = try PlatformJSON.run(hogwarts, command) else { continue }
            for week in PlatformJSON.values(of: "week", in: document) {
                #expect(week is NSNull || ["A", "B", "ALL"].contains(week as? String), "\(command): week \(week)")
            }
        }
        let periods = try hogwarts.run(["timetable", "periods", "list", "--lang", "en"])
        #expect(periods.status == 0 && periods.stdout.contains("P1"), "an admin lists the periods: \(periods.stderr)")
    }

    @Test("--student follows the roster: refused to an accountant and to a teacher for students outside her classes")
    func studentScope() throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo"]).status == 0)
        #expect(try hogwarts.login("admin@databayt.org", school: "demo").status == 0)
        let own = try PlatformJSON.firstStudent(of: "7A", hogwarts)
        let stranger = try PlatformJSON.firstStudent(of: "12C", hogwarts)
        #expect(try hogwarts.login("accountant@databayt.org").status == 0)
        for span in ["week", "day", "fortnight", "now"] {
            let refused = try hogwarts.run(["timetable", span, "--student", own, "--lang", "en"])
            #expect(refused.status == 77 && refused.stderr.contains("students.read") && !refused.stdout.contains("7A"), "\(span): \(refused.stdout)")
        }
        #expect(try hogwarts.login("teacher@databayt.org").status == 0)
        let outside = try hogwarts.run(["timetable", "week", "--student", stranger, "--lang", "en"])
        // Out of her reach is refused as a GR number nobody has (66), not as a permission (77).
        #expect(outside.status == 66 && outside.stdout.isEmpty, "\(outside.stdout)")
        #expect(try hogwarts.run(["students", "show", stranger]).status == 66, "the same refusal as the roster's")
        #expect(try hogwarts.run(["timetable", "week", "--student", own]).status == 0)
    }
}
