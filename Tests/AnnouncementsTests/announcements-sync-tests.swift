@testable import Announcements
import Core
import Foundation
import HogwartsTestSupport
import Testing

/// Announcements in the offline apps' pull and snapshot: each person receives exactly what the
/// list route shows them, and a withdrawn or not yet published one is not on their phone.
@Suite("Announcements: offline sync")
struct AnnouncementsSyncTests {
    let school: AnnouncementsFixture
    let sync: SyncTestReader

    init() throws {
        school = try AnnouncementsFixture()
        sync = SyncTestReader(school.harness.kernel, school: school.harness.school.id, type: "announcements.post")
    }

    private func pull(_ principal: Principal, from cursor: String? = nil) throws -> (changes: [String: String], cursor: String) {
        let pulled = try sync.pull(principal, from: cursor)
        return (pulled.titles, pulled.cursor)
    }

    private func snapshot(_ principal: Principal) throws -> Set<String> { try sync.snapshot(principal) }

    @Test("each audience reaches exactly its people offline: the school, a role, a class (its students, guardians and teacher), a year level")
    func audiences() throws {
        let people = [school.admin, school.teacher, school.student, school.guardian, school.otherStudent, school.olderStudent, school.staff]
        let start = try people.map { try pull($0).cursor }
        try school.run(PostAnnouncement.self, .init(title: "Term two", content: "Starts Sunday."), as: school.admin)
        try school.run(PostAnnouncement.self, .init(title: "Museum trip", content: "Tuesday.", audience: "class:7A"), as: school.teacher)
        try school.run(PostAnnouncement.self, .init(title: "Grade 7 exams", content: "Next week.", audience: "year-level:G7"), as: school.admin)
        try school.run(PostAnnouncement.self, .init(title: "Staff meeting", content: "At two.", audience: "role:STAFF"), as: school.admin)

        let expected: [Set<String>] = [
            ["Term two", "Museum trip", "Grade 7 exams", "Staff meeting"], // the administrator reads everything
            ["Term two", "Museum trip", "Grade 7 exams"], // 7A's teacher: 7A is in Grade 7
            ["Term two", "Museum trip", "Grade 7 exams"], // a student of 7A
            ["Term two", "Museum trip", "Grade 7 exams"], // her guardian
            ["Term two", "Grade 7 exams"], // a student of 7B
            ["Term two"], // a student of 8A
            ["Term two", "Staff meeting"], // staff
        ]
        for (index, person) in people.enumerated() {
            let pulled = Set(try pull(person, from: start[index]).changes.values)
            #expect(pulled == expected[index], "\(person.displayName) pulled \(pulled)")
            #expect(try snapshot(person) == expected[index], "\(person.displayName)'s snapshot")
            #expect(Set(try school.titles(as: person)) == expected[index], "the list route shows the same")
        }
    }

    @Test("a withdrawn announcement is deleted from the apps; a scheduled one arrives when it is published, not before")
    func withdrawnAndScheduled() throws {
        let start = try pull(school.guardian).cursor
        let trip = try school.run(PostAnnouncement.self, .init(title: "Museum trip", content: "Tuesday.", audience: "class:7A"), as: school.teacher)
        let evening = try school.run(PostAnnouncement.self, .init(title: "Parents' evening", content: "Thursday.",
                                                                  publishAt: school.clock.now.addingTimeInterval(3600)), as: school.admin)
        let posted = try pull(school.guardian, from: start)
        #expect(posted.changes == [trip.id: "Museum trip"], "the scheduled one is not sent yet")
        #expect(try snapshot(school.guardian) == ["Museum trip"])

        try school.run(WithdrawAnnouncement.self, .init(id: trip.id), as: school.teacher)
        school.clock.advance(hours: 2)
        #expect(try school.run(PublishDueAnnouncements.self, .init(), as: .localOperator) == 1)
        let later = try pull(school.guardian, from: posted.cursor)
        #expect(later.changes == [trip.id: "deleted", evening.id: "Parents' evening"])
        #expect(try snapshot(school.guardian) == ["Parents' evening"])
    }
}
