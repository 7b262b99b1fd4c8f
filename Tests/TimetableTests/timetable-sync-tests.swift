import Auth
import Core
import Foundation
import HogwartsTestSupport
import Students
import Testing
import Timetable

/// What each person's offline app receives of the timetable.
@Suite("Timetable: offline sync")
struct TimetableSyncTests {
    /// Every entity an app of the caller holds after its snapshot and a pull.
    static func replica(_ fixture: TimetableFixture, as principal: Principal, in school: School? = nil) throws -> [String: [String: APIValue]] {
        try TestDevice(fixture.harness.kernel, as: principal, in: (school ?? fixture.school).id).entities
    }

    static func slotClasses(_ replica: [String: [String: APIValue]]) -> Set<String> {
        Set(replica.filter { $0.key.hasPrefix("timetable.slot/") }.compactMap { if case .string(let id) = $0.value["classId"] { id } else { nil } })
    }

    @Test("a student receives their class's lessons, a guardian their children's classes', teachers every class's; the bell times reach all; another school nothing")
    func visibility() throws {
        let fixture = try TimetableFixture()
        let student = try fixture.account("student@databayt.org")
        let me = try #require(try fixture.run(ListStudents.self, .init(), as: student).students.first)
        let own = try Self.replica(fixture, as: student)
        #expect(Self.slotClasses(own) == [try #require(me.classID)])
        #expect(own.keys.contains { $0.hasPrefix("timetable.period/") })

        let parent = try fixture.account("parent@databayt.org")
        let childClasses = Set(try fixture.run(ListStudents.self, .init(), as: parent).students.compactMap(\.classID))
        #expect(Self.slotClasses(try Self.replica(fixture, as: parent)) == childClasses)

        let allClasses = Set(try fixture.run(ListClasses.self, .init()).map(\.id))
        let taught = Self.slotClasses(try Self.replica(fixture, as: try fixture.account("teacher@databayt.org")))
        #expect(taught.count > childClasses.count && taught.isSubset(of: allClasses), "teachers view every timetable")

        let nile = try #require(try fixture.harness.kernel.schools().first { $0.slug == "nile" })
        let nileAdmin = try #require(try fixture.harness.kernel.run(SignIn.self, .init(email: "admin@nile.databayt.org", password: AuthDemo.password),
                                                                    as: .anonymous, in: nile.id).user)
        let other = try Self.replica(fixture, as: Principal(userID: nileAdmin.id, role: nileAdmin.role, schoolID: nile.id, displayName: "n"), in: nile)
        #expect(Self.slotClasses(other).isDisjoint(with: allClasses))
        #expect(other.keys.allSatisfy { !own.keys.contains($0) }, "not one demo period or lesson")
    }

    @Test("a lesson moved by the office reaches the class's students in their next pull; a deleted one leaves their app")
    func changesReachTheClass() throws {
        let fixture = try TimetableFixture()
        let student = try fixture.account("student@databayt.org")
        let device = try TestDevice(fixture.harness.kernel, as: student, in: fixture.school.id)
        let (key, slot) = try #require(device.entities.first { $0.key.hasPrefix("timetable.slot/") && $0.value["room"] != .string("Lab 9") })
        let id = String(key.dropFirst("timetable.slot/".count))
        try fixture.run(MoveSlot.self, .init(slot: id, room: "Lab 9"))
        try device.pull()
        let moved = device.entities[key]
        #expect(moved?["room"] == .string("Lab 9") && moved?["day"] == slot["day"])
        try fixture.run(DeleteSlot.self, .init(slot: id))
        try device.pull()
        #expect(device.entities[key] == nil)
    }
}
