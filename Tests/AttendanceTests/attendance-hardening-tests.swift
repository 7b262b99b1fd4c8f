@testable import Attendance
import Auth
import Core
import Foundation
import Students
import Testing

@Suite("Attendance: hardening (issue 11)")
struct AttendanceHardeningTests {
    /// A child of the demo parent, absent in period 1 today, and the parent.
    private func absentChild(_ fixture: AttendanceFixture) throws -> (Principal, Student) {
        let parent = try fixture.account("parent@databayt.org")
        let child = try #require(try fixture.run(ListStudents.self, .init(), as: parent).students.first)
        try fixture.run(TakeAttendance.self, .init(classCode: child.classCode ?? "", period: "P1", marks: [AttendanceMark(student: child.grNumber, status: .absent)]))
        return (parent, child)
    }

    @Test("history defaults to the signed-in student; a guardian of several children is asked to choose; staff must name one")
    func historyDefaults() throws {
        let fixture = try AttendanceFixture()
        let student = try fixture.account("student@databayt.org")
        let me = try #require(try fixture.run(ListStudents.self, .init(), as: student).students.first)
        let history = try fixture.run(AttendanceHistory.self, .init(), as: student)
        #expect(history.grNumber == me.grNumber && history.records.count == 60)
        let error = #expect(throws: StudentsError.self) { try fixture.run(AttendanceHistory.self, .init(), as: try fixture.account("parent@databayt.org")) }
        guard case .chooseChild(let children) = error else { Issue.record("expected the children listed"); return }
        #expect(children.count == 2)
        #expect(throws: StudentsError.chooseStudent) { try fixture.run(AttendanceHistory.self, .init()) }
        #expect(throws: AttendanceError.invalidDate("2026-13-01")) { try fixture.run(AttendanceHistory.self, .init(grNumber: me.grNumber, from: "2026-13-01"), as: student) }
    }

    @Test("attendance outside every school year is refused, even for an admin, and nothing is written")
    func schoolYearDates() throws {
        let fixture = try AttendanceFixture()
        #expect(throws: AttendanceError.invalidDate("0001-01-01")) { try fixture.run(TakeAttendance.self, .init(classCode: "7A", date: "0001-01-01")) }
        #expect(throws: AttendanceError.outsideSchoolYear("1990-01-01")) { try fixture.run(TakeAttendance.self, .init(classCode: "7A", date: "1990-01-01")) }
        #expect(throws: AttendanceError.outsideSchoolYear("2026-07-01")) { try fixture.run(TakeAttendance.self, .init(classCode: "7A", date: "2026-07-01")) }
        #expect(try fixture.register("7A", date: "1990-01-01", period: nil).allSatisfy { $0.status == nil })
        let (parent, child) = try absentChild(fixture)
        #expect(throws: AttendanceError.outsideSchoolYear("2031-01-01")) {
            try fixture.run(SubmitNotice.self, .init(grNumber: child.grNumber, from: "2031-01-01", to: "2031-01-02", reason: .other, description: ""), as: parent)
        }
    }

    @Test("an excuse or notice id prefix takes % and _ literally: a lone wildcard no longer picks the only excuse")
    func likePrefixes() throws {
        let fixture = try AttendanceFixture()
        let (parent, child) = try absentChild(fixture)
        let id = try fixture.run(SubmitExcuse.self, .init(grNumber: child.grNumber, date: "2026-11-22", period: "P1", reason: .medical, description: "Fever"), as: parent)
        for reference in ["%", "_", String(id.prefix(5)) + "_", ""] {
            #expect(throws: AttendanceError.unknownExcuse(reference)) { try fixture.run(ReviewExcuse.self, .init(excuse: reference, approve: true)) }
            #expect(throws: AttendanceError.unknownExcuse(reference)) { try fixture.run(ReviewNotice.self, .init(notice: reference, approve: true)) }
        }
        #expect(try fixture.run(ListExcuses.self, .init(status: .pending)).excuses.count == 1, "still pending")
        #expect(try fixture.run(ReviewExcuse.self, .init(excuse: String(id.prefix(8)), approve: true)).status == .approved)
    }

    @Test("descriptions and notes refuse control characters and NUL; mark notes too")
    func freeText() throws {
        let fixture = try AttendanceFixture()
        let (parent, child) = try absentChild(fixture)
        #expect(throws: InputError("kernel.error.text-control", ["field": "description", "max": "2000"])) {
            try fixture.run(SubmitExcuse.self, .init(grNumber: child.grNumber, date: "2026-11-22", period: "P1", reason: .other, description: "Al\0i"), as: parent)
        }
        #expect(throws: InputError("kernel.error.text-control", ["field": "notes", "max": "200"])) {
            try fixture.run(TakeAttendance.self, .init(classCode: "7A", period: "P2", marks: [AttendanceMark(student: "1", status: .late, notes: "bus\u{7}")]))
        }
        let id = try fixture.run(SubmitExcuse.self, .init(grNumber: child.grNumber, date: "2026-11-22", period: "P1", reason: .other, description: "Line one\nline two"), as: parent)
        #expect(throws: InputError("kernel.error.text-control", ["field": "note", "max": "500"])) {
            try fixture.run(ReviewExcuse.self, .init(excuse: id, approve: true, note: "\u{1B}[2J"))
        }
    }

    @Test("the Ed-Fi CSV neutralizes spreadsheet formulas and quotes commas; the rows are JSON with snake_case keys")
    func edFiCells() throws {
        let rows = try JSONDecoder().decode([ExportEdFi.Row].self, from: Data("""
            [{"studentUniqueId": "=HYPERLINK(\\"http://x\\",\\"y\\")", "eventDate": "2026-11-19", "classPeriod": "+P1",
              "attendanceEventCategoryDescriptor": "uri://ed-fi.org/AttendanceEventCategoryDescriptor#Tardy", "status": "LATE", "classCode": "7A"}]
            """.utf8))
        let line = try #require(ExportEdFi.csv(rows).split(separator: "\n").last)
        #expect(line.hasPrefix(#""'=HYPERLINK(""http://x"",""y"")""#), "\(line)")
        #expect(line.contains(",'+P1,"))
        let fixture = try AttendanceFixture()
        let json = String(decoding: try Output.jsonEncoder().encode(try fixture.run(ExportEdFi.self, .init(classCode: "7A", from: "2026-11-19", to: "2026-11-19"))), as: UTF8.self)
        #expect(json.contains(#""student_unique_id" : "#) && json.contains(#""event_date" : "2026-11-19""#) && !json.contains("studentUniqueId"))
    }

    @Test("a rate shows the decimals that keep it in its band: 94.99% is AT_RISK, never shown as 95.0%")
    func rates() {
        #expect(AttendanceCommand.percent(94.99) == "94.99%")
        #expect(AttendanceCommand.percent(95) == "95.0%")
        #expect(AttendanceCommand.percent(89.99999) == "89.9999%")
        #expect(AttendanceCommand.percent(nil) == "-")
    }
}
