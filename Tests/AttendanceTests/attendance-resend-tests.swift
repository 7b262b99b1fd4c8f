import Attendance
import Auth
import Core
import Foundation
import Students
import Testing

@Suite("Attendance: registers sent again, and the roster they are read against")
struct AttendanceResendTests {
    /// What is stored for period 1 today (the demo's history is whole days before it).
    static func periodOne(_ fixture: AttendanceFixture) throws -> EventLog.Dump.Output {
        let all = try fixture.run(EventLog.Dump.self, .init())
        let today = "|2026-11-22|P1|"
        return EventLog.Dump.Output(records: all.records.filter { $0.contains(today) }, changes: all.changes.filter { $0.contains(today) })
    }

    @Test("a register sent again unchanged writes nothing: who marked it stays, no history; a changed note is written")
    func resentRegister() throws {
        let fixture = try AttendanceFixture()
        let teacher = try fixture.account("teacher@databayt.org")
        let marks = [AttendanceMark(student: "1", status: .absent), AttendanceMark(student: "2", status: .late, notes: "bus")]
        try fixture.run(TakeAttendance.self, .init(classCode: "7A", period: "P1", marks: marks), as: teacher)
        let first = try Self.periodOne(fixture)
        #expect(first.records.count == 24 && first.records.allSatisfy { $0.contains("|\(teacher.userID)|") })

        // The admin sends the very same register: nothing in it is new, so nothing is rewritten.
        let again = try fixture.run(TakeAttendance.self, .init(classCode: "7A", period: "P1", marks: marks), as: fixture.admin)
        #expect(again.created == 0 && again.changed == 0)
        #expect(try Self.periodOne(fixture) == first, "still marked by the teacher, no change history")
        #expect(try fixture.events().filter { $0.kind == "absent" }.count == 1)

        // One note differs: only that student's record is written, by the admin.
        let edited = [marks[0], AttendanceMark(student: "2", status: .late, notes: "bus, 10 minutes")]
        try fixture.run(TakeAttendance.self, .init(classCode: "7A", period: "P1", marks: edited), as: fixture.admin)
        let after = try Self.periodOne(fixture)
        let byAdmin = after.records.filter { $0.contains("|\(fixture.admin.userID)|") }
        #expect(byAdmin.count == 1 && byAdmin[0].hasSuffix("|LATE|MANUAL|\(fixture.admin.userID)|bus, 10 minutes"))
        #expect(after.changes.isEmpty, "the status did not change")
    }

    @Test("the same marks by another method are written: the record says how it was taken")
    func anotherMethod() throws {
        let fixture = try AttendanceFixture()
        let line = try fixture.register("7A")[0]
        let mark = MarkStudents.Mark(student: line.studentID, status: .present)
        try fixture.run(MarkStudents.self, .init(marks: [mark], classID: nil, period: "P1", method: .manual))
        try fixture.run(MarkStudents.self, .init(marks: [mark], classID: nil, period: "P1", method: .qrCode))
        let records = try Self.periodOne(fixture).records
        #expect(records.count == 1 && records[0].contains("|PRESENT|QR_CODE|"))
    }

    @Test("the class list and the teacher's classes follow roster changes between runs")
    func rosterChangesAreSeen() throws {
        let fixture = try AttendanceFixture()
        let before = try fixture.register("7A")
        try fixture.run(ArchiveStudent.self, .init(grNumber: before[0].grNumber))
        let after = try fixture.register("7A")
        #expect(after.count == before.count - 1 && !after.contains { $0.studentID == before[0].studentID })

        let teacher = try fixture.account("teacher@databayt.org")
        let taught = try fixture.run(ListStudents.self, .init(), as: teacher).students.compactMap(\.classCode)
        let foreign = try #require(try fixture.run(ListClasses.self, .init()).map(\.code).first { !taught.contains($0) })
        #expect(throws: StudentsError.unknownClass(foreign)) { try fixture.run(TakeAttendance.self, .init(classCode: foreign), as: teacher) }
        let subject = try #require(try fixture.run(ListSubjects.self, .init()).first?.code)
        try fixture.run(AssignTeacher.self, .init(teacherEmail: "teacher@databayt.org", classCode: foreign, subjectCode: subject))
        let taken = try fixture.run(TakeAttendance.self, .init(classCode: foreign), as: teacher)
        #expect(taken.created > 0, "the new assignment is seen at once")
    }
}
