@testable import Events
import Core
import Foundation
import HogwartsTestSupport
import Testing

/// The school's events in the offline apps' pull and snapshot: each person receives the events
/// their calendar shows (the school's, their or their children's class's), cancelled ones marked.
@Suite("Events: offline sync")
struct EventsSyncTests {
    @Test("a school event reaches everyone, a class's event its students, guardians and teacher; the administrator every one")
    func audiences() throws {
        let school = try EventsFixture()
        let sync = SyncTestReader(school.harness.kernel, school: school.harness.school.id, type: "events.item")
        let people = [school.admin, school.teacher, school.student, school.guardian, school.otherStudent, school.staff]
        let start = try people.map { try sync.pull($0).cursor }
        try school.run(CreateEvent.self, .init(title: "Sports day", startsOn: "2026-11-25"), as: school.admin)
        try school.run(CreateEvent.self, .init(title: "Museum trip", startsOn: "2026-11-20", classCode: "7A"), as: school.teacher)
        try school.run(CreateEvent.self, .init(title: "7B assembly", startsOn: "2026-11-21", classCode: "7B"), as: school.admin)

        let expected: [Set<String>] = [
            ["Sports day", "Museum trip", "7B assembly"], // the administrator
            ["Sports day", "Museum trip"], // 7A's teacher
            ["Sports day", "Museum trip"], // a student of 7A
            ["Sports day", "Museum trip"], // her guardian
            ["Sports day", "7B assembly"], // a student of 7B
            ["Sports day"], // staff, in no class
        ]
        for (index, person) in people.enumerated() {
            #expect(Set(try sync.pull(person, from: start[index]).titles.values) == expected[index], "\(person.displayName)")
            #expect(try sync.snapshot(person) == expected[index], "\(person.displayName)'s snapshot")
            let calendar = Set(try school.run(ListCalendar.self, .init(from: "2026-11-18", to: "2026-11-30"), as: person).filter { $0.type != .holiday && $0.type != .exam }.map(\.title))
            #expect(calendar == expected[index], "the calendar shows the same")
        }
    }

    @Test("a registration re-sends its event with the new count; a cancelled event is re-sent marked, not deleted")
    func registrationsAndCancelling() throws {
        let school = try EventsFixture()
        let sync = SyncTestReader(school.harness.kernel, school: school.harness.school.id, type: "events.item")
        let trip = try school.run(CreateEvent.self, .init(title: "Trip", startsOn: "2026-11-20", classCode: "7A", registrationRequired: true, maxAttendees: 10),
                                  as: school.teacher)
        let start = try sync.pull(school.guardian).cursor
        try school.run(RegisterForEvent.self, .init(id: trip.id), as: school.student)
        #expect(try field("registrations", of: trip.id, for: school.guardian, from: start, school) == .int(1))

        try school.run(CancelEvent.self, .init(id: trip.id), as: school.teacher)
        let afterCancel = try sync.pull(school.guardian, from: start)
        #expect(afterCancel.titles == [trip.id: "Trip"], "kept, as the calendar keeps it")
        let cancelledAt = try field("cancelledAt", of: trip.id, for: school.guardian, from: start, school)
        #expect(cancelledAt != nil && cancelledAt != .null, "marked cancelled")
        #expect(try sync.snapshot(school.guardian) == ["Trip"])
    }

    /// A field of the latest change to `id` the person pulled since `cursor`.
    private func field(_ name: String, of id: String, for person: Principal, from cursor: String, _ school: EventsFixture) throws -> APIValue? {
        guard case .changes(let changes, _, _, _) = try school.harness.kernel.syncPull(clientID: nil, cursor: cursor, limit: 1000, as: person,
                                                                                      in: school.harness.school.id),
              case .object(let data)? = changes.last(where: { $0.id == id })?.data else { return nil }
        return data[name]
    }
}
