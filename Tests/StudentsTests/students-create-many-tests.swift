import Auth
import Core
import Foundation
import HogwartsTestSupport
import Students
import Testing

@Suite("Creating many students at once")
struct CreateStudentsTests {
    func fields(_ gr: String, class code: String? = "8A", birth: String = "2013-05-04", gender: String = "FEMALE", email: String? = nil,
                classID: String? = nil) -> StudentFields {
        StudentFields(grNumber: gr, givenName: "Lina", surname: "Saleh", nameLanguage: "en", dateOfBirth: birth, gender: gender,
                      classCode: classID == nil ? code : nil, classID: classID, accountEmail: email)
    }

    @Test("each row becomes a student as CreateStudent makes them: class, account, a number allocated when blank")
    func creates() throws {
        let fixture = try RosterFixture()
        let classID = try fixture.run(ListClasses.self, .init()).first { $0.code == "7A" }?.id
        let created = try fixture.run(CreateStudents.self, .init(students: [
            fields("GR-10", email: "pupil@school.org"), fields(" ", class: nil), fields("GR-11", classID: classID),
        ]))
        #expect(created.count == 3)
        #expect(created[0].grNumber == "GR-10" && created[2].grNumber == "GR-11")
        #expect(created[1].grNumber.hasPrefix("GR-2026-"), "a blank number is allocated: \(created[1].grNumber)")
        let first = try fixture.run(ShowStudent.self, .init(grNumber: "GR-10"))
        #expect(first.student.id == created[0].id && first.student.classCode == "8A")
        #expect(first.student.userID == fixture.studentUser.userID, "tied to the STUDENT account")
        #expect(try fixture.run(ShowStudent.self, .init(grNumber: "GR-11")).student.classCode == "7A")
        #expect(try fixture.run(ShowStudent.self, .init(grNumber: created[1].grNumber)).student.classCode == nil)
        let audit = try fixture.harness.kernel.auditLog(for: fixture.harness.school.id, limit: 10).filter { $0.action == CreateStudents.id }
        #expect(audit.map(\.detail) == ["3 students"])
    }

    @Test("a bad row refuses the whole batch with CreateStudent's own message, naming the row")
    func sameRulesAsOne() throws {
        let fixture = try RosterFixture()
        let bad: [StudentFields] = [
            fields("GR-20", birth: "2013-02-30"), fields("GR-21", gender: "X"), fields("GR-1"), fields("GR-22", class: "9Z"),
            fields("GR-23", email: "t7a@school.org"), fields("GR-24", classID: "no-such-class"),
        ]
        let localizer = fixture.harness.kernel.localizer
        for row in bad {
            var one: (any Error)?
            do { _ = try fixture.run(CreateStudent.self, row) } catch { one = error }
            #expect(one != nil, "\(row.grNumber) is refused alone")
            do {
                _ = try fixture.run(CreateStudents.self, .init(students: [fields("GR-30"), row]))
                Issue.record("\(row.grNumber) was accepted")
            } catch let error as BatchRowError {
                #expect(error.index == 1)
                #expect(localizer.message(for: error) == one.map(localizer.message(for:)), "\(row.grNumber): the single action's message")
            }
        }
        #expect(throws: StudentsError.unknownStudent("GR-30")) { try fixture.run(ShowStudent.self, .init(grNumber: "GR-30")) }
    }

    @Test("the batch counts its own rows: a number twice, and seats it takes itself")
    func countsItself() throws {
        let fixture = try RosterFixture()
        do {
            _ = try fixture.run(CreateStudents.self, .init(students: [fields("GR-40"), fields("GR-40")]))
            Issue.record("a number twice was accepted")
        } catch let error as BatchRowError {
            #expect(error.index == 1 && error.error as? StudentsError == .grNumberTaken("GR-40"))
        }
        // 7A holds 3 and has 2: the first new row takes the last seat, the second finds it full.
        do {
            _ = try fixture.run(CreateStudents.self, .init(students: [fields("GR-41", class: "7A"), fields("GR-42", class: "7A")]))
            Issue.record("a full class was accepted")
        } catch let error as BatchRowError {
            #expect(error.index == 1 && error.error as? StudentsError == .classFull("7A", 3))
        }
        #expect(try fixture.run(ListClasses.self, .init()).first { $0.code == "7A" }?.enrolled == 2, "nothing of a refused batch stays")
    }

    @Test("only those who manage students may create them")
    func permission() throws {
        let fixture = try RosterFixture()
        #expect(throws: KernelError.permissionDenied(permission: "students.manage", role: .teacher)) {
            try fixture.run(CreateStudents.self, .init(students: [fields("GR-50")]), as: fixture.teacher7A)
        }
    }
}
