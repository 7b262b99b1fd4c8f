import Auth
import Core
import Foundation
import Grades
import HogwartsTestSupport
import Students
import Testing

/// Assessments in the browser, laid out by the console's records pages from the module's own
/// actions: a teacher lists hers and sets a new one; a refusal is shown beside its field with
/// what she typed, and nothing is saved; those who do not enter grades have no such page.
@Suite("Grades console: assessments")
struct GradesConsoleAssessmentsTests {
    static let path = "/m/grades/assessments"

    static func form(_ fixture: GradesFixture, title: String, date: String, max: String, code: String) throws -> [(String, String)] {
        let term = try #require(try fixture.run(ListTerms.self, .init()).first { $0.name.en == "Term 1" })
        return [("title", title), ("class_code", "7A"), ("subject_code", "MATH"), ("term", term.id), ("kind", "QUIZ"), ("date", date),
                ("max_marks", max), ("passing_marks", "10"), ("category", "coursework"), ("code", code)]
    }

    @Test("a teacher finds Assessments in her menu, sets a quiz for the class and subject she teaches, and it is listed, searchable and has its own page")
    func teacherAdds() async throws {
        let fixture = try GradesFixture()
        try fixture.run(AssignTeacher.self, .init(teacherEmail: "teacher29@databayt.org", classCode: "7A", subjectCode: "MATH"))
        let teacher = try fixture.account("teacher29@databayt.org")
        let fields = try Self.form(fixture, title: "Fractions quiz", date: "2026-11-20", max: "20", code: "7A-MATH-FQ")
        try await fixture.harness.console { console in
            let dashboard = try await console.signIn("teacher29@databayt.org", AuthDemo.password, school: fixture.school.id)
            #expect(dashboard.html.contains("href=\"\(Self.path)\""))
            _ = try await console.post("/language", [("lang", "en"), ("back", Self.path)])
            let page = try await console.get(Self.path)
            #expect(page.status == 200 && page.html.contains("id=\"record-form\""))
            // Her own class and subject are offered by name, in words; the kinds too.
            #expect(page.html.contains("<option value=\"7A\">7A · ") && page.html.contains("<option value=\"MATH\">MATH · "))
            #expect(page.html.contains("<option value=\"QUIZ\">Quiz</option>"))
            #expect(page.html.contains("<label for=\"record-max-marks\">Out of</label>"))

            let added = try await console.post(Self.path, fields)
            #expect(added.status == 200 && added.html.contains("The assessment was added."))
            #expect(added.html.contains("Fractions quiz"))
            let found = try await console.get("\(Self.path)?search=fractions")
            #expect(found.html.contains("Fractions quiz") && found.html.contains("id=\"records-count\">1–1 of 1<"))
            let none = try await console.get("\(Self.path)?search=no-such-quiz")
            #expect(none.html.contains("id=\"records-none\"") && !none.html.contains("Fractions quiz"))
        }
        let listed = try fixture.run(ListAssessments.self, .init(classCode: "7A"), as: teacher)
        let made = try #require(listed.first { $0.code == "7A-MATH-FQ" })
        #expect(made.title == "Fractions quiz" && made.kind == .quiz && made.maxMarks == 20 && made.passingMarks == 10 && made.date == "2026-11-20")
        try await fixture.harness.console { console in
            _ = try await console.signIn("teacher29@databayt.org", AuthDemo.password, school: fixture.school.id)
            _ = try await console.post("/language", [("lang", "en"), ("back", Self.path)])
            let record = try await console.get("\(Self.path)?id=\(made.id)")
            #expect(record.status == 200 && record.html.contains("<dt>Pass mark</dt><dd><bdi dir=\"ltr\">10</bdi></dd>"))
            #expect(record.html.contains("<dt>Kind</dt><dd><bdi>Quiz</bdi></dd>"))
            #expect(try await console.get("\(Self.path)?id=no-such-assessment").status == 404)
        }
    }

