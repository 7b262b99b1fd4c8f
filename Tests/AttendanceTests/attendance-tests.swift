import Attendance
import Core
import Foundation
import HogwartsTestSupport
import Students
import Testing

@Suite("Attendance: marking")
struct MarkingTests {
    @Test("every string exists in Arabic and English")
    func strings() {
        #expect(AttendanceModule().strings.text("attendance.module.name", in: .en) != nil)
        #expect(AttendanceModule().strings.missingTranslations.isEmpty)
    }

    @Test("a class is taken in one step, everyone present but the exceptions, by list number or GR number")
    func takeClass() throws {
        let fixture = try AttendanceFixture()
        let teacher = try fixture.account("teacher@databayt.org")
        let before = try fixture.register("7A")
        #expect(before.allSatisfy { $0.status == nil })
        let result = try fixture.run(TakeAttendance.self, .init(classCode: "7A", period: "P1", marks: [
            AttendanceMark(student: "3", status: .absent), AttendanceMark(student: before[6].grNumber, status: .absent),
            AttendanceMark(student: "12", status: .late),
        ]), as: teacher)
        #expect(result.totals.present == before.count - 3 && result.totals.absent == 2 && result.totals.late == 1)
        #expect(result.created == before.count)
        let after = try fixture.register("7A")
        #expect(after[2].status == .absent && after[6].status == .absent && after[11].status == .late && after[0].status == .present)
        #expect(try fixture.events().filter { $0.kind == "absent" }.count == 2, "one event per absence")
    }

    @Test("marking again updates the same records, keeps who and when, and raises no second event")
    func remarking() throws {
        let fixture = try AttendanceFixture()
        let teacher = try fixture.account("teacher@databayt.org")
        try fixture.run(TakeAttendance.self, .init(classCode: "7A", period: "P1", marks: [AttendanceMark(student: "1", status: .absent)]), as: teacher)
        let again = try fixture.run(TakeAttendance.self, .init(classCode: "7A", period: "P1", marks: [
            AttendanceMark(student: "1", status: .absent), AttendanceMark(student: "2", status: .late),
        ]), as: teacher)
        #expect(again.created == 0 && again.changed == 1)
        let register = try fixture.register("7A")
        #expect(register.count == 24 && register[1].status == .late)
        let first = register[0].grNumber
        let history = try fixture.run(AttendanceHistory.self, .init(grNumber: first, from: "2026-11-22"))
        #expect(history.records.count == 1, "one record per student, date and period: never a duplicate")
        #expect(try fixture.events().filter { $0.kind == "absent" }.count == 1)
    }

