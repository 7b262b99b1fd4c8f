import Foundation
import Testing

/// The messages command family with `--json` and hostile input, on the demo database (issue 11).
@Suite("Messages commands with --json", .waitsOnProcesses, .commandLineShape)
struct HostMessagesJSONTests {
    @Test("every messages answer parses, with snake_case keys, for each role")
    func messagesFamily() throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo"]).status == 0)
        func check(_ arguments: [String], _ who: String) throws -> Any? { try PlatformJSON.run(hogwarts, arguments, as: who) }
        #expect(try hogwarts.login("admin@databayt.org").status == 0)
        let started = try check(["messages", "new", "--group", "Staff room", "--with", "teacher@databayt.org"], "admin") as? [String: Any]
        let conversation = started?["conversation"] as? String ?? ""
        let sent = try check(["messages", "send", conversation, "Meeting at 10"], "admin") as? [String: Any]
        #expect(sent?["conversation_id"] as? String == conversation)
        let message = sent?["id"] as? String ?? ""
        _ = try check(["messages", "edit", message, "Meeting at 11"], "admin")
        _ = try check(["messages", "list"], "admin")
        let shown = try check(["messages", "show", conversation], "admin") as? [String: Any]
        #expect(shown?["conversation_id"] as? String == conversation && shown?["page_count"] as? Int == 1)
        _ = try check(["messages", "mute", conversation], "admin")
        _ = try check(["messages", "read", conversation], "admin")

        for (email, school) in [("teacher@databayt.org", nil), ("parent@databayt.org", "demo"), ("student@databayt.org", nil)] as [(String, String?)] {
            #expect(try hogwarts.login(email, school: school).status == 0)
            let list = try check(["messages", "list"], email) as? [[String: Any]]
            if let id = list?.first?["id"] as? String { _ = try check(["messages", "show", id], email) }
            _ = try check(["messages", "search", "امتحان"], email)
        }
    }

    @Test("pages are bounded, control characters are refused, and % or _ are not wildcards")
    func badInput() throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo"]).status == 0)
        #expect(try hogwarts.login("teacher@databayt.org").status == 0)
        let list = try JSONSerialization.jsonObject(with: Data(try hogwarts.run(["messages", "list", "--json"]).stdout.utf8)) as? [[String: Any]]
        // A direct conversation: the teacher may write there (an announcement may come first).
        let conversation = try #require(list?.first { $0["kind"] as? String == "DIRECT" }?["id"] as? String)
        for page in ["461168601842738792", "-3", "0", "x"] {
            let result = try hogwarts.run(["messages", "show", conversation, "--page", page, "--lang", "en"])
            #expect(result.status == 64 && result.stderr.contains("--page"), "\(page): \(result.stderr)")
        }
        // A NUL cannot travel in argv (the OS cuts there); the action test covers it.
        for body in ["clear\u{1B}[2J", "over\rwrite", "bell\u{7}"] {
            let result = try hogwarts.run(["messages", "send", conversation, body, "--lang", "en"])
            #expect(result.status == 65 && result.stderr.contains("body"), "\(result.stderr)")
        }
        #expect(try hogwarts.run(["messages", "send", conversation, "line one\nline two"]).status == 0, "line breaks are fine in a message")
        let title = try hogwarts.run(["messages", "new", "--group", String(repeating: "t", count: 10_000), "--with", "admin@databayt.org", "--lang", "en"])
        #expect(title.status == 65 && title.stderr.contains("title"), "\(title.stderr)")
        let wildcard = try hogwarts.run(["messages", "show", String(conversation.prefix(5)) + "_", "--lang", "en"])
        #expect(wildcard.status == 66, "\(wildcard.stderr)")
    }
}
