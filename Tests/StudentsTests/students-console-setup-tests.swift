import Auth
import Core
import Foundation
import HogwartsTestSupport
import Students
import Testing

/// The school's set-up in the browser: an administrator adds a school year, a term, a year level,
/// a class, a subject and a teaching assignment, each through its form, and each is then what
/// the roster's own reads return. Refusals say which field, in words, and save nothing.
@Suite("Students console: the school's set-up")
struct StudentsConsoleSetupTests {
    typealias Admin = StudentsConsoleAdminTests

    @Test("an admin adds a year, a term, a year level, a class with its homeroom teacher, a subject and who teaches it; each shows in its list and in the roster")
    func addEach() async throws {
        let fixture = try Admin.fixture()
        try await fixture.harness.console { console in
            let dashboard = try await console.signIn("head@school.org", Admin.password)
            #expect(dashboard.html.contains("href=\"/m/students/setup\""), "the set-up is in an administrator's menu")
            _ = try await console.post("/language", [("lang", "en"), ("back", "/m/students/setup")])
            let page = try await console.get("/m/students/setup")
            #expect(page.status == 200 && !Admin.commandLineText(page.html))
            for form in ["year", "term", "level", "class", "subject", "teach"] { #expect(page.html.contains("id=\"setup-\(form)\""), "\(form)") }

            let posts: [[(String, String)]] = [
                [("form", "year"), ("name", "2027-2028"), ("starts_on", "2027-09-01"), ("ends_on", "2028-06-30")],
                [("form", "term"), ("school_year", "2027-2028"), ("name_ar", "الفصل الأول"), ("name_en", "Autumn 2027"),
                 ("starts_on", "2027-09-01"), ("ends_on", "2027-12-20")],
                [("form", "level"), ("code", "G9"), ("name_ar", "الصف التاسع"), ("name_en", "Grade 9"), ("position", "9")],
                [("form", "class"), ("code", "9B"), ("name_ar", "التاسع ب"), ("name_en", "Grade 9 B"), ("year_level", "G9"),
                 ("homeroom", "t8a@school.org"), ("capacity", "28")],
                [("form", "subject"), ("code", "GEO"), ("name_ar", "الجغرافيا"), ("name_en", "Geography"), ("credits", "1.5")],
                [("form", "teach"), ("teacher", "t8a@school.org"), ("class", "9B"), ("subject", "GEO")],
            ]
            for fields in posts {
                let done = try await console.post("/m/students/setup", fields)
                #expect(done.status == 200 && done.html.contains("Added."), "\(fields[0].1)")
            }
            let after = try await console.get("/m/students/setup")
            #expect(after.html.contains("Autumn 2027") && after.html.contains("G9 · Grade 9") && after.html.contains("9B · Grade 9 B · 0 of 28 seats"))
            #expect(after.html.contains("GEO · Geography") && after.html.contains("9B · GEO ·"))
        }
        #expect(try fixture.run(ListTerms.self, .init()).contains { $0.name.en == "Autumn 2027" && $0.schoolYear == "2027-2028" })
        let nineB = try #require(try fixture.run(ListClasses.self, .init()).first { $0.code == "9B" })
        #expect(nineB.capacity == 28 && nineB.yearLevel == "G9" && nineB.homeroomTeacherID != nil)
        #expect(try fixture.run(ListSubjects.self, .init()).first { $0.code == "GEO" }?.credits == 1.5)
        let setup = try fixture.run(ShowRosterSetup.self, .init())
        #expect(setup.teaching.contains { $0.classCode == "9B" && $0.subjectCode == "GEO" && $0.teacherEmail == "t8a@school.org" })
    }

    @Test("a missing name, a taken code and a seat count that is not a number are refused above their form in words, beside the field, typed values kept, nothing saved; a teacher is refused the page")
    func refusals() async throws {
        let fixture = try Admin.fixture()
        let before = try fixture.run(ShowRosterSetup.self, .init())
        try await fixture.harness.console { console in
            _ = try await console.signIn("head@school.org", Admin.password)
            _ = try await console.post("/language", [("lang", "en"), ("back", "/m/students/setup")])
            let missing = try await console.post("/m/students/setup", [("form", "level"), ("code", "G9"), ("name_ar", "الصف التاسع"), ("name_en", ""), ("position", "9")])
            #expect(missing.html.contains("id=\"setup-level-problem\"") && missing.html.contains("fill in “Name in English”"))
            #expect(missing.html.contains("id=\"setup-level-name-en\" name=\"name_en\" type=\"text\" value=\"\" autocomplete=\"off\" aria-invalid=\"true\""))
            #expect(missing.html.contains("value=\"الصف التاسع\""), "what was typed stays")
            let taken = try await console.post("/m/students/setup", [("form", "subject"), ("code", before.subjects[0].code), ("name_ar", "س"), ("name_en", "S"), ("credits", "1")])
            #expect(taken.html.contains("id=\"setup-subject-problem\"") && taken.html.contains("already used"))
            let seats = try await console.post("/m/students/setup", [("form", "class"), ("code", "9Z"), ("name_ar", "ز"), ("name_en", "Z"),
                                                                    ("year_level", before.yearLevels[0].code), ("homeroom", ""), ("capacity", "many")])
            #expect(seats.html.contains("“Seats” must be a number") && seats.html.contains("id=\"setup-class-capacity\""))
            for page in [missing, taken, seats] { #expect(!Admin.commandLineText(page.html) && !page.html.contains("name_en is required")) }
        }
        #expect(try fixture.run(ShowRosterSetup.self, .init()) == before, "nothing was saved")
        try await fixture.harness.console { console in
            let dashboard = try await console.signIn("t8a@school.org", Admin.password)
            #expect(!dashboard.html.contains("href=\"/m/students/setup\""))
            #expect(try await console.get("/m/students/setup").status == 403)
            #expect(try await console.post("/m/students/setup", [("form", "subject"), ("code", "X"), ("name_ar", "س"), ("name_en", "S"), ("credits", "1")]).status == 403)
        }
        #expect(try fixture.run(ListSubjects.self, .init()).count == before.subjects.count)
    }
}