    @Test("students from another class or another school are refused by the number given, never by name, and nothing is written")
    func foreignStudents() throws {
        let fixture = try AttendanceFixture()
        let other = try fixture.register("8A")[0]
        // A GR number must not tell who it is: a student of another class is refused by the number
        // given, exactly as a number nobody has, for the teacher and the administrator alike.
        for principal in [fixture.admin, try fixture.account("teacher@databayt.org")] {
            let refused = #expect(throws: AttendanceError.self) {
                try fixture.run(TakeAttendance.self, .init(classCode: "7A", period: "P1", marks: [AttendanceMark(student: other.grNumber, status: .absent)]),
                                as: principal)
            }
            #expect(refused == .notInClass(other.grNumber, "7A"))
            #expect(refused?.messageArguments.values.contains { $0.contains(other.name) } == false, "no name in the refusal")
            #expect(throws: AttendanceError.notInClass("GR-5001", "7A")) {
                try fixture.run(TakeAttendance.self, .init(classCode: "7A", period: "P1", marks: [AttendanceMark(student: "GR-5001", status: .absent)]),
                                as: principal)
            }
        }
        #expect(try fixture.register("7A").allSatisfy { $0.status == nil })
    }

    @Test("future dates are refused; teachers may correct only within the edit window, admins always")
    func dates() throws {
        let fixture = try AttendanceFixture()
        let teacher = try fixture.account("teacher@databayt.org")
        #expect(throws: AttendanceError.futureDate("2026-11-23")) {
            try fixture.run(TakeAttendance.self, .init(classCode: "7A", date: "2026-11-23"), as: teacher)
        }
        #expect(throws: AttendanceError.outsideEditWindow("2026-11-02", 7)) {
            try fixture.run(TakeAttendance.self, .init(classCode: "7A", date: "2026-11-02"), as: teacher)
        }
        try fixture.run(TakeAttendance.self, .init(classCode: "7A", date: "2026-11-16"), as: teacher)
        try fixture.run(TakeAttendance.self, .init(classCode: "7A", date: "2026-09-10"))
        #expect(throws: AttendanceError.unknownPeriod("BRK")) { try fixture.run(TakeAttendance.self, .init(classCode: "7A", period: "BRK")) }
    }

    @Test("teachers mark only their own classes; students, guardians and staff cannot mark")
    func permissions() throws {
        let fixture = try AttendanceFixture()
        let teacher = try fixture.account("teacher@databayt.org")
        let taught = try fixture.run(ListStudents.self, .init(), as: teacher).students.compactMap(\.classCode)
        let notTaught = try fixture.run(ListClasses.self, .init()).map(\.code).first { !taught.contains($0) }
        let foreign = try #require(notTaught)
        #expect(throws: StudentsError.unknownClass(foreign), "another teacher's class reads like no class") {
            try fixture.run(TakeAttendance.self, .init(classCode: foreign), as: teacher)
        }
        for email in ["student@databayt.org", "parent@databayt.org", "staff@databayt.org"] {
            let principal = try fixture.account(email)
            #expect(throws: KernelError.permissionDenied(permission: "attendance.mark", role: principal.role)) {
                try fixture.run(TakeAttendance.self, .init(classCode: "7A"), as: principal)
            }
        }
        try fixture.run(TakeAttendance.self, .init(classCode: foreign), as: fixture.admin)
    }
}

@Suite("Attendance: QR check-in")
struct CheckInTests {
    @Test("a student checks in PRESENT, then LATE after the threshold; twice is harmless")
    func checkIn() throws {
        // 07:50 local: period 1 began at 07:45, the late threshold is 15 minutes.
        let fixture = try AttendanceFixture(at: "2026-11-22T05:50:00Z")
        let teacher = try fixture.account("teacher@databayt.org")
        let student = try fixture.account("student@databayt.org")
        let window = try fixture.run(OpenCheckIn.self, .init(classCode: "7A", period: "P1"), as: teacher)
        let first = try fixture.run(CheckIn.self, .init(code: window.code), as: student)
        #expect(first.status == .present && !first.alreadyCheckedIn)
        #expect(try fixture.run(CheckIn.self, .init(code: window.code), as: student).alreadyCheckedIn)

        fixture.clock.advance(minutes: 12)
        let lateWindow = try fixture.run(OpenCheckIn.self, .init(classCode: "7A", period: "P2"), as: teacher)
        fixture.clock.advance(minutes: 1)
        #expect(try fixture.run(CheckIn.self, .init(code: lateWindow.code), as: student).status == .present, "08:03, period 2 begins 08:30")
        let recorded = try fixture.register("7A", period: "P1").filter { $0.status != nil }
        #expect(recorded.count == 1 && recorded.first?.status == .present, "only the student who checked in has a record")
    }

    @Test("after the late threshold a check-in is LATE")
    func late() throws {
        let fixture = try AttendanceFixture(at: "2026-11-22T06:05:00Z") // 08:05 local, 20 minutes into period 1
        let window = try fixture.run(OpenCheckIn.self, .init(classCode: "7A", period: "P1"), as: try fixture.account("teacher@databayt.org"))
        #expect(try fixture.run(CheckIn.self, .init(code: window.code), as: try fixture.account("student@databayt.org")).status == .late)
    }

    @Test("expired, forged and other-class codes are refused")
    func refused() throws {
        let fixture = try AttendanceFixture()
        let teacher = try fixture.account("teacher@databayt.org")
        let student = try fixture.account("student@databayt.org")
        let window = try fixture.run(OpenCheckIn.self, .init(classCode: "7A", period: "P1"), as: teacher)
        let parts = window.code.split(separator: ".")
        #expect(throws: AttendanceError.codeInvalid) { try fixture.run(CheckIn.self, .init(code: "\(parts[0]).0000000000000000"), as: student) }
        #expect(throws: AttendanceError.codeInvalid) { try fixture.run(CheckIn.self, .init(code: "nonsense"), as: student) }
        let other = try fixture.run(OpenCheckIn.self, .init(classCode: "8A", period: "P1"))
        #expect(throws: AttendanceError.codeOtherClass) { try fixture.run(CheckIn.self, .init(code: other.code), as: student) }
        fixture.clock.advance(minutes: 6)
        #expect(throws: AttendanceError.codeExpired) { try fixture.run(CheckIn.self, .init(code: window.code), as: student) }
        #expect(try fixture.register("7A").allSatisfy { $0.status == nil })
    }
}

