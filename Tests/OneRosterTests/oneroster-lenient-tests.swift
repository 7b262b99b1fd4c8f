import Auth
import Core
import Foundation
import HogwartsTestSupport
import OneRoster
import Students
import Testing

/// What real information systems export: each quirk alone and mixed, imported with a warning
/// that names file, row and column, and the same roster as the exact set.
@Suite("OneRoster lenient reading")
struct OneRosterLenientTests {
    /// Imports a set and returns its warnings as `file:row:column`, with the roster it made.
    func imported(_ fixture: OneRosterFixture, org: String? = nil) throws -> (warnings: [String], roster: [String]) {
        let school = try OneRosterSchool()
        let dry = try school.importSet(fixture.set, dryRun: true, org: org)
        #expect(dry.violations.isEmpty, "no errors: \(dry.violations)")
        let report = try school.importSet(fixture.set, org: org)
        #expect(report.warnings == dry.warnings, "a dry run lists the same warnings")
        return (report.warnings.map { "\($0.file):\($0.row):\($0.column)" }, try school.signature())
    }

    static let exact: [String] = {
        (try? OneRosterSchool()).flatMap { school in (try? school.importSet(OneRosterFixture.bulk().set)).flatMap { _ in try? school.signature() } } ?? []
    }()

    /// Case differences, a date-only time, a vendor column and columns out of order.
    static func quirks(_ fixture: inout OneRosterFixture) {
        fixture.files["users"]?[1][3] = "TRUE"
        fixture.files["users"]?[2][2] = "2023-05-01"
        fixture.files["classes"]?[2][7] = "Scheduled"
        fixture.files["enrollments"]?[1][7] = "True"
        fixture.files["orgs"] = fixture.files["orgs"]?.map { [$0[0], $0[1], $0[2], $0[4], $0[3], $0[5], $0[6]] }
        fixture.files["courses"] = fixture.files["courses"]?.map { $0 + [$0[0] == "sourcedId" ? "vendorNote" : "x"] }
        fixture.files["classes"]?[0][6] = "classcode"
    }

    @Test("each quirk alone gives its warning and the exact set's roster")
    func singly() throws {
        #expect(!Self.exact.isEmpty)
        let cases: [(String, (inout OneRosterFixture) -> Void)] = [
            ("users.csv:2:enabledUser", { $0.files["users"]?[1][3] = "TRUE" }),
            ("classes.csv:3:classType", { $0.files["classes"]?[2][7] = "Scheduled" }),
            ("users.csv:3:dateLastModified", { $0.files["users"]?[2][2] = "2023-05-01" }),
            ("orgs.csv:1:name", { $0.files["orgs"] = $0.files["orgs"]?.map { [$0[0], $0[1], $0[2], $0[4], $0[3], $0[5], $0[6]] } }),
            ("courses.csv:1:vendorNote", { $0.files["courses"] = $0.files["courses"]?.map { $0 + [$0[0] == "sourcedId" ? "vendorNote" : "x"] } }),
            ("classes.csv:1:classcode", { $0.files["classes"]?[0][6] = "classcode" }),
        ]
        for (expected, change) in cases {
            var fixture = OneRosterFixture.bulk()
            change(&fixture)
            let (warnings, roster) = try imported(fixture)
            #expect(warnings == [expected])
            #expect(roster == Self.exact, "\(expected): the same roster as the exact set")
        }
    }

