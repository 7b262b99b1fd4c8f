import Foundation
import Testing

/// The JSON style of the timetable, grades and attendance answers: snake_case keys, no Swift
/// enum layout (`_0`), upper-case enum values left as they are.
enum ModuleJSONStyle {
    /// The parsed document, after recording an issue for each key out of style.
    @discardableResult
    static func check(_ result: HogwartsProcess.Result, _ command: [String], sourceLocation: SourceLocation = #_sourceLocation) -> Any? {
        #expect(result.status == 0, "\(command): \(result.stderr)", sourceLocation: sourceLocation)
        guard let document = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8), options: [.fragmentsAllowed]) else {
            Issue.record("\(command) printed no JSON: \(result.stdout.prefix(200))", sourceLocation: sourceLocation)
            return nil
        }
        for key in keys(document) where key.range(of: #"^[a-z][a-z0-9]*(_[a-z0-9]+)*$"#, options: .regularExpression) == nil {
            Issue.record("\(command): key \(key) is not snake_case", sourceLocation: sourceLocation)
        }
        #expect(!result.stdout.contains("\"_0\""), "\(command)", sourceLocation: sourceLocation)
        return document
    }

    static func keys(_ value: Any) -> [String] {
        if let object = value as? [String: Any] { return object.keys + object.values.flatMap(keys) }
        if let array = value as? [Any] { return array.flatMap(keys) }
        return []
    }

    /// Every value stored under `key`, at any depth.
    static func values(of key: String, in value: Any) -> [Any] {
        if let object = value as? [String: Any] { return (object[key].map { [$0] } ?? []) + object.values.flatMap { values(of: key, in: $0) } }
        if let array = value as? [Any] { return array.flatMap { values(of: key, in: $0) } }
        return []
    }

    /// The first student of a class, as the signed-in user lists them.
    static func firstStudent(of classCode: String, _ hogwarts: HogwartsProcess) throws -> String {
        let list = try hogwarts.run(["students", "list", "--class", classCode, "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any]
        return try #require((object?["students"] as? [[String: Any]])?.first?["gr_number"] as? String)
    }
}

@Suite("Timetable commands with --json and the roster's scope (issue 11)")
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
            guard let document = ModuleJSONStyle.check(try hogwarts.run(command + ["--json", "--lang", "en"]), command) else { continue }
            for week in ModuleJSONStyle.values(of: "week", in: document) {
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
        let own = try ModuleJSONStyle.firstStudent(of: "7A", hogwarts)
        let stranger = try ModuleJSONStyle.firstStudent(of: "12C", hogwarts)
        #expect(try hogwarts.login("accountant@databayt.org").status == 0)
        for span in ["week", "day", "fortnight", "now"] {
            let refused = try hogwarts.run(["timetable", span, "--student", own, "--lang", "en"])
            #expect(refused.status == 77 && refused.stderr.contains("students.read") && !refused.stdout.contains("7A"), "\(span): \(refused.stdout)")
        }
        #expect(try hogwarts.login("teacher@databayt.org").status == 0)
        let outside = try hogwarts.run(["timetable", "week", "--student", stranger, "--lang", "en"])
        #expect(outside.status == 77 && outside.stdout.isEmpty, "\(outside.stdout)")
        #expect(try hogwarts.run(["students", "show", stranger]).status == 77, "the same refusal as the roster's")
        #expect(try hogwarts.run(["timetable", "week", "--student", own]).status == 0)
    }
}