@Suite("Attendance: excuses")
struct ExcuseTests {
    /// The parent's first child, marked absent today in period 1.
    static func absentChild(_ fixture: AttendanceFixture) throws -> (Principal, Student) {
        let parent = try fixture.account("parent@databayt.org")
        let child = try #require(try fixture.run(ListStudents.self, .init(), as: parent).students.first)
        try fixture.run(TakeAttendance.self, .init(classCode: child.classCode ?? "", period: "P1", marks: [AttendanceMark(student: child.grNumber, status: .absent)]))
        return (parent, child)
    }

    @Test("submit, approve: the record turns EXCUSED in the same step, and only once")
    func approve() throws {
        let fixture = try AttendanceFixture()
        let (parent, child) = try Self.absentChild(fixture)
        let id = try fixture.run(SubmitExcuse.self, .init(grNumber: child.grNumber, date: "2026-11-22", period: "P1", reason: .medical, description: "Fever"), as: parent)
        #expect(throws: AttendanceError.excuseExists) {
            try fixture.run(SubmitExcuse.self, .init(grNumber: child.grNumber, date: "2026-11-22", period: "P1", reason: .other, description: ""), as: parent)
        }
        let decided = try fixture.run(ReviewExcuse.self, .init(excuse: String(id.prefix(8)), approve: true, note: "Get well"))
        #expect(decided.status == .approved && decided.recordStatus == .excused)
        #expect(throws: AttendanceError.alreadyDecided("APPROVED")) { try fixture.run(ReviewExcuse.self, .init(excuse: id, approve: false)) }
        #expect(try fixture.events().contains { $0.kind == "excuse" && $0.detail == "\(child.grNumber) true" })
        let history = try fixture.run(AttendanceHistory.self, .init(grNumber: child.grNumber, from: "2026-11-22"), as: parent)
        #expect(history.records.first?.status == .excused)
    }

    @Test("a rejected excuse leaves the absence; excuses only for ABSENT or LATE records of one's own children")
    func rejectAndRules() throws {
        let fixture = try AttendanceFixture()
        let (parent, child) = try Self.absentChild(fixture)
        let id = try fixture.run(SubmitExcuse.self, .init(grNumber: child.grNumber, date: "2026-11-22", period: "P1", reason: .transportation, description: "Bus"), as: parent)
        #expect(try fixture.run(ReviewExcuse.self, .init(excuse: id, approve: false)).recordStatus == .absent)

        let present = try #require(try fixture.register(child.classCode ?? "").first { $0.status == .present })
        #expect(throws: StudentsError.unknownStudent(present.grNumber)) {
            try fixture.run(SubmitExcuse.self, .init(grNumber: present.grNumber, date: "2026-11-22", period: "P1", reason: .other, description: ""), as: parent)
        }
        #expect(throws: AttendanceError.notExcusable("PRESENT")) {
            try fixture.run(SubmitExcuse.self, .init(grNumber: present.grNumber, date: "2026-11-22", period: "P1", reason: .other, description: ""))
        }
        #expect(throws: InputError("kernel.error.text-too-long", ["field": "description", "max": "2000"])) {
            try fixture.run(SubmitExcuse.self, .init(grNumber: child.grNumber, date: "2026-11-22", period: "P1", reason: .other, description: String(repeating: "x", count: 2001)), as: parent)
        }
        #expect(throws: KernelError.self) { try fixture.run(ReviewExcuse.self, .init(excuse: id, approve: true), as: parent) }
    }

    @Test("an approved advance notice turns a later absence into EXCUSED")
    func advanceNotice() throws {
        let fixture = try AttendanceFixture()
        let parent = try fixture.account("parent@databayt.org")
        let child = try #require(try fixture.run(ListStudents.self, .init(), as: parent).students.first)
        let notice = try fixture.run(SubmitNotice.self, .init(grNumber: child.grNumber, from: "2026-11-22", to: "2026-11-24", reason: .religious, description: "Pilgrimage"), as: parent)
        try fixture.run(ReviewNotice.self, .init(notice: notice, approve: true))
        let result = try fixture.run(TakeAttendance.self, .init(classCode: child.classCode ?? "", marks: [AttendanceMark(student: child.grNumber, status: .absent)]))
        #expect(result.totals.absent == 0 && result.totals.excused == 1)
    }
}

