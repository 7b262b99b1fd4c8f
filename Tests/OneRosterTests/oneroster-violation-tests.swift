import Auth
import Core
import Foundation
import HogwartsTestSupport
import OneRoster
import Students
import Testing

/// `--strict`: the specification's exact reading, as before lenient reading existed.
@Suite("OneRoster validation")
struct OneRosterViolationTests {
    /// The violations of a set read strictly, each as `file:row:column`, after checking nothing was written.
    func violations(_ fixture: OneRosterFixture) throws -> [String] {
        let school = try OneRosterSchool()
        var found: [OneRosterViolation] = []
        do {
            try school.importSet(fixture.set, strict: true)
        } catch OneRosterError.invalidSet(let violations) {
            found = violations
        }
        #expect(try school.run(CountRoster.self, .init()).students == 0, "nothing is written")
        #expect(try school.run(ListUsers.self, .init()).isEmpty)
        let dry = try school.importSet(fixture.set, dryRun: true, strict: true)
        #expect(dry.violations == found, "a dry run lists the same problems")
        return found.map { "\($0.file):\($0.row):\($0.column)" }
    }

    @Test("a missing required column and a header that differs from the spec are named at row 1")
    func headers() throws {
        var fixture = OneRosterFixture.bulk()
        fixture.files["courses"] = fixture.files["courses"]?.map { Array($0.prefix(7)) + Array($0.dropFirst(8)) }
        fixture.files["classes"]?[0][6] = "classcode"
        fixture.files["orgs"] = fixture.files["orgs"]?.map { [$0[0], $0[1], $0[2], $0[4], $0[3], $0[5], $0[6]] }
        let found = try violations(fixture)
        #expect(found.contains("courses.csv:1:orgSourcedId"))
        #expect(found.contains("classes.csv:1:classcode"))
        #expect(found.contains("orgs.csv:1:name"), "columns out of the spec's order")
    }

    @Test("a missing or duplicate sourcedId, an unknown reference, a bad date or enum, a user without email or username")
    func rows() throws {
        var fixture = OneRosterFixture.bulk()
        fixture.files["classes"]?[2][0] = ""
        fixture.files["classes"]?[3][5] = "c-nowhere"
        fixture.files["courses"]?[2][0] = "c-math"
        fixture.files["academicSessions"]?[2][5] = "2026-02-30"
        fixture.files["classes"]?[1][7] = "seminar"
        fixture.files["enrollments"]?[5][5] = "u-ghost"
        fixture.files["users"]?[5][10] = ""
        fixture.files["users"]?[5][4] = ""
        fixture.files["users"]?[6][7] = "بنت\nخالد"
        let found = try violations(fixture)
        #expect(found.contains("classes.csv:3:sourcedId"))
        #expect(found.contains("courses.csv:3:sourcedId"))
        #expect(found.contains("classes.csv:4:courseSourcedId"))
        #expect(found.contains("academicSessions.csv:3:startDate"))
        #expect(found.contains("classes.csv:2:classType"))
        #expect(found.contains("enrollments.csv:6:userSourcedId"))
        #expect(found.contains("users.csv:6:email"))
        #expect(found.contains("users.csv:7:familyName"), "a quoted line break is read, but a name is one line")
    }

    @Test("a delta row needs a status and a time; a bulk row may not be tobedeleted")
    func statuses() throws {
        var fixture = OneRosterFixture.bulk()
        fixture.files["orgs"]?[1][1] = "tobedeleted"
        fixture.modes["courses"] = "delta"
        fixture.files["courses"]?[1][1] = "active"
        fixture.files["courses"]?[1][2] = "yesterday"
        let found = try violations(fixture)
        #expect(found.contains("orgs.csv:2:status"))
        #expect(found.contains("courses.csv:2:dateLastModified"))
        #expect(found.contains("courses.csv:3:status"))
    }

    @Test("what Hogwarts needs: a new student's birth date and sex, a class's grade, one homeroom per student")
    func hogwartsRules() throws {
        var fixture = OneRosterFixture.bulk()
        fixture.files["demographics"]?[1][4] = "unspecified"
        fixture.files["classes"]?[1][4] = ""
        fixture.files["courses"]?[3][6] = ""
        fixture.files["classes"]?.append(["k-7b", "", "", "7B", "07", "c-hr7", "7B", "homeroom", "", "org-1", "t1", "", "", ""])
        fixture.files["enrollments"]?.append(["e-twice", "", "", "k-7b", "org-1", "u-s1", "student", "false", "", ""])
        let found = try violations(fixture)
        #expect(found.contains("demographics.csv:2:sex"))
        #expect(found.contains("classes.csv:2:grades"))
        #expect(found.contains { $0.hasPrefix("enrollments.csv:") && $0.hasSuffix(":classSourcedId") })
    }

    @Test("a manifest that lists a missing file, an unclosed quote, and a file that is not in the manifest")
    func manifestAndQuotes() throws {
        var fixture = OneRosterFixture.bulk()
        fixture.manifest?.append(["file.lineItems", "bulk"])
        var set = fixture.set
        set["orgs"] = (set["orgs"] ?? "") + "org-x,,,\"Broken,school,,\n"
        set["resources"] = "sourcedId,status,dateLastModified,vendorResourceId\nr1,,,v1\n"
        let school = try OneRosterSchool()
        var found: [String] = []
        do { try school.importSet(set, strict: true) } catch OneRosterError.invalidSet(let violations) { found = violations.map { "\($0.file):\($0.column)" } }
        #expect(found.contains("manifest.csv:file.lineItems"))
        #expect(found.contains("orgs.csv:-"))
        #expect(found.contains("manifest.csv:file.resources"))
    }
}
