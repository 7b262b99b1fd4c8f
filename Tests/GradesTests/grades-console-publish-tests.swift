import Auth
import Core
import Foundation
import Grades
import HogwartsTestSupport
import Students
import Testing

/// Report cards in the web console: the admin's term page (a class's cards as they stand, then
/// `grades.publish` after a confirmation in words) and the print view, whose cards all come
/// from `grades.report-card`. The demo school's Term 1 is published and Term 2 is a draft.
@Suite("Grades console: publish and print report cards")
struct GradesConsolePublishTests {
    static let publish = "/m/grades/publish"
    static let print = "/m/grades/print"

    static func term(_ name: String, _ fixture: GradesFixture) throws -> Term {
        try #require(try fixture.run(ListTerms.self, .init()).first { $0.name.en == name })
    }

    /// The demo student's own record, as they see it.
    static func me(_ fixture: GradesFixture) throws -> (Principal, Student) {
        let student = try fixture.account("student@databayt.org")
        return (student, try #require(try fixture.run(ListStudents.self, .init(), as: student).students.first))
    }

    /// The text of the page's alert, the asked value replaced, to compare two refusals.
    static func refusal(_ page: ConsoleTestPage, asked: String) -> String {
        guard let start = page.html.range(of: "role=\"alert\">") else { return "" }
        let text = page.html[start.upperBound...].prefix { $0 != "<" }
        return "\(page.status) " + text.replacingOccurrences(of: asked, with: "<asked>")
    }

    @Test("the admin previews a class's drafts; the first press publishes nothing; 'Yes, publish' does; then the student sees the card")
    func previewAndPublish() async throws {
        let fixture = try GradesFixture()
        let term2 = try Self.term("Term 2", fixture)
        let (student, me) = try Self.me(fixture)
        let classCode = try fixture.run(ReportCard.self, .init(grNumber: me.grNumber, term: term2.id)).classCode
        let cardPage = "/m/grades/report-card?term=\(term2.id)"
        try await fixture.harness.console { console in
            _ = try await console.signIn("student@databayt.org", AuthDemo.password, school: fixture.school.id)
            let before = try await console.get(cardPage)
            #expect(before.status == 200 && before.html.contains("class=\"problem\""))
            #expect(!before.html.contains("<table>") && !before.html.contains("/m/grades/print?"), "a draft is neither shown nor offered to print")
        }
        try await fixture.harness.console { console in
            let dashboard = try await console.signIn("admin@databayt.org", AuthDemo.password, school: fixture.school.id)
            #expect(dashboard.html.contains("href=\"\(Self.publish)\""))
            let preview = try await console.get("\(Self.publish)?term=\(term2.id)&class=\(classCode)")
            #expect(preview.status == 200 && preview.html.contains("<html lang=\"ar\" dir=\"rtl\">"))
            #expect(preview.html.contains("<select id=\"publish-term\"") && preview.html.contains("<select id=\"publish-class\""))
            #expect(preview.html.contains("<option value=\"\(classCode)\" selected>"))
            #expect(preview.html.contains("id=\"preview-\(me.grNumber)\"") && preview.html.contains("<bdi>\(me.fullName)</bdi>"))
            #expect(preview.html.contains("مسودة"), "each card says it is a draft")
            #expect(preview.html.contains("id=\"publish-form\" data-submit-once") && preview.html.contains("name=\"_csrf\""))
            let joined = { (date: String) in date.replacingOccurrences(of: "-", with: "-\u{2060}") }
            #expect(preview.html.contains("\u{2066}\(joined(term2.startsOn))\u{00A0}–\u{2060}\u{00A0}\(joined(term2.endsOn))\u{2069}"),
                    "the term's dates are isolated, on one line")
            #expect(preview.html.contains("href=\"/m/grades/print?term=\(term2.id)&amp;class=\(classCode)\""))

            let asked = try await console.post(Self.publish, [("do", "publish"), ("term", term2.id), ("class", classCode)])
            #expect(asked.status == 200 && asked.html.contains("id=\"publish-confirm\"") && asked.html.contains("name=\"confirm\" value=\"yes\""))
            #expect(asked.html.contains("نعم، انشر"))
            #expect(throws: GradesError.self, "the first press publishes nothing") {
                try fixture.run(ReportCard.self, .init(term: term2.id), as: student)
            }

            let done = try await console.post(Self.publish, [("do", "publish"), ("term", term2.id), ("class", classCode), ("confirm", "yes")])
            #expect(done.status == 200 && done.html.contains("id=\"published\""))
            #expect(!done.html.contains("id=\"publish-form\""), "a published term offers no second publish")
            let again = try await console.post(Self.publish, [("do", "publish"), ("term", term2.id), ("class", classCode), ("confirm", "yes")])
            #expect(again.html.contains("id=\"publish-problem\""), "publishing twice is refused by the action, in words")
            _ = try await console.post("/language", [("lang", "en"), ("back", Self.publish)])
            let english = try await console.get("\(Self.publish)?term=\(term2.id)&class=\(classCode)")
            #expect(english.html.contains("<html lang=\"en\" dir=\"ltr\">") && english.html.contains("are published"))
            for page in [preview, asked, done, english] {
                #expect(!page.html.contains("hogwarts ") && page.html.range(of: #"(^|[\s(>])--[a-z]"#, options: .regularExpression) == nil, "no command-line words")
            }
        }
        #expect(try fixture.run(ReportCard.self, .init(term: term2.id), as: student).published)
        try await fixture.harness.console { console in
            _ = try await console.signIn("student@databayt.org", AuthDemo.password, school: fixture.school.id)
            let after = try await console.get(cardPage)
            #expect(after.status == 200 && after.html.contains("<table>") && !after.html.contains("class=\"problem\""))
            #expect(after.html.contains("href=\"/m/grades/print?term=\(term2.id)&amp;student=\(me.grNumber)\""))
        }
    }

    @Test("a teacher, a guardian and a student have no publish page: not in the menu, and the address and a forged press are refused",
          arguments: ["teacher@databayt.org", "parent@databayt.org", "student@databayt.org"])
    func noPublishPage(email: String) async throws {
        let fixture = try GradesFixture()
        let term2 = try Self.term("Term 2", fixture)
        try await fixture.harness.console { console in
            let dashboard = try await console.signIn(email, AuthDemo.password, school: fixture.school.id)
            #expect(dashboard.status == 200 && !dashboard.html.contains(Self.publish))
            #expect(try await console.get(Self.publish).status == 403)
            let forged = try await console.post(Self.publish, [("do", "publish"), ("term", term2.id), ("confirm", "yes")])
            #expect(forged.status == 403)
        }
        #expect(try !fixture.run(ReportCard.self, .init(grNumber: try Self.me(fixture).1.grNumber, term: term2.id)).published)
    }

    @Test("the student prints their own published card from the report card page: the card, the print stylesheet, and on paper no menu")
    func printOwnCard() async throws {
        let fixture = try GradesFixture()
        let term1 = try Self.term("Term 1", fixture)
        let (_, me) = try Self.me(fixture)
        try await fixture.harness.console { console in
            _ = try await console.signIn("student@databayt.org", AuthDemo.password, school: fixture.school.id)
            let cards = try await console.get("/m/grades/report-card?term=\(term1.id)")
            let link = "/m/grades/print?term=\(term1.id)&amp;student=\(me.grNumber)"
            #expect(cards.html.contains("href=\"\(link)\""))
            let printed = try await console.get(link.replacingOccurrences(of: "&amp;", with: "&"))
            #expect(printed.status == 200 && printed.html.contains("<html lang=\"ar\" dir=\"rtl\">"))
            #expect(printed.html.components(separatedBy: "class=\"panel print-card\"").count - 1 == 1)
            #expect(printed.html.contains("id=\"print-\(me.grNumber)\"") && printed.html.contains("<table class=\"print-subjects\">"))
            #expect(printed.html.contains("<link rel=\"stylesheet\" href=\"/api/v1/grades/print.css\">"))
            #expect(!printed.html.contains("مسودة"))
            _ = try await console.post("/language", [("lang", "en"), ("back", "/m/grades/report-card")])
            let english = try await console.get(link.replacingOccurrences(of: "&amp;", with: "&"))
            #expect(english.html.contains("<html lang=\"en\" dir=\"ltr\">") && english.html.contains("Report cards to print, Term 1"))
            // Last: the stylesheet is no page, so the client would send its (absent) CSRF token on.
            let style = try await console.get("/api/v1/grades/print.css")
            #expect(style.status == 200 && style.headers["content-type"]?.hasPrefix("text/css") == true)
            #expect(style.html.contains("@media print") && style.html.contains("header.bar, nav, form, button"), "on paper: no menu, no buttons")
            #expect(style.html.contains("break-after: page"), "each card on its own page")
        }
    }

    @Test("the admin prints a class's cards, each its own page, drafts marked")
    func printClass() async throws {
        let fixture = try GradesFixture()
        let term2 = try Self.term("Term 2", fixture)
        let students = try fixture.run(ListStudents.self, .init(classCode: "7A", pageSize: 100)).students
        try await fixture.harness.console { console in
            _ = try await console.signIn("admin@databayt.org", AuthDemo.password, school: fixture.school.id)
            let printed = try await console.get("\(Self.print)?term=\(term2.id)&class=7A")
            #expect(printed.status == 200)
            #expect(printed.html.components(separatedBy: "class=\"panel print-card\"").count - 1 == students.count)
            #expect(printed.html.contains("مسودة"), "staff see drafts, marked as such")
        }
    }

    @Test("a guardian printing another family's child reads like a student that does not exist")
    func guardianStranger() async throws {
        let fixture = try GradesFixture()
        let term1 = try Self.term("Term 1", fixture)
        let parent = try fixture.account("parent@databayt.org")
        let children = Set(try fixture.run(ListStudents.self, .init(), as: parent).students.map(\.grNumber))
        let stranger = try #require(try fixture.run(ListStudents.self, .init(classCode: "12C")).students.first { !children.contains($0.grNumber) })
        try await fixture.harness.console { console in
            _ = try await console.signIn("parent@databayt.org", AuthDemo.password, school: fixture.school.id)
            let foreign = try await console.get("\(Self.print)?term=\(term1.id)&student=\(stranger.grNumber)")
            let unknown = try await console.get("\(Self.print)?term=\(term1.id)&student=GR-9999")
            #expect(foreign.status >= 400 && !foreign.html.contains("print-card"))
            #expect(Self.refusal(foreign, asked: stranger.grNumber) == Self.refusal(unknown, asked: "GR-9999"))
            #expect(!foreign.html.contains(stranger.fullName) && !foreign.html.contains(stranger.givenName))
            let own = try await console.get("\(Self.print)?term=\(term1.id)")
            #expect(own.status == 200 && own.html.components(separatedBy: "class=\"panel print-card\"").count - 1 == children.count)
        }
    }

    @Test("a draft is never printable for a student, named or not")
    func draftNotPrintable() async throws {
        let fixture = try GradesFixture()
        let term2 = try Self.term("Term 2", fixture)
        let (_, me) = try Self.me(fixture)
        let classCode = try fixture.run(ReportCard.self, .init(grNumber: me.grNumber, term: term2.id)).classCode
        try await fixture.harness.console { console in
            _ = try await console.signIn("student@databayt.org", AuthDemo.password, school: fixture.school.id)
            for path in ["\(Self.print)?term=\(term2.id)&student=\(me.grNumber)", "\(Self.print)?term=\(term2.id)", "\(Self.print)?term=\(term2.id)&class=\(classCode)"] {
                let page = try await console.get(path)
                #expect(page.status >= 400 && page.html.contains("role=\"alert\""), "\(path): \(page.status)")
                #expect(!page.html.contains("print-card") && !page.html.contains("<table"), "\(path)")
            }
        }
    }
}