@Suite("Attendance: reports")
struct ReportTests {
    @Test("the rate is (present + late) over the sessions that count; holidays do not count, excused and sick do")
    func rateFormula() {
        var totals = AttendanceTotals()
        totals.add(.present, count: 15)
        totals.add(.late, count: 2)
        totals.add(.absent, count: 1)
        totals.add(.excused, count: 1)
        totals.add(.sick, count: 1)
        totals.add(.holiday, count: 5)
        #expect(totals.counted == 20)
        #expect(totals.rate == 85)
        #expect(totals.band == .moderatelyChronic)
        #expect(totals.absences == 3)
        #expect(RiskBand(rate: 95) == .satisfactory && RiskBand(rate: 94.99) == .atRisk && RiskBand(rate: 90) == .atRisk && RiskBand(rate: 79.9) == .severelyChronic)
        #expect(AttendanceTotals().rate == nil)
        #expect(EdFiCategory.of(.late) == "Tardy" && EdFiCategory.of(.sick) == "Excused Absence" && EdFiCategory.of(.holiday) == nil)
    }

    @Test("the demo has 60 school days with a realistic mix, and stats agree with each student's history")
    func demoAndStats() throws {
        let fixture = try AttendanceFixture()
        let stats = try fixture.run(AttendanceStats.self, .init(from: "2026-08-01", to: "2026-11-21"))
        #expect(stats.days.count == 60)
        #expect(stats.students.count >= 400)
        let rate = try #require(stats.school.rate)
        #expect(rate > 90 && rate < 99)
        #expect(stats.students.contains { $0.band == .severelyChronic } && stats.students.filter { $0.band == .satisfactory }.count > 300)
        let sample = try #require(stats.students.first)
        let history = try fixture.run(AttendanceHistory.self, .init(grNumber: sample.grNumber, from: "2026-08-01", to: "2026-11-21"))
        #expect(history.totals == sample.totals && history.rate == sample.rate)
        #expect(stats.students.contains { ($0.thresholdReached ?? 0) >= 5 })
    }

    @Test("students see their own history, guardians their children's, and no one else's")
    func historyAccess() throws {
        let fixture = try AttendanceFixture()
        let student = try fixture.account("student@databayt.org")
        let own = try #require(try fixture.run(ListStudents.self, .init(), as: student).students.first)
        #expect(try fixture.run(AttendanceHistory.self, .init(grNumber: own.grNumber), as: student).records.count == 60)
        let other = try #require(try fixture.register("8A").first)
        #expect(throws: StudentsError.unknownStudent(other.grNumber)) { try fixture.run(AttendanceHistory.self, .init(grNumber: other.grNumber), as: student) }
        #expect(throws: KernelError.permissionDenied(permission: "attendance.stats", role: .student)) {
            try fixture.run(AttendanceStats.self, .init(), as: student)
        }
    }

    @Test("the Ed-Fi export uses the standard's categories")
    func edFi() throws {
        let fixture = try AttendanceFixture()
        let csv = ExportEdFi.csv(try fixture.run(ExportEdFi.self, .init(classCode: "7A", from: "2026-11-19", to: "2026-11-19")))
        let lines = csv.split(separator: "\n")
        #expect(lines.first == "StudentUniqueId,EventDate,ClassPeriod,AttendanceEventCategoryDescriptor,Status")
        #expect(lines.count == 25)
        #expect(lines.dropFirst().allSatisfy { $0.contains("uri://ed-fi.org/AttendanceEventCategoryDescriptor#") && $0.contains("2026-11-19") })
    }
}