    @Test("all quirks mixed: every warning listed, the same roster; --strict refuses each")
    func mixed() throws {
        var fixture = OneRosterFixture.bulk()
        Self.quirks(&fixture)
        let (warnings, roster) = try imported(fixture)
        #expect(Set(warnings) == ["users.csv:2:enabledUser", "users.csv:3:dateLastModified", "classes.csv:3:classType", "enrollments.csv:2:primary",
                                  "orgs.csv:1:name", "courses.csv:1:vendorNote", "classes.csv:1:classcode"])
        #expect(roster == Self.exact)
        let school = try OneRosterSchool()
        #expect(throws: OneRosterError.self) { try school.importSet(fixture.set, strict: true) }
        #expect(try school.run(ListUsers.self, .init()).isEmpty, "strict refusal writes nothing")
    }

    @Test("a bulk row marked tobedeleted is left out with a warning")
    func bulkDeleted() throws {
        var fixture = OneRosterFixture.bulk()
        fixture.files["users"]?.append(OneRosterFixture.user("u-gone", given: "Old", family: "Teacher", email: "old@shorouq.edu", status: "tobedeleted"))
        let (warnings, roster) = try imported(fixture)
        #expect(warnings == ["users.csv:10:status"])
        #expect(roster == Self.exact, "the deleted row made no account")
    }

    @Test("a class without grades takes its students' grade, else the unassigned year level")
    func missingGrades() throws {
        var fixture = OneRosterFixture.bulk()
        fixture.files["classes"]?[1][4] = ""
        fixture.files["courses"]?[3][6] = ""
        for row in 4...6 { fixture.files["users"]?[row][14] = "07" }
        var (warnings, roster) = try imported(fixture)
        #expect(warnings == ["classes.csv:2:grades"])
        #expect(roster == Self.exact, "7A is in G7, as its students are")
        for row in 4...6 { fixture.files["users"]?[row][14] = "" }
        (warnings, roster) = try imported(fixture)
        #expect(warnings == ["classes.csv:2:grades"])
        #expect(roster.contains { $0.hasPrefix("class 7A UNASSIGNED ") })
    }

    @Test("a header-only roles.csv: each user takes the role they are enrolled with")
    func rolesFromEnrollments() throws {
        var fixture = OneRosterFixture.bulk()
        fixture.files["roles"] = fixture.files["roles"].map { [$0[0]] }
        // The admin and parents are enrolled nowhere: without roles they are left out of this set.
        fixture.files["users"] = fixture.files["users"]?.filter { !["u-a1", "u-p1", "u-p2"].contains($0[0]) }.map { row in
            var row = row
            if row[0] != "sourcedId" { row[13] = "" }
            return row
        }
        fixture.files["demographics"] = fixture.files["demographics"]?.filter { $0[0] != "u-p1" }
        let (warnings, roster) = try imported(fixture)
        #expect(warnings.first == "roles.csv:1:-")
        #expect(Set(warnings.dropFirst()) == Set((2...6).map { "users.csv:\($0):sourcedId" }))
        #expect(roster.contains("accounts TEACHER 2"))
        #expect(roster.contains("totals 3 2 0 1"), "three students, two teachers, no guardians, one class")
    }

    @Test("students without demographics: made with no birth date or sex, each named in a warning; --strict refuses")
    func withoutDemographics() throws {
        var fixture = OneRosterFixture.bulk()
        // u-s1 has no row, u-s2's sex is unspecified and u-s3's birth date is empty.
        fixture.files["demographics"] = fixture.files["demographics"]?.filter { $0[0] != "u-s1" }.map { row in
            var row = row
            if row[0] == "u-s2" { row[4] = "unspecified" }
            if row[0] == "u-s3" { row[3] = "" }
            return row
        }
        let (warnings, roster) = try imported(fixture)
        #expect(Set(warnings) == ["users.csv:5:sourcedId", "demographics.csv:2:sex", "demographics.csv:3:birthDate"])
        #expect(roster.contains { $0.hasPrefix("student S-001 أحمد|عثمان - - 7A ") }, "no birth date, no sex: \(roster)")
        #expect(roster.contains { $0.hasPrefix("student S-002 Layla, Jr|Mansour 2013-09-30 - 7A ") })
        #expect(roster.contains { $0.hasPrefix("student S-003 مريم|خالد - FEMALE 7A ") })
        #expect(roster.count == Self.exact.count, "every student and class is there")
        let strict = try OneRosterSchool()
        #expect(throws: OneRosterError.self) { try strict.importSet(fixture.set, strict: true) }
        #expect(try strict.run(CountRoster.self, .init()).students == 0)
    }

    @Test("several schools: refused with their list unless one is chosen by sourcedId or identifier")
    func severalSchools() throws {
        var fixture = OneRosterFixture.bulk()
        fixture.files["orgs"]?.append(["org-2", "", "", "Other School", "school", "OTH", "org-d"])
        fixture.files["classes"]?.append(["k-9x", "", "", "9X", "09", "c-hr7", "9X", "homeroom", "", "org-2", "t1", "", "", ""])
        let school = try OneRosterSchool()
        #expect(throws: OneRosterError.severalSchools([
            OneRosterSchoolChoice(sourcedId: "org-1", identifier: "SHR", name: "مدرسة الشروق"),
            OneRosterSchoolChoice(sourcedId: "org-2", identifier: "OTH", name: "Other School"),
        ])) {
            try school.importSet(fixture.set)
        }
        #expect(try school.run(ListUsers.self, .init()).isEmpty)
        let (warnings, roster) = try imported(fixture, org: "SHR")
        #expect(Set(warnings) == ["classes.csv:1:-", "orgs.csv:3:sourcedId"])
        #expect(roster == Self.exact, "only the chosen school's classes")
        #expect(throws: OneRosterError.self) { try school.importSet(fixture.set, org: "nowhere") }
    }

    @Test("a missing column is named once; the file's rows are still checked and no false reference is reported")
    func independentProblems() throws {
        var fixture = OneRosterFixture.bulk()
        fixture.files["users"] = fixture.files["users"]?.map { Array($0.prefix(7)) + Array($0.dropFirst(8)) }
        fixture.files["users"]?[2][3] = "maybe"
        fixture.files["classes"]?[2][5] = "c-nowhere"
        let school = try OneRosterSchool()
        let report = try school.importSet(fixture.set, dryRun: true)
        let found = report.violations.map { "\($0.file):\($0.row):\($0.column)" }
        #expect(found.contains("users.csv:1:familyName"))
        #expect(found.contains("users.csv:3:enabledUser"), "the rows of a file with a header problem are checked")
        #expect(found.contains("classes.csv:3:courseSourcedId"), "other files' problems are listed too")
        #expect(!found.contains { $0.hasPrefix("enrollments.csv:") || $0.hasPrefix("roles.csv:") }, "no false references to users.csv")
        #expect(throws: OneRosterError.self) { try school.importSet(fixture.set) }
        #expect(try school.run(ListUsers.self, .init()).isEmpty)
    }
}
