import Auth
import Core
import Foundation
import Students
import Testing

/// The student list keeps pages between requests while the roster is unchanged: every change,
/// whatever wrote it, must show on the very next read.
@Suite("student list pages kept between requests")
struct StudentListCacheTests {
    @Test("a teacher's list shows a new student, a new class taught and an archive at once")
    func changesShowAtOnce() throws {
        let fixture = try RosterFixture()
        #expect(try fixture.visible(to: fixture.teacher8A) == ["GR-3", "GR-4"])

        try fixture.addStudent("GR-5", "Noor", "Haddad", class: "8A", language: "en")
        #expect(try fixture.visible(to: fixture.teacher8A) == ["GR-3", "GR-4", "GR-5"])

        try fixture.run(AssignTeacher.self, .init(teacherEmail: "t8a@school.org", classCode: "7A", subjectCode: "MATH"))
        #expect(try fixture.visible(to: fixture.teacher8A) == ["GR-1", "GR-2", "GR-3", "GR-4", "GR-5"])

        try fixture.run(ArchiveStudent.self, .init(grNumber: "GR-4"))
        let page = try fixture.run(ListStudents.self, .init(sort: .name), as: fixture.teacher8A)
        #expect(page.students.map(\.grNumber).sorted() == ["GR-1", "GR-2", "GR-3", "GR-5"])
        #expect(page.total == 4)
    }

    @Test("a change written by another kernel on the same database shows in this one's next list")
    func changesFromAnotherProcess() throws {
        let fixture = try RosterFixture()
        #expect(try fixture.run(ListStudents.self, .init(sort: .name)).total == 4)

        let other = try Kernel(databasePath: fixture.harness.databasePath, modules: [AuthModule(), StudentsModule()], language: .en)
        try other.run(CreateStudent.self, StudentFields(grNumber: "GR-9", givenName: "Sara", surname: "Khalil", nameLanguage: "en",
                                                        dateOfBirth: "2013-02-01", gender: "FEMALE", enrolledOn: "2026-09-01", classCode: "8A"),
                      as: fixture.admin, in: fixture.harness.school.id)

        let page = try fixture.run(ListStudents.self, .init(sort: .name))
        #expect(page.total == 5)
        #expect(page.students.map(\.grNumber).contains("GR-9"))
    }

    @Test("two schools with the same people and questions never share a page")
    func schoolsNeverShare() throws {
        let first = try RosterFixture()
        let second = try RosterFixture()
        try second.addStudent("GR-7", "Omar", "Saleh", class: "8A", language: "en")
        #expect(try first.visible(to: first.admin) == ["GR-1", "GR-2", "GR-3", "GR-4"])
        #expect(try second.visible(to: second.admin) == ["GR-1", "GR-2", "GR-3", "GR-4", "GR-7"])
        #expect(try first.visible(to: first.admin) == ["GR-1", "GR-2", "GR-3", "GR-4"])
    }
}
