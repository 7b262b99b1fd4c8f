import Auth
import Core
import Foundation
import HogwartsTestSupport
import Students
import Testing
import Timetable
@testable import Attendance

/// What `attendance.register` tells before a register is taken, through Attendance's own copies
/// of `timetable.school-day` and `auth.staff-names` (the shapes checked against what Timetable
/// and Auth answer): why a day is off, and who took a register last and when.
@Suite("Attendance: who took a register, and days off")
struct AttendanceRegisterFactsTests {
    /// 2026-11-24, a Tuesday of the demo's term 1, 08:12 in Khartoum.
    static let tuesday = Date(timeIntervalSince1970: 1_795_500_720)

    let harness: TestHarness
    let school: School
    let admin: Principal
    let classCode: String

    init() throws {
        harness = try TestHarness(modules: [AuthModule(), StudentsModule(), TimetableModule(), AttendanceModule()], clock: { Self.tuesday })
        school = try harness.kernel.createDemoSchools()[0]
        admin = harness.user(.admin, in: school)
        classCode = try #require(try harness.kernel.run(ListClasses.self, .init(), as: admin, in: school.id).first { $0.enrolled > 0 }).code
    }

    func register(on date: String) throws -> ClassRegister.Output {
        try harness.kernel.run(ClassRegister.self, .init(classCode: classCode, date: date), as: admin, in: school.id)
    }

    @Test("timetable.school-day: a school day has no warning; a Friday is a weekend day, a closure is named, a Sunday between terms is outside term; nothing where the timetable is off")
    func daysOff() throws {
        #expect(try register(on: "2026-11-24").dayOff == nil)
        #expect(try register(on: "2026-11-27").dayOff == RegisterDayOff(reason: "weekend", closure: nil))
        #expect(try register(on: "2027-01-31").dayOff == RegisterDayOff(reason: "outside-term", closure: nil))
        _ = try harness.kernel.run(AddClosure.self, .init(from: "2026-11-24", to: "2026-11-25", name: "Sports days"), as: admin, in: school.id)
        #expect(try register(on: "2026-11-25").dayOff == RegisterDayOff(reason: "closure", closure: "Sports days"))
        _ = try harness.kernel.disable("timetable", for: school.id, by: .localOperator)
        #expect(try register(on: "2026-11-27").dayOff == nil, "no timetable, no calendar to warn by")
    }

    @Test("auth.staff-names: a register taken by a staff account names them and the time it was saved; a fresh one says nothing")
    func takenBy() throws {
        #expect(try register(on: "2026-11-24").taken == nil)
        let teacher = try #require(try harness.kernel.run(ListUsers.self, .init(search: "teacher@databayt.org"), as: .localOperator, in: school.id)
            .first { $0.email == "teacher@databayt.org" })
        let marker = Principal(userID: teacher.id, role: .admin, schoolID: school.id, displayName: "not the stored name")
        _ = try harness.kernel.run(TakeAttendance.self, .init(classCode: classCode, date: "2026-11-24"), as: marker, in: school.id)
        let taken = try #require(try register(on: "2026-11-24").taken)
        #expect(taken.byUserID == teacher.id)
        #expect(taken.byName == teacher.displayName, "the name as Auth keeps it, asked by someone else")
        #expect(taken.at == Self.tuesday)
    }
}
