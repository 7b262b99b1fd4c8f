import Auth
import Core
import Foundation
import HogwartsTestSupport
import Students
import Testing

/// The administrator's student pages: the list (search, class filter, pages), a student's page
/// with the move to another class, and enrolment with guardians in one form. Every write is a
/// Students action, so what is refused and what is written is checked in the database.
@Suite("Students console pages for administrators")
struct StudentsConsoleAdminTests {
    static let password = "Corr3ct-Horse"

    /// The roster fixture with an administrator who signs in to the console.
    static func fixture() throws -> RosterFixture {
        let fixture = try RosterFixture()
        _ = try RosterFixture.account("head@school.org", .admin, fixture.harness)
        return fixture
    }

    static func classID(_ code: String, _ fixture: RosterFixture) throws -> String {
        try #require(try fixture.run(ListClasses.self, .init()).first { $0.code == code }).id
    }

    static func rows(_ html: String) -> Int { html.components(separatedBy: "row-link\"").count - 1 }

    /// Command-line words a web page must not show: an option (`--class`) or the program's name before a command.
    static func commandLineText(_ html: String) -> Bool {
        html.range(of: #"(?<![\w-])--[a-z][a-z-]+|\bhogwarts [a-z]"#, options: .regularExpression) != nil
    }

    @Test("an admin lists the students, searches, filters by a class chosen from a select and pages through; each name opens the student")
    func list() async throws {
        let fixture = try Self.fixture()
        let class7A = try Self.classID("7A", fixture)
        try fixture.run(CreateStudents.self, .init(students: (1...26).map {
            StudentFields(grNumber: "GR-P\($0)", givenName: "Pupil", surname: "Number \($0)", nameLanguage: "en", dateOfBirth: "", gender: "")
        }))
        try await fixture.harness.console { console in
            let dashboard = try await console.signIn("head@school.org", Self.password)
            #expect(dashboard.html.contains("href=\"/m/students/students\""))
            let page = try await console.get("/m/students/students")
            #expect(page.status == 200)
            #expect(page.html.contains("<html lang=\"ar\" dir=\"rtl\">"))
            #expect(Self.rows(page.html) == 25)
            #expect(page.html.contains("<option value=\"\(class7A)\""), "the class filter is a select of the school's classes")
            #expect(page.html.contains("الطلاب 1–25 من 30"))
            #expect(page.html.contains("rel=\"next\"") && !page.html.contains("rel=\"prev\""))
            #expect(page.html.contains("class=\"table-wrap\""), "the table scrolls inside its wrapper on a phone")
            #expect(page.html.contains("href=\"/m/students/enrol\""))
            #expect(!Self.commandLineText(page.html))
            let second = try await console.get("/m/students/students?page=2")
            #expect(Self.rows(second.html) == 5)
            #expect(second.html.contains("rel=\"prev\"") && !second.html.contains("rel=\"next\""))

            let search = try await console.get("/m/students/students?search=%D8%A7%D8%AD%D9%85%D8%AF") // احمد finds أحمد
            #expect(Self.rows(search.html) == 1 && search.html.contains("GR-1"))
            let student = try #require(try fixture.run(ListStudents.self, .init(search: "GR-1")).students.first)
            #expect(search.html.contains("href=\"/m/students/student?id=\(student.id)\""))
            let filtered = try await console.get("/m/students/students?class=\(class7A)")
            #expect(Self.rows(filtered.html) == 2 && filtered.html.contains("GR-1") && filtered.html.contains("GR-2") && !filtered.html.contains("GR-3"))
            #expect(filtered.html.contains("<option value=\"\(class7A)\" selected>"))
            let none = try await console.get("/m/students/students?search=nobody")
            #expect(Self.rows(none.html) == 0 && none.html.contains("لا طالب يطابق البحث"))

            let opened = try await console.get("/m/students/student?id=\(student.id)")
            #expect(opened.status == 200)
            #expect(opened.html.contains("GR-1") && opened.html.contains("هالة") && opened.html.contains("الأم"))
            #expect(opened.html.contains("\u{2066}2013-05-04\u{2069}"), "dates go through ConsoleDates")
            #expect(!Self.commandLineText(opened.html))
            _ = try await console.post("/language", [("lang", "en"), ("back", "/m/students/students")])
            let english = try await console.get("/m/students/students")
            #expect(english.html.contains("<html lang=\"en\" dir=\"ltr\">") && english.html.contains("Students 1–25 of 30"))
        }
    }

    @Test("an admin enrols a student with two guardians in one form: the student is in the class and both guardians are linked")
    func enrol() async throws {
        let fixture = try Self.fixture()
        let class8A = try Self.classID("8A", fixture)
        try await fixture.harness.console { console in
            _ = try await console.signIn("head@school.org", Self.password)
            let form = try await console.get("/m/students/enrol")
            #expect(form.status == 200)
            #expect(form.html.contains("data-submit-once") && form.html.contains("name=\"_csrf\""))
            #expect(form.html.contains("<select id=\"enrol-class\" name=\"class\""))
            #expect(!Self.commandLineText(form.html))
            let saved = try await console.post("/m/students/enrol", [
                ("given_name", "سارة"), ("surname", "حسن"), ("name_language", "ar"), ("class", class8A), ("gr_number", ""),
                ("date_of_birth", "2014-03-02"), ("gender", "FEMALE"),
                ("guardian1.given_name", "منى"), ("guardian1.surname", "حسن"), ("guardian1.relation", "MOTHER"),
                ("guardian1.email", "mona@family.org"), ("guardian1.phone", "+249 912 000 000"),
                ("guardian2.given_name", "خالد"), ("guardian2.surname", "حسن"), ("guardian2.relation", "FATHER"),
                ("guardian2.email", ""), ("guardian2.phone", ""),
            ])
            #expect(saved.status == 200)
            #expect(saved.html.contains("id=\"student-notice\""), "the new student's page says it is done")
            #expect(saved.html.contains("منى") && saved.html.contains("خالد"))
        }
        let found = try fixture.run(ListStudents.self, .init(search: "سارة")).students
        let student = try #require(found.first)
        #expect(found.count == 1 && student.classCode == "8A" && student.grNumber.hasPrefix("GR-"))
        let detail = try fixture.run(ShowStudent.self, .init(grNumber: student.id))
        #expect(detail.guardians.count == 2)
        let mother = try #require(detail.guardians.first { $0.email == "mona@family.org" })
        #expect(mother.relation == .mother && mother.isPrimary && mother.phone == "+249 912 000 000")
        #expect(detail.guardians.contains { $0.givenName == "خالد" && $0.relation == .father && !$0.isPrimary })
    }

    @Test("a bad field is shown beside that field with the typed values kept, and nothing is written")
    func enrolProblems() async throws {
        let fixture = try Self.fixture()
        let class8A = try Self.classID("8A", fixture)
        let before = try fixture.run(CountRoster.self, .init())
        try await fixture.harness.console { console in
            _ = try await console.signIn("head@school.org", Self.password)
            _ = try await console.get("/m/students/enrol")
            let refused = try await console.post("/m/students/enrol", [
                ("given_name", "سارة"), ("surname", ""), ("name_language", "ar"), ("class", class8A), ("gr_number", "GR-1"),
                ("date_of_birth", "2031-01-01"), ("gender", ""),
                ("guardian1.given_name", "منى"), ("guardian1.surname", "حسن"), ("guardian1.relation", ""),
                ("guardian1.email", "not-an-email"), ("guardian1.phone", ""),
            ])
            #expect(refused.status == 200)
            #expect(refused.html.contains("id=\"enrol-problems\""))
            for field in ["surname", "gr-number", "date-of-birth", "guardian1-email", "guardian1-relation"] {
                #expect(refused.html.contains("id=\"enrol-\(field)-problem\""), "\(field) has its problem beside it")
                #expect(refused.html.contains("aria-describedby=\"enrol-\(field)-problem\"") || refused.html.contains(" enrol-\(field)-problem\""))
            }
            #expect(!refused.html.contains("id=\"enrol-given-name-problem\""))
            #expect(refused.html.contains("value=\"سارة\"") && refused.html.contains("value=\"not-an-email\""), "what was typed is kept")
            #expect(!Self.commandLineText(refused.html))
        }
        let after = try fixture.run(CountRoster.self, .init())
        #expect(after.students == before.students && after.guardians == before.guardians)
        #expect(try fixture.run(ListStudents.self, .init(search: "سارة")).students.isEmpty)
    }

    @Test("students.admit alone: every problem by field, two guardians with one email refused, a teacher refused, nothing written")
    func admitAction() throws {
        let fixture = try Self.fixture()
        let before = try fixture.run(CountRoster.self, .init())
        let student = StudentFields(grNumber: "", givenName: "Sara", surname: "Hassan", nameLanguage: "en", dateOfBirth: "", gender: "", classCode: "8A")
        let twins = [AdmissionGuardian(givenName: "Mona", surname: "Hassan", email: "same@family.org", relation: "MOTHER", isPrimary: true),
                     AdmissionGuardian(givenName: "Khalid", surname: "Hassan", email: "Same@family.org", relation: "FATHER")]
        let error = try #require(throws: AdmissionError.self) { try fixture.run(AdmitStudent.self, .init(student: student, guardians: twins)) }
        #expect(error.problems.map(\.field) == ["guardian2.email"])
        #expect(throws: AdmissionError.self) { try fixture.run(AdmitStudent.self, .init(student: student, guardians: [])) }
        #expect(throws: KernelError.self) { try fixture.run(AdmitStudent.self, .init(student: student, guardians: Array(twins.prefix(1))), as: fixture.teacher8A) }
        #expect(try fixture.run(CountRoster.self, .init()) == before)
        let detail = try fixture.run(AdmitStudent.self, .init(student: student, guardians: Array(twins.prefix(1))))
        #expect(detail.student.classCode == "8A" && detail.guardians.map(\.email) == ["same@family.org"])
    }

    @Test("an admin moves a student to another class and the rosters change; a full class is refused beside the field")
    func move() async throws {
        let fixture = try Self.fixture()
        let class7A = try Self.classID("7A", fixture)
        let class8A = try Self.classID("8A", fixture)
        let gr3 = try fixture.run(ShowStudent.self, .init(grNumber: "GR-3")).student.id
        let gr4 = try fixture.run(ShowStudent.self, .init(grNumber: "GR-4")).student.id
        try await fixture.harness.console { console in
            _ = try await console.signIn("head@school.org", Self.password)
            let page = try await console.get("/m/students/student?id=\(gr3)")
            #expect(page.html.contains("id=\"move-form\"") && page.html.contains("<option value=\"\(class8A)\" selected>"))
            let moved = try await console.post("/m/students/student", [("id", gr3), ("class", class7A)])
            #expect(moved.status == 200 && moved.html.contains("id=\"student-notice\""))
            #expect(moved.html.contains("<option value=\"\(class7A)\" selected>"))
            // 7A holds 3: GR-1, GR-2 and now GR-3.
            let full = try await console.post("/m/students/student", [("id", gr4), ("class", class7A)])
            #expect(full.status == 200)
            #expect(full.html.contains("id=\"move-class-problem\"") && full.html.contains("aria-invalid=\"true\""))
            let empty = try await console.post("/m/students/student", [("id", gr4), ("class", "")])
            #expect(empty.html.contains("id=\"move-class-problem\""))
        }
        let roster7A = try fixture.run(ListClassStudents.self, .init(classID: class7A)).map(\.grNumber).sorted()
        let roster8A = try fixture.run(ListClassStudents.self, .init(classID: class8A)).map(\.grNumber).sorted()
        #expect(roster7A == ["GR-1", "GR-2", "GR-3"])
        #expect(roster8A == ["GR-4"])
    }

    @Test("a teacher, a guardian and a student cannot reach the enrolment form; a teacher lists only their classes and cannot move anyone")
    func refusals() async throws {
        let fixture = try Self.fixture()
        let class8A = try Self.classID("8A", fixture)
        let gr1 = try fixture.run(ShowStudent.self, .init(grNumber: "GR-1")).student.id
        let gr3 = try fixture.run(ShowStudent.self, .init(grNumber: "GR-3")).student.id
        let before = try fixture.run(CountRoster.self, .init())
        let enrolment = [("given_name", "سارة"), ("surname", "حسن"), ("class", class8A), ("guardian1.given_name", "منى"),
                         ("guardian1.surname", "حسن"), ("guardian1.relation", "MOTHER")]
        for email in ["t8a@school.org", "mum@family.org", "pupil@school.org"] {
            try await fixture.harness.console { console in
                let dashboard = try await console.signIn(email, Self.password)
                #expect(!dashboard.html.contains("href=\"/m/students/enrol\""), "\(email)")
                #expect(try await console.get("/m/students/enrol").status == 403, "\(email)")
                let posted = try await console.post("/m/students/enrol", enrolment)
                #expect(posted.status == 403, "\(email)")
                if email != "t8a@school.org" {
                    #expect(!dashboard.html.contains("href=\"/m/students/students\""), "\(email)")
                    #expect(try await console.get("/m/students/student?id=\(gr1)").status == 403, "\(email)")
                }
            }
        }
        #expect(try fixture.run(CountRoster.self, .init()).students == before.students)
        try await fixture.harness.console { console in
            let dashboard = try await console.signIn("t8a@school.org", Self.password)
            #expect(dashboard.html.contains("href=\"/m/students/students\""))
            let list = try await console.get("/m/students/students")
            #expect(Self.rows(list.html) == 2 && list.html.contains("GR-3") && list.html.contains("GR-4") && !list.html.contains("GR-1"))
            #expect(!list.html.contains("href=\"/m/students/enrol\""))
            let classList = try await console.get("/m/students/classes?class=\(class8A)")
            #expect(classList.html.contains("href=\"/m/students/student?id=\(gr3)\""), "a class list opens each student's page")
            let own = try await console.get("/m/students/student?id=\(gr3)")
            #expect(own.status == 200 && !own.html.contains("id=\"move-form\""))
            let other = try await console.get("/m/students/student?id=\(gr1)")
            #expect(other.status == 404 && !other.html.contains("عثمان"))
            let moved = try await console.post("/m/students/student", [("id", gr3), ("class", class8A)])
            #expect(moved.status == 403)
        }
    }

    @Test("another school's student id answers exactly as an id that does not exist")
    func otherSchool() async throws {
        let fixture = try Self.fixture()
        let harness = fixture.harness
        let other = try harness.makeSchool("other-school")
        let stranger = try harness.kernel.run(CreateStudent.self, StudentFields(grNumber: "GR-X1", givenName: "Far", surname: "Away",
                                                                                dateOfBirth: "", gender: ""), as: harness.user(.admin, in: other), in: other.id)
        let unknown = String(repeating: "0", count: stranger.id.count)
        try await harness.console { console in
            _ = try await console.signIn("head@school.org", Self.password)
            let theirs = try await console.get("/m/students/student?id=\(stranger.id)")
            let nobody = try await console.get("/m/students/student?id=\(unknown)")
            #expect(theirs.status == 404 && nobody.status == 404)
            #expect(!theirs.html.contains("Away") && !theirs.html.contains("GR-X1"))
            #expect(theirs.html.replacingOccurrences(of: stranger.id, with: "ID") == nobody.html.replacingOccurrences(of: unknown, with: "ID"))
            let moved = try await console.post("/m/students/student", [("id", stranger.id), ("class", "")])
            #expect(moved.status == 404)
        }
        #expect(try harness.kernel.run(ShowStudent.self, .init(grNumber: stranger.id), as: harness.user(.admin, in: other), in: other.id).student.classCode == nil)
    }
}
