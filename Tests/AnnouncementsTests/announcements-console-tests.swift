@testable import Announcements
import Core
import Foundation
import HogwartsTestSupport
import Testing

@Suite("Announcements in the web console")
struct AnnouncementsConsoleTests {
    /// Signs in and switches the console to English, as the person would with the language button.
    static func inEnglish(_ console: ConsoleTestClient, _ email: String) async throws {
        let home = try await console.signIn(email, "Corr3ct-Horse")
        _ = try await console.post("/language", [("_csrf", home.csrf ?? ""), ("lang", "en"), ("back", "/")])
    }

    @Test("a teacher posts to her class from the board, may choose only her classes, and a student of that class reads it")
    func teacherPostsStudentReads() async throws {
        let school = try AnnouncementsFixture()
        try await school.harness.console { console in
            try await Self.inEnglish(console, "t7a@school.org")
            let board = try await console.get("/m/announcements/board")
            #expect(board.status == 200, "\(board.html)")
            #expect(board.html.contains("value=\"class:7A\"") && !board.html.contains("value=\"class:7B\"") && !board.html.contains("value=\"school\""))
            let csrf = try #require(board.csrf)
            let refused = try await console.post("/m/announcements/board", [("_csrf", csrf), ("title", "Trip"), ("content", "Tuesday."), ("audience", "class:7B")])
            #expect(refused.status == 200 && refused.html.contains("not one of yours") && refused.html.contains("value=\"Trip\""), "the refusal keeps what was typed")
            let posted = try await console.post("/m/announcements/board", [("_csrf", csrf), ("title", "Trip"), ("content", "Tuesday."), ("audience", "class:7A")])
            #expect(posted.status == 200 && posted.html.contains("Trip") && posted.html.contains("id=\"saved\""))
        }
        try await school.harness.console { console in
            try await Self.inEnglish(console, "sara@school.org")
            let board = try await console.get("/m/announcements/board")
            #expect(board.status == 200 && board.html.contains("Trip") && !board.html.contains("announcements-new"), "students read, and have no form")
        }
        try await school.harness.console { console in
            try await Self.inEnglish(console, "omar@school.org")
            let board = try await console.get("/m/announcements/board")
            #expect(board.status == 200 && !board.html.contains("Trip") && board.html.contains("No announcements right now."))
        }
    }
}
