import Auth
import Core
import Foundation
import HogwartsTestSupport
import Students
import Testing

@Suite("Students module")
struct StudentsTests {
    @Test("every string exists in Arabic and English")
    func strings() {
        let catalog = StudentsModule().strings
        #expect(catalog.text("students.module.name", in: .en) != nil)
        #expect(catalog.missingTranslations.isEmpty)
    }

    @Test("each role sees exactly the students the matrix allows")
    func visibility() throws {
        let roster = try RosterFixture()
        #expect(try roster.visible(to: roster.admin) == ["GR-1", "GR-2", "GR-3", "GR-4"])
        #expect(try roster.visible(to: roster.harness.user(.staff)) == ["GR-1", "GR-2", "GR-3", "GR-4"])
        #expect(try roster.visible(to: roster.teacher7A) == ["GR-1", "GR-2"], "homeroom class")
        #expect(try roster.visible(to: roster.teacher8A) == ["GR-3", "GR-4"], "the class they teach")
        #expect(try roster.visible(to: roster.guardian) == ["GR-1", "GR-3"], "linked children only")
        #expect(try roster.visible(to: roster.studentUser).isEmpty, "no student record is tied to this account yet")
        try roster.run(LinkStudentAccount.self, .init(grNumber: "GR-2", email: "pupil@school.org"))
        #expect(try roster.visible(to: roster.studentUser) == ["GR-2"], "a student sees only themself")
        #expect(throws: StudentsError.unknownStudentAccount("t7a@school.org")) {
            try roster.run(LinkStudentAccount.self, .init(grNumber: "GR-1", email: "t7a@school.org"))
        }
        #expect(throws: KernelError.permissionDenied(permission: "students.read", role: .accountant)) {
            try roster.visible(to: roster.harness.user(.accountant))
        }
    }

    @Test("a student whose birth date and sex are not known yet is recorded without them, and they are added later")
    func detailsNotRecorded() throws {
        let roster = try RosterFixture()
        let created = try roster.run(CreateStudent.self, StudentFields(grNumber: "GR-9", givenName: "Sami", surname: "Ali", dateOfBirth: "", gender: "", classCode: "7A"))
        #expect(created.dateOfBirth == nil && created.gender == nil)
        #expect(throws: InputError.self, "what is given must still be right") {
            try roster.run(CreateStudent.self, StudentFields(grNumber: "GR-10", givenName: "A", surname: "B", dateOfBirth: "2013-02-30", gender: ""))
        }
        #expect(throws: InputError.self) {
            try roster.run(CreateStudent.self, StudentFields(grNumber: "GR-10", givenName: "A", surname: "B", dateOfBirth: "", gender: "X"))
        }
        let renamed = try roster.run(UpdateStudent.self, StudentChange(grNumber: "GR-9", givenName: "Samir"))
        #expect(renamed.dateOfBirth == nil && renamed.gender == nil, "an edit of another field leaves them unrecorded")
        let completed = try roster.run(UpdateStudent.self, StudentChange(grNumber: "GR-9", dateOfBirth: "2013-06-07", gender: "male"))
        #expect(completed.dateOfBirth == "2013-06-07" && completed.gender == .male)
    }

    @Test("a guardian asking for a child that is not theirs is refused by name")
    func guardianCannotReadOtherChildren() throws {
        let roster = try RosterFixture()
        let own = try roster.run(ShowStudent.self, .init(grNumber: "GR-1"), as: roster.guardian)
        #expect(own.guardians.map(\.email) == ["mum@family.org"])
        #expect(throws: StudentsError.unknownStudent("GR-2")) { try roster.run(ShowStudent.self, .init(grNumber: "GR-2"), as: roster.guardian) }
        #expect(throws: StudentsError.unknownStudent("GR-4")) { try roster.run(ShowStudent.self, .init(grNumber: "GR-4"), as: roster.teacher7A) }
    }

    @Test("search finds names without diacritics and with any alef, hamza or ta marbuta form", arguments: [
        ("احمد", "GR-1"), ("أحمد", "GR-1"), ("محمد", "GR-3"), ("فاطمه", "GR-2"), ("الامين", "GR-2"), ("ابراهيم", "GR-3"),
        ("emma", "GR-4"), ("WILSON", "GR-4"), ("GR-2", "GR-2"),
    ])
    func arabicAwareSearch(query: String, expected: String) throws {
        let roster = try RosterFixture()
        #expect(try roster.visible(to: roster.admin, search: query) == [expected])
    }

    @Test("the folding rules themselves")
    func folding() {
        #expect(ArabicSearch.fold("مُحَمَّد") == "محمد")
        #expect(ArabicSearch.fold("إسراء آمنة") == "اسراء امنه")
        #expect(ArabicSearch.fold("مصطفى") == "مصطفي")
        #expect(ArabicSearch.fold("  Zoë  Brontë ") == "zoe bronte")
    }

    @Test("bad student details are refused before anything is written", arguments: [
        (StudentFields(grNumber: "GR-9", givenName: "", surname: "X", dateOfBirth: "2013-01-01", gender: "MALE"), "given_name"),
        (StudentFields(grNumber: "GR-9", givenName: "A", surname: "X", dateOfBirth: "2013-02-30", gender: "MALE"), "date_of_birth"),
        (StudentFields(grNumber: "GR-9", givenName: "A", surname: "X", dateOfBirth: "2030-01-01", gender: "MALE"), "date_of_birth"),
        (StudentFields(grNumber: "GR-9", givenName: "A", surname: "X", dateOfBirth: "2013-01-01", gender: "robot"), "gender"),
        (StudentFields(grNumber: "GR-9", givenName: "A", surname: "X", dateOfBirth: "2013-01-01", gender: "MALE", status: "ASLEEP"), "status"),
    ])
    func invalidFields(fields: StudentFields, column: String) throws {
        let roster = try RosterFixture()
        let error = #expect(throws: InputError.self) { try roster.run(CreateStudent.self, fields) }
        #expect(error?.messageArguments["column"] == column)
        #expect(try roster.visible(to: roster.admin).count == 4)
    }

    @Test("GR numbers are unique, classes have a capacity, and unknown classes are named")
    func conflicts() throws {
        let roster = try RosterFixture()
        #expect(throws: StudentsError.grNumberTaken("GR-1")) { try roster.addStudent("GR-1", "A", "B", class: nil) }
        try roster.addStudent("GR-5", "A", "B", class: "7A")
        #expect(throws: StudentsError.classFull("7A", 3)) { try roster.addStudent("GR-6", "A", "B", class: "7A") }
        #expect(throws: StudentsError.unknownClass("9Z")) { try roster.addStudent("GR-6", "A", "B", class: "9Z") }
        #expect(try roster.visible(to: roster.admin).count == 5)
    }

    @Test("only administrators add, edit and archive students")
    func managementNeedsAdmin() throws {
        let roster = try RosterFixture()
        for principal in [roster.teacher7A, roster.guardian, roster.harness.user(.staff)] {
            #expect(throws: KernelError.permissionDenied(permission: "students.manage", role: principal.role)) {
                try roster.run(ArchiveStudent.self, .init(grNumber: "GR-1"), as: principal)
            }
        }
    }

    @Test("editing moves a student between classes; archiving hides them and frees the GR number")
    func editAndArchive() throws {
        let roster = try RosterFixture()
        let moved = try roster.run(UpdateStudent.self, StudentChange(grNumber: "GR-2", surname: "الأمين حسن", status: "SUSPENDED", classCode: "8A"))
        #expect(moved.classCode == "8A" && moved.status == .suspended && moved.surname == "الأمين حسن")
        #expect(try roster.visible(to: roster.teacher8A) == ["GR-2", "GR-3", "GR-4"])

        try roster.run(ArchiveStudent.self, .init(grNumber: "GR-2"))
        #expect(try roster.visible(to: roster.admin) == ["GR-1", "GR-3", "GR-4"])
        #expect(try roster.run(ListStudents.self, .init(includeArchived: true)).total == 4, "archived, never deleted")
        try roster.addStudent("GR-2", "جديد", "طالب", class: nil)
    }

    @Test("lists filter by class, year level and status, sort, and page by 20")
    func listing() throws {
        let roster = try RosterFixture()
        for number in 10..<35 { try roster.addStudent("GR-\(number)", "طالب", "رقم \(number)", class: "8A") }
        let page1 = try roster.run(ListStudents.self, .init(classCode: "8A"))
        #expect(page1.total == 27 && page1.pageCount == 2 && page1.students.count == 20)
        #expect(try roster.run(ListStudents.self, .init(classCode: "8A", page: 2)).students.count == 7)
        #expect(try roster.run(ListStudents.self, .init(yearLevel: "G7")).total == 2)
        #expect(try roster.run(ListStudents.self, .init(status: .graduated)).total == 0)
        let byName = try roster.run(ListStudents.self, .init(classCode: "7A", sort: .name)).students.map(\.surname)
        #expect(byName == byName.sorted())
    }

    @Test("a dry run reports every bad row with its number, column and reason, and imports nothing")
    func importDryRun() throws {
        let roster = try RosterFixture()
        let csv = """
            gr_number,given_name,surname,name_language,date_of_birth,gender,status,enrolled_on,class
            GR-100,سارة,علي,ar,2014-03-02,FEMALE,ACTIVE,2026-09-01,8A
            GR-101,,علي,ar,2014-13-02,FEMALE,,,
            GR-100,Omar,Hall,en,2014-03-02,MALE,,,9Z
            GR-1,Ali,Taha,en,2014-03-02,other,,,
            GR-102,Nora,Hall,en,2014-03-02,FEMALE,,,7A
            GR-103,Lily,Hall,en,2014-03-02,FEMALE,,,7A
            """
        let report = try roster.run(ImportStudents.self, .init(csv: csv, dryRun: true))
        let problems = report.problems.map { "\($0.row):\($0.column)" }
        #expect(problems == ["3:given_name", "3:date_of_birth", "4:gr_number", "4:class", "5:gender", "5:gr_number", "7:class"], "7A has one seat left")
        #expect(report.imported == 0)
        #expect(throws: StudentsError.self) { try roster.run(ImportStudents.self, .init(csv: csv, dryRun: false)) }
        #expect(try roster.visible(to: roster.admin).count == 4, "nothing imported")
    }

    @Test("an export imports back into another school unchanged")
    func exportRoundTrip() throws {
        let roster = try RosterFixture()
        let csv = ExportStudents.csv(try roster.run(ExportStudents.self, .init()))
        #expect(csv.hasPrefix("gr_number,given_name,surname"))

        let other = try roster.harness.makeSchool("other-school")
        let otherAdmin = roster.harness.user(.admin, in: other)
        try roster.harness.kernel.run(CreateSchoolYear.self, .init(name: "2026-2027", startsOn: "2026-09-01", endsOn: "2027-06-30"), as: otherAdmin, in: other.id)
        try roster.harness.kernel.run(CreateYearLevel.self, .init(code: "G7", name: LocalizedText(ar: "س", en: "7"), position: 1), as: otherAdmin, in: other.id)
        try roster.harness.kernel.run(CreateYearLevel.self, .init(code: "G8", name: LocalizedText(ar: "ث", en: "8"), position: 2), as: otherAdmin, in: other.id)
        for (code, level) in [("7A", "G7"), ("8A", "G8")] {
            try roster.harness.kernel.run(CreateClass.self, .init(code: code, name: LocalizedText(ar: code, en: code), yearLevel: level), as: otherAdmin, in: other.id)
        }
        let report = try roster.harness.kernel.run(ImportStudents.self, .init(csv: csv, dryRun: false), as: otherAdmin, in: other.id)
        #expect(report.imported == 4)
        #expect(ExportStudents.csv(try roster.harness.kernel.run(ExportStudents.self, .init(), as: otherAdmin, in: other.id)) == csv)
        #expect(try roster.visible(to: roster.admin).count == 4, "the first school is unchanged")
    }

    @Test("students of one school are invisible to another")
    func tenancy() throws {
        let roster = try RosterFixture()
        let other = try roster.harness.makeSchool("other-school")
        let page = try roster.harness.kernel.run(ListStudents.self, .init(search: "احمد"), as: roster.harness.user(.admin, in: other), in: other.id)
        #expect(page.total == 0)
        #expect(throws: StudentsError.unknownStudent("GR-1")) {
            try roster.harness.kernel.run(ShowStudent.self, .init(grNumber: "GR-1"), as: roster.harness.user(.admin, in: other), in: other.id)
        }
    }
}
