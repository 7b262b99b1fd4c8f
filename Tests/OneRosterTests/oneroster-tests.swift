import Auth
import Core
import Foundation
import HogwartsTestSupport
import OneRoster
import Students
import Testing

@Suite("OneRoster import")
struct OneRosterImportTests {
    @Test("every string exists in Arabic and English")
    func strings() {
        let catalog = OneRosterModule().strings
        #expect(catalog.text("oneroster.module.name", in: .en) != nil)
        #expect(catalog.missingTranslations.isEmpty)
    }

    @Test("a bulk 1.2 set becomes the school's roster: classes, subjects, terms, accounts, students, guardians, teaching")
    func bulkImport() throws {
        let school = try OneRosterSchool()
        let report = try school.importSet(OneRosterFixture.bulk().set)
        #expect(report.version == "1.2")
        #expect(report.created["students"] == 3)
        #expect(report.created["classes"] == 1)
        #expect(report.created["subjects"] == 2)
        #expect(report.created["terms"] == 2)
        #expect(report.created["teaching"] == 2)
        #expect(report.created["guardian_links"] == 3)
        // Layla has only a username, so a student record without an account; Omar (staff) gets one at the school's .invalid address.
        #expect(report.codes.map(\.email).sorted() == ["ahmed@shorouq.edu", "hala@family.org", "huda@shorouq.edu", "maryam@shorouq.edu",
                                                        "nadia@family.org", "omar.h@test-school.invalid", "sara@shorouq.edu"].sorted())
        let signature = try school.signature()
        #expect(signature.contains("class 7A G7 3 sara@shorouq.edu"))
        #expect(signature.contains("teaches omar.h@test-school.invalid 7A Science"))
        #expect(signature.contains("teaches sara@shorouq.edu 7A الرياضيات"))
        #expect(signature.contains("student S-002 Layla, Jr|Mansour 2013-09-30 FEMALE 7A - nadia@family.org:GUARDIAN"))
        #expect(signature.contains("student S-003 مريم|خالد 2014-01-15 FEMALE 7A maryam@shorouq.edu hala@family.org:MOTHER"))
        #expect(signature.contains("term 2026-2027 2026-08-23 2026-12-31"), "1.2's endDate is exclusive")
        #expect(report.notImported.contains { $0.file == "courses.csv" && $0.row == 4 }, "the homeroom course is not a subject")
    }

    @Test("new accounts have no usable password until their one-time code sets one; a code works once")
    func setPasswordCodes() throws {
        let school = try OneRosterSchool()
        let report = try school.importSet(OneRosterFixture.bulk().set)
        let code = try #require(report.codes.first { $0.email == "sara@shorouq.edu" })
        let anonymous = Principal.anonymous
        let refused = try school.run(SignIn.self, .init(email: "sara@shorouq.edu", password: "Or-anything-at-all"), as: anonymous)
        #expect(refused.token == nil)
        #expect(throws: OneRosterError.badCode) {
            try school.run(RedeemSetPasswordCode.self, .init(email: "huda@shorouq.edu", code: code.code, password: "Tr1cky-Garden-42"), as: anonymous)
        }
        try school.run(RedeemSetPasswordCode.self, .init(email: "sara@shorouq.edu", code: code.code, password: "Tr1cky-Garden-42"), as: anonymous)
        #expect(try school.run(SignIn.self, .init(email: "sara@shorouq.edu", password: "Tr1cky-Garden-42"), as: anonymous).token != nil)
        #expect(throws: OneRosterError.badCode) {
            try school.run(RedeemSetPasswordCode.self, .init(email: "sara@shorouq.edu", code: code.code, password: "An0ther-Garden-42"), as: anonymous)
        }
    }

    @Test("with invite, new accounts are mailed an invitation instead of a code; one without a real address still gets a code")
    func invitations() throws {
        let mails = EventCatcher<AccountMailRequested>()
        let school = try OneRosterSchool(also: [mails.module(hearing: AuthModule().id)])
        let report = try school.importSet(OneRosterFixture.bulk().set, invite: true)
        let mailed = ["ahmed@shorouq.edu", "hala@family.org", "huda@shorouq.edu", "maryam@shorouq.edu", "nadia@family.org", "sara@shorouq.edu"]
        #expect(report.invited.sorted() == mailed)
        #expect(report.codes.map(\.email) == ["omar.h@test-school.invalid"], "a username-only teacher cannot be mailed")
        #expect(mails.events.filter { $0.kind == "invitation" }.map(\.email).sorted() == mailed)
        // The link in Sara's mail sets her password once; then she signs in.
        let link = try #require(mails.events.first { $0.email == "sara@shorouq.edu" }?.linkPath)
        // The token is `<school id>.<secret>`.
        let secret = try #require(link.split(separator: "token=").last?.split(separator: ".").last.map(String.init))
        try school.run(AcceptInvitation.self, .init(secret: secret, password: "Tr1cky-Garden-42"), as: .anonymous)
        #expect(try school.run(SignIn.self, .init(email: "sara@shorouq.edu", password: "Tr1cky-Garden-42"), as: .anonymous).token != nil)
        #expect(throws: (any Error).self) { try school.run(AcceptInvitation.self, .init(secret: secret, password: "An0ther-Garden-42"), as: .anonymous) }
    }

    @Test("importing the same set again updates and never duplicates")
    func reimport() throws {
        let school = try OneRosterSchool()
        try school.importSet(OneRosterFixture.bulk().set)
        let before = try school.signature()
        var changed = OneRosterFixture.bulk()
        changed.files["users"]?[4][6] = "Ahmad"
        let report = try school.importSet(changed.set)
        #expect(report.created.isEmpty && report.codes.isEmpty)
        #expect(report.updated["students"] == 1)
        let after = try school.signature()
        #expect(after.count == before.count)
        #expect(after.contains { $0.hasPrefix("student S-001 Ahmad|عثمان") })
    }

    @Test("a delta set's tobedeleted archives a student and suspends their account; new rows are added")
    func delta() throws {
        let school = try OneRosterSchool()
        try school.importSet(OneRosterFixture.bulk().set)
        var delta = OneRosterFixture()
        delta.modes = ["users": "delta", "roles": "delta", "demographics": "delta", "enrollments": "delta"]
        let when = "2026-11-20T08:00:00.000Z"
        delta.files["users"] = [OneRosterFixture.usersHeader12,
                                OneRosterFixture.user("u-s1", given: "أحمد", family: "عثمان", email: "ahmed@shorouq.edu", identifier: "S-001",
                                                      status: "tobedeleted", modified: when),
                                OneRosterFixture.user("u-s4", given: "Yusuf", family: "Idris", email: "yusuf@shorouq.edu", identifier: "S-004",
                                                      status: "active", modified: when)]
        delta.files["roles"] = [["sourcedId", "status", "dateLastModified", "userSourcedId", "roleType", "role", "beginDate", "endDate", "orgSourcedId", "userProfileSourcedId"],
                                ["r-u-s4", "active", when, "u-s4", "primary", "student", "", "", "org-1", ""]]
        delta.files["demographics"] = [Array(OneRosterFixture.bulk().files["demographics"]?[0] ?? []),
                                       ["u-s4", "active", when, "2013-03-03", "male", "", "", "", "", "", "", "", "", "", "", ""]]
        delta.files["enrollments"] = [Array(OneRosterFixture.bulk().files["enrollments"]?[0] ?? []),
                                      ["e-new", "active", when, "k-7a", "org-1", "u-s4", "student", "false", "", ""]]
        let report = try school.importSet(delta.set)
        #expect(report.archived["students"] == 1)
        #expect(report.archived["accounts"] == 1)
        #expect(report.created["students"] == 1)
        let students = try school.run(ListStudents.self, .init(sort: .name, pageSize: 100)).students
        #expect(students.map(\.grNumber).sorted() == ["S-002", "S-003", "S-004"])
        #expect(students.first { $0.grNumber == "S-004" }?.classCode == "7A")
        #expect(try school.run(ListUsers.self, .init()).first { $0.email == "ahmed@shorouq.edu" }?.status == .suspended)
    }

    @Test("a 1.1 set keeps role in users.csv and has no roles.csv")
    func version11() throws {
        var fixture = OneRosterFixture.bulk()
        fixture.manifest = [["manifest.version", "1.0"], ["oneroster.version", "1.1"]]
        let roles = Dictionary(uniqueKeysWithValues: (fixture.files["roles"] ?? []).dropFirst().map { ($0[3], $0[5] == "principal" ? "administrator" : $0[5]) })
        fixture.files["roles"] = nil
        fixture.files["users"] = [["sourcedId", "status", "dateLastModified", "enabledUser", "orgSourcedIds", "role", "username", "userIds", "givenName",
                                   "familyName", "middleName", "identifier", "email", "sms", "phone", "agentSourcedIds", "grades", "password"]]
            + (fixture.files["users"] ?? []).dropFirst().map { row in
                [row[0], "", "", "true", "org-1", roles[row[0]] ?? "", row[4], "", row[6], row[7], "", row[9], row[10], "", "", row[13], "", ""]
            }
        // 1.1's endDate is the last day itself.
        fixture.files["academicSessions"]?[2][6] = "2026-12-31"
        let school = try OneRosterSchool()
        let report = try school.importSet(fixture.set)
        #expect(report.version == "1.1")
        #expect(report.created["students"] == 3)
        #expect(try school.signature().contains("term 2026-2027 2026-08-23 2026-12-31"))
    }

    @Test("a set without a manifest is bulk, its version told by the headers; a BOM, CRLF and extension columns are fine")
    func noManifestBOMAndCRLF() throws {
        var fixture = OneRosterFixture.bulk()
        fixture.manifest = nil
        fixture.bom = true
        fixture.lineEnd = "\r\n"
        fixture.files["users"] = (fixture.files["users"] ?? []).enumerated().map { $0.offset == 0 ? $0.element + ["metadata.sis.house", "ext_locker"] : $0.element + ["Red", "12"] }
        let school = try OneRosterSchool()
        let report = try school.importSet(fixture.set)
        #expect(report.version == "1.2")
        #expect(report.created["students"] == 3)
        #expect(try school.signature().contains { $0.hasPrefix("student S-003 مريم|خالد") })
    }

    @Test("a teacher may not import, and nothing is written")
    func teacherRefused() throws {
        let school = try OneRosterSchool()
        #expect(throws: KernelError.permissionDenied(permission: "oneroster.import", role: .teacher)) {
            try school.run(ImportOneRoster.self, .init(files: OneRosterFixture.bulk().set), as: school.harness.user(.teacher))
        }
        #expect(try school.run(CountRoster.self, .init()).students == 0)
    }
}
