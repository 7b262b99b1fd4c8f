import Core
@testable import Events
import Foundation
import HogwartsTestSupport
import Testing

@Suite("Events in the web console")
struct EventsConsoleTests {
    static func inEnglish(_ console: ConsoleTestClient, _ email: String) async throws {
        let home = try await console.signIn(email, "Corr3ct-Horse")
        _ = try await console.post("/language", [("_csrf", home.csrf ?? ""), ("lang", "en"), ("back", "/")])
    }

    @Test("a teacher adds a trip for her class; its student registers from the calendar and gets a feed link; 7B never sees it")
    func teacherAddsStudentRegisters() async throws {
        let school = try EventsFixture()
        try await school.harness.console { console in
            try await Self.inEnglish(console, "t7a@school.org")
            let calendar = try await console.get("/m/events/calendar")
            #expect(calendar.status == 200 && calendar.html.contains("id=\"events-new\""))
            let csrf = try #require(calendar.csrf)
            let refused = try await console.post("/m/events/calendar", [("_csrf", csrf), ("title", "Trip"), ("date", "2026-11-20"), ("class", "7B"), ("type", "trip")])
            #expect(refused.html.contains("id=\"events-problem\"") && refused.html.contains("value=\"Trip\""), "the refusal keeps what was typed")
            let added = try await console.post("/m/events/calendar", [("_csrf", csrf), ("title", "Trip"), ("date", "2026-11-20"), ("time", "09:00"),
                                                                       ("class", "7A"), ("type", "trip"), ("registration", "on")])
            #expect(added.status == 200 && added.html.contains("Trip") && added.html.contains("id=\"saved\""))
        }
        try await school.harness.console { console in
            try await Self.inEnglish(console, "sara@school.org")
            let calendar = try await console.get("/m/events/calendar")
            #expect(calendar.html.contains("Trip") && calendar.html.contains("Mid-term break") && !calendar.html.contains("id=\"events-new\""))
            #expect(calendar.html.contains("\u{2066}2026-11-20\u{2069} \u{2066}09:00\u{2069}"), "the day and the hour are isolated")
            let csrf = try #require(calendar.csrf)
            let id = try #require(calendar.html.firstMatch(of: /name="register" value="([^"]+)"/).map { String($0.output.1) })
            let registered = try await console.post("/m/events/calendar", [("_csrf", csrf), ("register", id)])
            #expect(registered.html.contains("You are registered"))
            let feed = try await console.post("/m/events/calendar", [("_csrf", csrf), ("feed", "1")])
            #expect(feed.html.contains("id=\"events-feed-link\""))
        }
        try await school.harness.console { console in
            try await Self.inEnglish(console, "omar@school.org")
            let calendar = try await console.get("/m/events/calendar")
            #expect(calendar.status == 200 && !calendar.html.contains("Trip"))
        }
    }
}
