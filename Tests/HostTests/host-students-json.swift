import Foundation
import Testing

/// The students command family with `--json`, on the demo database, as each role (issue 11).
@Suite("Students commands with --json", .waitsOnProcesses, .commandLineShape)
struct HostStudentsJSONTests {
    @Test("every students, classes, subjects and terms answer parses, with snake_case keys, for each role")
    func studentsFamily() throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo"]).status == 0)
        func check(_ arguments: [String], _ who: String) throws -> Any? { try PlatformJSON.run(hogwarts, arguments, as: who) }

        #expect(try hogwarts.login("admin@databayt.org").status == 0)
        let page = try check(["students", "list"], "admin") as? [String: Any]
        #expect(page?["page_count"] as? Int ?? 0 > 1)
        let first = ((page?["students"] as? [[String: Any]])?.first?["gr_number"] as? String) ?? ""
        _ = try check(["students", "show", first], "admin")
        let rows = try check(["students", "export"], "admin") as? [[String: Any]]
        #expect(rows?.count == 432, "export with --json prints JSON rows, not CSV")
        #expect(rows?.first?["gr_number"] as? String != nil && rows?.first?["date_of_birth"] as? String != nil)
        for arguments in [["classes", "list"], ["subjects", "list"], ["terms", "list"], ["students", "list", "--search", "احمد", "--page", "1"]] {
            _ = try check(arguments, "admin")
        }
        _ = try check(["students", "add", "JSON-1", "--given-name", "Jay", "--surname", "Son", "--birth", "2014-01-02", "--gender", "MALE"], "admin")
        _ = try check(["guardians", "link", "JSON-1", "--given-name", "Ma", "--surname", "Son", "--relation", "MOTHER"], "admin")

        #expect(try hogwarts.login("teacher@databayt.org").status == 0)
        let taught = try check(["students", "list"], "teacher") as? [String: Any]
        let own = ((taught?["students"] as? [[String: Any]])?.first?["gr_number"] as? String) ?? ""
        _ = try check(["students", "show", own], "teacher")
        _ = try check(["classes", "list"], "teacher")

        #expect(try hogwarts.login("student@databayt.org").status == 0)
        let me = try check(["students", "list"], "student") as? [String: Any]
        #expect(me?["total"] as? Int == 1)
        let mine = ((me?["students"] as? [[String: Any]])?.first?["gr_number"] as? String) ?? ""
        _ = try check(["students", "show", mine], "student")

        #expect(try hogwarts.login("parent@databayt.org", school: "demo").status == 0)
        let children = try check(["students", "export"], "parent") as? [[String: Any]]
        #expect(children?.count == 2)

        #expect(try hogwarts.login("accountant@databayt.org").status == 0)
        let refused = try hogwarts.run(["students", "list", "--json", "--lang", "en"])
        #expect(refused.status == 77 && refused.stdout.isEmpty)
    }
}
