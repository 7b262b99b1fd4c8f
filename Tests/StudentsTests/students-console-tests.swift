import Core
import Foundation
import HogwartsTestSupport
import Students
import Testing

/// Class lists in the web console: the teacher's classes and their students, through the
/// roster's own read actions, so another teacher's class is refused as it is on the CLI and the API.
@Suite("Students in the web console")
struct StudentsConsoleTests {
    @Test("a teacher sees their class and its students, in Arabic by default and in English")
    func classList() async throws {
        let fixture = try RosterFixture()
        let classID = try #require(try fixture.run(ListClasses.self, .init()).first { $0.code == "8A" }).id
        try await fixture.harness.console { console in
            let dashboard = try await console.signIn("t8a@school.org", "Corr3ct-Horse")
            #expect(dashboard.html.contains("href=\"/m/students/classes\""))
            let page = try await console.get("/m/students/classes")
            #expect(page.status == 200)
            #expect(page.html.contains("<html lang=\"ar\" dir=\"rtl\">"))
            #expect(page.html.contains("قوائم الفصول"))
            #expect(page.html.contains("href=\"/m/students/classes?class=\(classID)\""))
            #expect(page.html.components(separatedBy: "<h1").count - 1 == 1)
            let list = try await console.get("/m/students/classes?class=\(classID)")
            #expect(list.html.contains("GR-3") && list.html.contains("GR-4"))
            #expect(!list.html.contains("GR-1"))
            _ = try await console.post("/language", [("lang", "en"), ("back", "/m/students/classes")])
            let english = try await console.get("/m/students/classes?class=\(classID)")
            #expect(english.html.contains("<html lang=\"en\" dir=\"ltr\">"))
            #expect(english.html.contains("Class lists") && english.html.contains("Emma Wilson"))
        }
    }

    @Test("another teacher's class is refused and shows none of its students; a guardian has none in the menu and is refused the page")
    func refusals() async throws {
        let fixture = try RosterFixture()
        let other = try #require(try fixture.run(ListClasses.self, .init()).first { $0.code == "7A" }).id
        try await fixture.harness.console { console in
            _ = try await console.signIn("t8a@school.org", "Corr3ct-Horse")
            let refused = try await console.get("/m/students/classes?class=\(other)")
            #expect(refused.status == 404, "another teacher's class is not there, as an unknown one")
            #expect(refused.html.contains("role=\"alert\""))
            #expect(!refused.html.contains("GR-1") && !refused.html.contains("GR-2"))
        }
        try await fixture.harness.console { console in
            let dashboard = try await console.signIn("mum@family.org", "Corr3ct-Horse")
            #expect(!dashboard.html.contains("href=\"/m/students/classes\""))
            let refused = try await console.get("/m/students/classes")
            #expect(refused.status == 403)
            #expect(!refused.html.contains("GR-1"))
        }
    }
}
