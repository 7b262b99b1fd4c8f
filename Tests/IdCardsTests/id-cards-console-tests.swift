import Core
import Foundation
import HogwartsTestSupport
@testable import IdCards
import Testing

/// ID cards in the web console: one's own card, and the page staff check a scanned card on.
@Suite("IdCards in the web console")
struct IdCardsConsoleTests {
    @Test("a student's card page shows their name, GR number, class and a code that checks as theirs; a guardian has neither page")
    func ownCard() async throws {
        let setup = try IdCardsTests.Setup()
        let payload = try await setup.harness.console { console in
            let dashboard = try await console.signIn("pupil@school.org", "Corr3ct-Horse")
            #expect(dashboard.html.contains("href=\"/m/id-cards/card\""))
            #expect(!dashboard.html.contains("href=\"/m/id-cards/check\""), "a student checks no one's card")
            _ = try await console.post("/language", [("lang", "en"), ("back", "/m/id-cards/card")])
            let page = try await console.get("/m/id-cards/card")
            #expect(page.status == 200)
            #expect(page.html.contains("Sara Osman") && page.html.contains("GR-1") && page.html.contains("7-A") && page.html.contains("Grade 7"))
            let code = try #require(page.html.range(of: "id=\"card-code\">").map { page.html[$0.upperBound...] })
            #expect(try await console.get("/m/id-cards/check").status == 403)
            return String(code[..<(code.range(of: "</textarea>")?.lowerBound ?? code.endIndex)])
        }
        let holder = try setup.harness.kernel.run(VerifyIdCard.self, .init(payload: payload), as: setup.teacher, in: setup.harness.school.id)
        #expect(holder.idNumber == "GR-1" && holder.userID == setup.student.userID, "the page's code is the student's signed card")

        try await setup.harness.console { console in
            let dashboard = try await console.signIn("mum@family.org", "Corr3ct-Horse")
            #expect(!dashboard.html.contains("/m/id-cards/"))
            #expect(try await console.get("/m/id-cards/card").status == 403)
        }
    }

    @Test("a teacher checks a card typed in by a reader: the holder for a real one; one sentence, naming no one, for a changed or another school's card")
    func check() async throws {
        let setup = try IdCardsTests.Setup()
        let card = try setup.harness.kernel.run(ShowIdCard.self, .init(), as: setup.student, in: setup.harness.school.id)
        let foreign = try setup.harness.kernel.run(ShowIdCard.self, .init(), as: setup.otherStudent, in: setup.otherSchool.id)
        try await setup.harness.console { console in
            _ = try await console.signIn("t7a@school.org", "Corr3ct-Horse")
            _ = try await console.post("/language", [("lang", "en"), ("back", "/m/id-cards/check")])
            let form = try await console.get("/m/id-cards/check")
            #expect(form.status == 200 && form.html.contains("name=\"payload\"") && form.html.contains("autofocus"))

            let valid = try await console.post("/m/id-cards/check", [("payload", card.qrPayload + "\n")])
            #expect(valid.status == 200)
            #expect(valid.html.contains("A valid card of this school") && valid.html.contains("Sara Osman") && valid.html.contains("GR-1"))

            var changed = Array(card.qrPayload)
            changed[changed.count / 2] = changed[changed.count / 2] == "A" ? "B" : "A"
            for payload in [String(changed), foreign.qrPayload, "not a card"] {
                let refused = try await console.post("/m/id-cards/check", [("payload", payload)])
                #expect(refused.html.contains("role=\"alert\""))
                #expect(!refused.html.contains("A valid card"))
                #expect(!refused.html.contains("Sara") && !refused.html.contains("GR-1"), "a refusal names no one")
            }
        }
    }
}
