import Auth
import Core
import Foundation
import HogwartsTestSupport
import Students
import Testing
import Timetable

/// The week's timetable in the web console: a student's own class, a guardian's chosen child,
/// and another family's child refused by `timetable.view` itself.
@Suite("Timetable in the web console")
struct TimetableConsoleTests {
    static let path = "/m/timetable/week"

    @Test("a guardian chooses between their children and sees each child's week, in Arabic and in English")
    func guardianWeek() async throws {
        let fixture = try TimetableFixture()
        let children = try fixture.run(ListStudents.self, .init(), as: try fixture.account("parent@databayt.org")).students
        #expect(children.count == 2)
        let second = try #require(children.last)
        try await fixture.harness.console { console in
            let dashboard = try await console.signIn("parent@databayt.org", AuthDemo.password, school: fixture.school.id)
            #expect(dashboard.html.contains("href=\"\(Self.path)\""))
            let week = try await console.get(Self.path)
            #expect(week.status == 200)
            #expect(week.html.contains("<html lang=\"ar\" dir=\"rtl\">"))
            #expect(week.html.contains("<label for=\"student\">"))
            #expect(week.html.components(separatedBy: "<h1").count - 1 == 1)
            #expect(week.html.components(separatedBy: "<table>").count - 1 >= 1)
            // Each day's date is isolated left to right, so Arabic text never turns it around.
            #expect(week.html.firstMatch(of: /· \u{2066}\d{4}-\d\d-\d\d\u{2069}/) != nil)
            let chosen = try await console.get("\(Self.path)?student=\(second.grNumber)")
            #expect(chosen.html.contains("(\(second.classCode ?? "?"))"))
            _ = try await console.post("/language", [("lang", "en"), ("back", Self.path)])
            let english = try await console.get(Self.path)
            #expect(english.html.contains("<html lang=\"en\" dir=\"ltr\">") && english.html.contains("<label for=\"student\">Child</label>"))
        }
    }

    @Test("a student sees their own class's week; another family's child is refused to a guardian")
    func ownAndRefused() async throws {
        let fixture = try TimetableFixture()
        let children = Set(try fixture.run(ListStudents.self, .init(), as: try fixture.account("parent@databayt.org")).students.map(\.grNumber))
        let stranger = try #require(try fixture.run(ListStudents.self, .init(classCode: "12C")).students.first { !children.contains($0.grNumber) })
        try await fixture.harness.console { console in
            _ = try await console.signIn("student@databayt.org", AuthDemo.password, school: fixture.school.id)
            let own = try await console.get(Self.path)
            #expect(own.html.contains("(7A)"))
            #expect(!own.html.contains("<label for=\"student\">"))
        }
        try await fixture.harness.console { console in
            _ = try await console.signIn("parent@databayt.org", AuthDemo.password, school: fixture.school.id)
            let refused = try await console.get("\(Self.path)?student=\(stranger.grNumber)")
            #expect(refused.status >= 400 && refused.html.contains("role=\"alert\""))
            #expect(!refused.html.contains("<table>"))
        }
    }

    @Test("the office chooses a class's day from the school's classes, never by typing a code")
    func officePicksClass() async throws {
        let fixture = try TimetableFixture()
        try await fixture.harness.console { console in
            _ = try await console.signIn("admin@databayt.org", AuthDemo.password, school: fixture.school.id)
            _ = try await console.post("/language", [("lang", "en"), ("back", "/m/timetable/today")])
            let pick = try await console.get("/m/timetable/today")
            #expect(pick.status == 200 && pick.html.contains("<select id=\"class\" name=\"class\">") && pick.html.contains("<option value=\"7A\">7A · "))
            #expect(!pick.html.contains("<input id=\"class\"") && !pick.html.contains("Enter a class code"))
            let day = try await console.get("/m/timetable/today?class=7A")
            #expect(day.status == 200 && day.html.contains("<option value=\"7A\" selected>7A · "))
        }
    }
}
