import Auth
import Core
import Foundation
import HogwartsTestSupport
import Students
import Testing

/// Correcting a student's details and archiving a student from their page, as an administrator;
/// each write is `students.update` or `students.archive`, checked in the database.
@Suite("Students console: correct and archive a student")
struct StudentsConsoleEditTests {
    typealias Admin = StudentsConsoleAdminTests

    @Test("an admin corrects a name, birth date, sex and status; a birth date in the future is refused beside its field, the typed values kept and nothing written")
    func correct() async throws {
        let fixture = try Admin.fixture()
        let gr3 = try fixture.run(ShowStudent.self, .init(grNumber: "GR-3")).student
        try await fixture.harness.console { console in
            _ = try await console.signIn("head@school.org", Admin.password)
            _ = try await console.post("/language", [("lang", "en"), ("back", "/m/students/students")])
            let page = try await console.get("/m/students/student?id=\(gr3.id)")
            #expect(page.html.contains("id=\"edit-form\"") && page.html.contains("value=\"\(gr3.givenName)\""))
            #expect(page.html.contains("<option value=\"\(gr3.status.rawValue)\" selected>"))

            let refused = try await console.post("/m/students/student", [
                ("id", gr3.id), ("do", "edit"), ("given_name", "Yusuf"), ("surname", gr3.surname), ("date_of_birth", "2099-01-01"),
                ("gender", "MALE"), ("status", "ACTIVE"),
            ])
            #expect(refused.status == 200 && refused.html.contains("id=\"edit-problems\""))
            #expect(refused.html.contains("id=\"edit-date-of-birth-problem\"") && refused.html.contains("aria-invalid=\"true\""))
            #expect(refused.html.contains("value=\"Yusuf\""), "what was typed stays in the form")
            #expect(!Admin.commandLineText(refused.html))
            #expect(try fixture.run(ShowStudent.self, .init(grNumber: "GR-3")).student.givenName == gr3.givenName, "nothing was written")

            let saved = try await console.post("/m/students/student", [
                ("id", gr3.id), ("do", "edit"), ("given_name", "Yusuf"), ("surname", gr3.surname), ("date_of_birth", "2012-09-30"),
                ("gender", "MALE"), ("status", "TRANSFERRED"),
            ])
            #expect(saved.status == 200 && saved.html.contains("id=\"student-notice\"") && saved.html.contains("The details of Yusuf"))
        }
        let after = try fixture.run(ShowStudent.self, .init(grNumber: "GR-3")).student
        #expect(after.givenName == "Yusuf" && after.dateOfBirth == "2012-09-30" && after.gender == .male && after.status == .transferred)
        #expect(after.classID == gr3.classID, "correcting details keeps the class")
    }

    @Test("archiving asks first and says the records stay; confirmed, the student leaves the list and their records stay; a teacher can do neither")
    func archive() async throws {
        let fixture = try Admin.fixture()
        let gr3 = try fixture.run(ShowStudent.self, .init(grNumber: "GR-3")).student
        try await fixture.harness.console { console in
            let teacher = try await console.signIn("t8a@school.org", Admin.password)
            #expect(teacher.status == 200)
            let own = try await console.get("/m/students/student?id=\(gr3.id)")
            #expect(own.status == 200 && !own.html.contains("id=\"edit-form\"") && !own.html.contains("id=\"archive-form\""))
            #expect(try await console.post("/m/students/student", [("id", gr3.id), ("do", "archive")]).status == 403)
            #expect(try await console.post("/m/students/student", [("id", gr3.id), ("do", "edit"), ("given_name", "X")]).status == 403)
        }
        #expect(try fixture.run(ShowStudent.self, .init(grNumber: "GR-3")).student.givenName == gr3.givenName)
        try await fixture.harness.console { console in
            _ = try await console.signIn("head@school.org", Admin.password)
            let asked = try await console.post("/m/students/student", [("id", gr3.id), ("do", "archive-ask")])
            #expect(asked.status == 200 && asked.html.contains("id=\"archive-explain\"") && asked.html.contains("id=\"archive-confirm\""))
            #expect(try fixture.run(ListStudents.self, .init(search: "GR-3")).students.count == 1, "asking archives nothing")

            let archived = try await console.post("/m/students/student", [("id", gr3.id), ("do", "archive")])
            #expect(archived.status == 200 && archived.html.contains("id=\"students-notice\"") && !archived.html.contains("GR-3"))
            #expect(try await console.get("/m/students/student?id=\(gr3.id)").status == 404, "an archived student is gone from the pages")
        }
        #expect(try fixture.run(ListStudents.self, .init(search: "GR-3")).students.isEmpty)
    }

    @Test("an admin links a sibling's mother by email: the school's existing guardian is linked, not made twice, and her account sees the child; a missing relation and a bad email are refused beside their fields")
    func linkGuardian() async throws {
        let fixture = try Admin.fixture()
        let gr2 = try fixture.run(ShowStudent.self, .init(grNumber: "GR-2")).student
        let guardiansBefore = try fixture.run(ShowStudent.self, .init(grNumber: "GR-2")).guardians.count
        try await fixture.harness.console { console in
            _ = try await console.signIn("head@school.org", Admin.password)
            let page = try await console.get("/m/students/student?id=\(gr2.id)")
            #expect(page.html.contains("id=\"guardian-form\""))

            let noRelation = try await console.post("/m/students/student", [
                ("id", gr2.id), ("do", "guardian"), ("guardian.given_name", "هالة"), ("guardian.surname", "عثمان"), ("guardian.email", "mum@family.org"),
            ])
            #expect(noRelation.html.contains("id=\"guardian-relation-problem\"") && noRelation.html.contains("value=\"mum@family.org\""))
            let badEmail = try await console.post("/m/students/student", [
                ("id", gr2.id), ("do", "guardian"), ("guardian.given_name", "هالة"), ("guardian.surname", "عثمان"),
                ("guardian.relation", "MOTHER"), ("guardian.email", "not-an-email"),
            ])
            #expect(badEmail.html.contains("id=\"guardian-email-problem\"") && !Admin.commandLineText(badEmail.html))
            #expect(try fixture.run(ShowStudent.self, .init(grNumber: "GR-2")).guardians.count == guardiansBefore, "nothing was linked")

            let linked = try await console.post("/m/students/student", [
                ("id", gr2.id), ("do", "guardian"), ("guardian.given_name", "هالة"), ("guardian.surname", "عثمان"),
                ("guardian.relation", "MOTHER"), ("guardian.email", "Mum@Family.org"), ("guardian.primary", "true"),
            ])
            #expect(linked.status == 200 && linked.html.contains("id=\"student-notice\"") && linked.html.contains("هالة"))
        }
        let guardians = try fixture.run(ShowStudent.self, .init(grNumber: "GR-2")).guardians
        let mother = try #require(guardians.first { $0.email == "mum@family.org" })
        let sibling = try #require(try fixture.run(ShowStudent.self, .init(grNumber: "GR-1")).guardians.first { $0.email == "mum@family.org" })
        #expect(mother.id == sibling.id && mother.isPrimary && mother.userID != nil, "the same guardian, tied to her account")
        let children = try fixture.run(ListChildren.self, .init(), as: fixture.guardian).map(\.student.grNumber)
        #expect(children.contains("GR-2"))
    }
}