    @Test("a date outside the term and marks that are not a number are shown beside their fields, typed values kept, nothing saved; in Arabic too")
    func refusals() async throws {
        let fixture = try GradesFixture()
        try fixture.run(AssignTeacher.self, .init(teacherEmail: "teacher29@databayt.org", classCode: "7A", subjectCode: "MATH"))
        let before = try fixture.run(ListAssessments.self, .init()).count
        try await fixture.harness.console { console in
            _ = try await console.signIn("teacher29@databayt.org", AuthDemo.password, school: fixture.school.id)
            let arabic = try await console.post(Self.path, try Self.form(fixture, title: "Quiz", date: "2026-11-20", max: "lots", code: "7A-Q-X"))
            #expect(arabic.html.contains("<html lang=\"ar\" dir=\"rtl\">"))
            #expect(arabic.html.contains("id=\"record-max-marks-problem\">اكتب رقمًا"))
            _ = try await console.post("/language", [("lang", "en"), ("back", Self.path)])
            let notNumber = try await console.post(Self.path, try Self.form(fixture, title: "Quiz", date: "2026-11-20", max: "lots", code: "7A-Q-X"))
            #expect(notNumber.html.contains("id=\"record-problems\">Nothing was saved: correct the field marked below."))
            #expect(notNumber.html.contains("id=\"record-max-marks-problem\">Write a number in digits"))
            #expect(notNumber.html.contains("value=\"lots\"") && notNumber.html.contains("value=\"Quiz\""), "what was typed stays")
            let outsideTerm = try await console.post(Self.path, try Self.form(fixture, title: "Quiz", date: "2027-05-20", max: "20", code: "7A-Q-X"))
            #expect(outsideTerm.html.contains("id=\"record-date-problem\">"))
            #expect(outsideTerm.html.contains("id=\"record-date\" name=\"date\" type=\"date\" value=\"2027-05-20\""))
            let empty = try await console.post(Self.path, try Self.form(fixture, title: "", date: "2026-11-20", max: "20", code: "7A-Q-X"))
            #expect(empty.html.contains("id=\"record-title-problem\">Fill this in."))
            for page in [arabic, notNumber, outsideTerm, empty] {
                #expect(page.status == 200 && !page.html.contains("--") && !page.html.contains("hogwarts "))
            }
        }
        #expect(try fixture.run(ListAssessments.self, .init()).count == before, "nothing was saved")
    }

    @Test("a subject she does not teach is refused and saved nowhere; a guardian has no assessments page and is refused it")
    func outOfReach() async throws {
        let fixture = try GradesFixture()
        try fixture.run(AssignTeacher.self, .init(teacherEmail: "teacher29@databayt.org", classCode: "7A", subjectCode: "MATH"))
        let before = try fixture.run(ListAssessments.self, .init()).count
        let setup = try fixture.run(ShowRosterSetup.self, .init())
        let hers = Set(setup.teaching.filter { $0.classCode == "7A" && $0.teacherEmail == "teacher29@databayt.org" }.map(\.subjectCode))
        let other = try #require(setup.subjects.map(\.code).first { !hers.contains($0) })
        var typed = try Self.form(fixture, title: "Essay", date: "2026-11-20", max: "20", code: "7A-X-E1")
        typed[2] = ("subject_code", other)
        let fields = typed
        try await fixture.harness.console { console in
            _ = try await console.signIn("teacher29@databayt.org", AuthDemo.password, school: fixture.school.id)
            let refused = try await console.post(Self.path, fields)
            #expect(refused.html.contains("id=\"record-problems\"") && refused.html.contains("value=\"Essay\""))
        }
        try await fixture.harness.console { console in
            let dashboard = try await console.signIn("parent@databayt.org", AuthDemo.password, school: fixture.school.id)
            #expect(!dashboard.html.contains("href=\"\(Self.path)\""))
            #expect(try await console.get(Self.path).status == 403)
            #expect(try await console.post(Self.path, fields).status == 403)
        }
        #expect(try fixture.run(ListAssessments.self, .init()).count == before)
    }
}
