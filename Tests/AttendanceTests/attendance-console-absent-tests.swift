import Attendance
import Auth
import Core
import Foundation
import HogwartsTestSupport
import Students
import Testing

/// Staff's dashboard: who is absent today across the school, as today's registers say, and the
/// card on no one else's home.
@Suite("Absent today on the staff dashboard")
struct AttendanceConsoleAbsentTests {
    @Test("staff see today's absent students with their classes, counted as attendance.stats counts them; a teacher and a guardian do not get the card")
    func staffCard() async throws {
        let fixture = try AttendanceFixture()
        let (_, child) = try ExcuseTests.absentChild(fixture)
        let staff = try fixture.account("staff@databayt.org")
        let stats = try fixture.run(AttendanceStats.self, .init(from: "2026-11-22", to: "2026-11-22"), as: staff)
        let absent = stats.students.filter { $0.totals.absent > 0 }
        try #require(absent.contains { $0.grNumber == child.grNumber })
        // The card's order: class by class, names within a class; at most its first dozen.
        let listed = absent.sorted { ($0.classCode, $0.name, $0.grNumber) < ($1.classCode, $1.name, $1.grNumber) }.prefix(12)

        try await fixture.harness.console { console in
            let home = try await console.signIn("staff@databayt.org", AuthDemo.password, school: fixture.school.id)
            #expect(home.html.contains("id=\"card-attendance-absent\""))
            #expect(!home.html.contains("لا شيء لعرضه لدورك بعد."))
            let card = Self.card(home.html)
            #expect(card.contains("id=\"attendance-absent\""))
            for line in listed { #expect(card.contains("<bdi>\(line.name)</bdi> · <bdi dir=\"ltr\">\(line.classCode)</bdi>"), "\(line.grNumber)") }
            if absent.count <= 12 { #expect(card.contains(child.fullName)) }
            #expect(card.contains(" \(absent.count) غائبًا"), "the count is the action's")
            _ = try await console.post("/language", [("lang", "en"), ("back", "/")])
            let english = Self.card(try await console.get("/").html)
            #expect(english.contains("\(absent.count) absent") && english.contains("2026-11-22"))
        }
        for email in ["teacher@databayt.org", "parent@databayt.org"] {
            try await fixture.harness.console { console in
                let home = try await console.signIn(email, AuthDemo.password, school: fixture.school.id)
                #expect(home.status == 200 && !home.html.contains("id=\"card-attendance-absent\""), "\(email)")
            }
        }
    }

    private static func card(_ html: String) -> String {
        guard let start = html.range(of: "id=\"card-attendance-absent\"") else { return "" }
        return String(html[start.upperBound...].components(separatedBy: "</section>").first ?? "")
    }
}
