import Core
import Foundation
import HogwartsTestSupport
@testable import Students
import Testing

/// The Subjects page of the web console: a person's own subjects and the school's catalog, with
/// an Arabic-aware search, through the same actions as the apps' routes.
@Suite("Students: subjects in the web console")
struct StudentsSubjectsConsoleTests {
    @Test("a student sees their own subjects with their teachers, then the catalog; the search ignores diacritics; another school's subject never shows")
    func student() async throws {
        let setup = try StudentsSubjectsRoutesTests.Setup()
        try await setup.roster.harness.console { console in
            let dashboard = try await console.signIn("pupil@school.org", "Corr3ct-Horse")
            #expect(dashboard.html.contains("href=\"/m/students/subjects\""))
            let page = try await console.get("/m/students/subjects")
            #expect(page.status == 200)
            #expect(page.html.contains("موادي هذا العام"))
            let mine = try #require(Self.section("mine", of: page.html))
            #expect(mine.contains("MATH") && mine.contains("t8a@school.org"), "the pupil's class (8A) is taught maths by t8a")
            #expect(!mine.contains("ARAB"), "Arabic is taught in 7A, not in the pupil's class")
            let catalog = try #require(Self.section("catalog", of: page.html))
            #expect(catalog.contains("ARAB") && catalog.contains("MATH"))
            #expect(!page.html.contains("SECRET") && !page.html.contains("Secret subject"))

            // "العَرَبِيَّة" with its vowel marks finds "اللغة العربية", written without them.
            let query = "العَرَبِيَّة".addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            let found = try await console.get("/m/students/subjects?search=\(query)")
            let foundCatalog = try #require(Self.section("catalog", of: found.html))
            #expect(foundCatalog.contains("ARAB") && !foundCatalog.contains("MATH"))
            let nothing = try await console.get("/m/students/subjects?search=SECRET")
            #expect(nothing.html.contains("لا مادة تطابق") && !nothing.html.contains("Secret subject"))

            _ = try await console.post("/language", [("lang", "en"), ("back", "/m/students/subjects")])
            let english = try await console.get("/m/students/subjects")
            #expect(english.html.contains("My subjects this year") && english.html.contains("Maths") && english.html.contains("Grade 8"))
        }
    }

    @Test("an administrator teaches nothing: the page is the catalog alone, with each subject's classes and teachers")
    func administrator() async throws {
        let setup = try StudentsSubjectsRoutesTests.Setup()
        _ = try RosterFixture.account("head@school.org", .admin, setup.roster.harness)
        try await setup.roster.harness.console { console in
            _ = try await console.signIn("head@school.org", "Corr3ct-Horse")
            let page = try await console.get("/m/students/subjects")
            #expect(page.status == 200)
            #expect(Self.section("mine", of: page.html) == nil)
            let catalog = try #require(Self.section("catalog", of: page.html))
            #expect(catalog.contains("7A: t7a@school.org") && catalog.contains("8A: t8a@school.org"))
        }
    }

    /// The HTML of the page's section `subjects-<id>`, nil when the page has none.
    static func section(_ id: String, of html: String) -> String? {
        guard let start = html.range(of: "aria-labelledby=\"subjects-\(id)\"") else { return nil }
        let rest = html[start.upperBound...]
        return String(rest[..<(rest.range(of: "</section>")?.lowerBound ?? rest.endIndex)])
    }
}
