@testable import Announcements
import Core
import Foundation
import HogwartsTestSupport
import Testing

@Suite("Announcements module")
struct AnnouncementsTests {
    @Test("every string exists in Arabic and English")
    func strings() {
        let catalog = AnnouncementsModule().strings
        #expect(catalog.text("announcements.module.name", in: .en) != nil, "the catalog loaded from the module's resources")
        #expect(catalog.missingTranslations.isEmpty)
    }

    @Test("the tables the module declares are exactly those its migrations create")
    func declaredTables() {
        let mismatches = ModuleSchema.mismatches(of: AnnouncementsModule())
        #expect(mismatches.undeclared.isEmpty, "add them to ownedTables (or publishedViews)")
        #expect(mismatches.notCreated.isEmpty)
    }

    @Test("a notice to the whole school reaches everyone in it, once each, and no one in another school")
    func wholeSchool() throws {
        let school = try AnnouncementsFixture()
        let posted = try school.run(PostAnnouncement.self, .init(title: "  Term two  ", content: "Starts Sunday.", priority: .high, pinned: true), as: school.admin)
        #expect(posted.title == "Term two" && posted.isPublished && posted.pinned && posted.audience == .school)
        for reader in [school.teacher, school.student, school.guardian, school.otherStudent, school.staff, school.admin] {
            #expect(try school.titles(as: reader) == ["Term two"], "\(reader.displayName)")
        }
        for reader in [school.teacher, school.student, school.guardian, school.staff] {
            #expect(try school.notifications(of: reader) == ["Announcement: Term two"], "\(reader.displayName) told once")
        }
        #expect(try school.notifications(of: school.admin).isEmpty, "not its author")
        let elsewhere = school.harness.user(.admin, in: school.otherSchool)
        #expect(try school.run(ListAnnouncements.self, .init(), as: elsewhere).items.isEmpty)
        #expect(throws: AnnouncementsError.unknownAnnouncement(posted.id)) { try school.run(OpenAnnouncement.self, .init(id: posted.id), as: elsewhere) }
    }

    @Test("a teacher's notice to 7A reaches 7A's student, her guardian and the teacher; 7B, staff and other classes never see it")
    func classNotice() throws {
        let school = try AnnouncementsFixture()
        let posted = try school.run(PostAnnouncement.self, .init(title: "Museum trip", content: "Tuesday.", audience: "class:7A"), as: school.teacher)
        #expect(posted.audienceCode == "7A")
        for reader in [school.student, school.guardian, school.teacher, school.admin] {
            #expect(try school.titles(as: reader) == ["Museum trip"], "\(reader.displayName)")
        }
        for outsider in [school.otherStudent, school.olderStudent, school.staff] {
            #expect(try school.titles(as: outsider).isEmpty, "\(outsider.displayName)")
            // Someone it is not for is answered as for an id that does not exist.
            #expect(throws: AnnouncementsError.unknownAnnouncement(posted.id)) { try school.run(OpenAnnouncement.self, .init(id: posted.id), as: outsider) }
        }
        #expect(try school.notifications(of: school.student) == ["Announcement: Museum trip"])
        #expect(try school.notifications(of: school.guardian) == ["Announcement: Museum trip"])
        #expect(try school.notifications(of: school.otherStudent).isEmpty)
    }

    @Test("a year level's notice reaches both its classes and not the next year's; a role's reaches that role only")
    func yearLevelAndRole() throws {
        let school = try AnnouncementsFixture()
        try school.run(PostAnnouncement.self, .init(title: "Grade 7 exams", content: "Next week.", audience: "year-level:G7"), as: school.admin)
        try school.run(PostAnnouncement.self, .init(title: "Staff meeting", content: "At noon.", audience: "role:teacher"), as: school.admin)
        #expect(try school.titles(as: school.student) == ["Grade 7 exams"])
        #expect(try school.titles(as: school.otherStudent) == ["Grade 7 exams"])
        #expect(try school.titles(as: school.olderStudent).isEmpty)
        #expect(try Set(school.titles(as: school.teacher)) == ["Grade 7 exams", "Staff meeting"])
        #expect(try school.titles(as: school.staff).isEmpty)
    }

    @Test("a teacher may address only a class they teach; a refused post writes nothing")
    func teacherReach() throws {
        let school = try AnnouncementsFixture()
        #expect(throws: AnnouncementsError.notYourClass("7B")) {
            try school.run(PostAnnouncement.self, .init(title: "Hi", content: "7B", audience: "class:7B"), as: school.teacher)
        }
        #expect(throws: AnnouncementsError.notYourClass("school")) {
            try school.run(PostAnnouncement.self, .init(title: "Hi", content: "All"), as: school.teacher)
        }
        #expect(throws: KernelError.permissionDenied(permission: "announcements.post", role: .student)) {
            try school.run(PostAnnouncement.self, .init(title: "Hi", content: "All"), as: school.student)
        }
        #expect(try school.stored() == 0)
    }

    @Test("bad input is refused before anything is written")
    func badInput() throws {
        let school = try AnnouncementsFixture()
        #expect(throws: InputError("announcements.error.empty", ["field": "title"])) {
            try school.run(PostAnnouncement.self, .init(title: "  ", content: "x"), as: school.admin)
        }
        #expect(throws: AnnouncementsError.unknownAudience("class:9Z")) {
            try school.run(PostAnnouncement.self, .init(title: "x", content: "x", audience: "class:9Z"), as: school.admin)
        }
        #expect(throws: AnnouncementsError.unknownAudience("role:wizard")) {
            try school.run(PostAnnouncement.self, .init(title: "x", content: "x", audience: "role:wizard"), as: school.admin)
        }
        #expect(throws: AnnouncementsError.expiresBeforePublished) {
            try school.run(PostAnnouncement.self, .init(title: "x", content: "x", publishAt: school.clock.now.addingTimeInterval(7200),
                                                        expiresAt: school.clock.now.addingTimeInterval(3600)), as: school.admin)
        }
        #expect(try school.stored() == 0)
        #expect(try school.notifications(of: school.student).isEmpty)
    }

    @Test("a scheduled notice shows and is told at its time, once, however many servers pass; then it expires")
    func scheduled() throws {
        let school = try AnnouncementsFixture()
        let posted = try school.run(PostAnnouncement.self, .init(title: "Parents' evening", content: "Thursday 17:00.",
                                                                 publishAt: school.clock.now.addingTimeInterval(2 * 3600),
                                                                 expiresAt: school.clock.now.addingTimeInterval(48 * 3600)), as: school.admin)
        #expect(!posted.isPublished)
        #expect(try school.titles(as: school.guardian).isEmpty)
        #expect(try school.notifications(of: school.guardian).isEmpty)
        #expect(try school.run(AnnouncementsDue.self, .init(), as: .localOperator) == false)
        #expect(try school.run(ListAnnouncements.self, .init(includeUnpublished: true), as: school.admin).items.map(\.title) == ["Parents' evening"])

        school.clock.advance(hours: 3)
        #expect(try school.run(AnnouncementsDue.self, .init(), as: .localOperator))
        #expect(try school.run(PublishDueAnnouncements.self, .init(), as: .localOperator) == 1)
        #expect(try school.run(PublishDueAnnouncements.self, .init(), as: .localOperator) == 0, "a second server finds nothing to do")
        #expect(try school.titles(as: school.guardian) == ["Parents' evening"])
        #expect(try school.notifications(of: school.guardian) == ["Announcement: Parents' evening"])

        school.clock.advance(hours: 48)
        #expect(try school.titles(as: school.guardian).isEmpty)
        #expect(throws: AnnouncementsError.unknownAnnouncement(posted.id)) { try school.run(OpenAnnouncement.self, .init(id: posted.id), as: school.guardian) }
    }

    @Test("opening a notice records one read per person, however often they open it")
    func readReceipts() throws {
        let school = try AnnouncementsFixture()
        let posted = try school.run(PostAnnouncement.self, .init(title: "Uniform", content: "Winter uniform from Sunday."), as: school.admin)
        #expect(posted.readCount == 0)
        #expect(try school.run(OpenAnnouncement.self, .init(id: posted.id), as: school.student).readCount == 1)
        #expect(try school.run(OpenAnnouncement.self, .init(id: posted.id), as: school.student).readCount == 1)
        let opened = try school.run(OpenAnnouncement.self, .init(id: posted.id), as: school.guardian)
        #expect(opened.readCount == 2 && opened.readByMe)
        #expect(try school.run(ListAnnouncements.self, .init(), as: school.teacher).items.first?.readByMe == false)
    }

    @Test("a withdrawn notice stops showing and is kept; only its author or an administrator withdraws it")
    func withdraw() throws {
        let school = try AnnouncementsFixture()
        let mine = try school.run(PostAnnouncement.self, .init(title: "Trip", content: "Tuesday.", audience: "class:7A"), as: school.teacher)
        let admins = try school.run(PostAnnouncement.self, .init(title: "Holiday", content: "Monday off."), as: school.admin)
        #expect(throws: AnnouncementsError.notYours(admins.id)) { try school.run(WithdrawAnnouncement.self, .init(id: admins.id), as: school.teacher) }
        #expect(throws: AnnouncementsError.unknownAnnouncement("no-such-id")) { try school.run(WithdrawAnnouncement.self, .init(id: "no-such-id"), as: school.teacher) }
        #expect(try school.run(WithdrawAnnouncement.self, .init(id: mine.id), as: school.teacher))
        #expect(try school.titles(as: school.student) == ["Holiday"])
        let kept = try school.run(ListAnnouncements.self, .init(includeUnpublished: true), as: school.teacher).items
        #expect(kept.contains { $0.id == mine.id && $0.withdrawnAt != nil })
        #expect(try school.stored() == 2)
    }

    @Test("pinned notices come first, then the newest; pages add up to the total")
    func orderAndPages() throws {
        let school = try AnnouncementsFixture()
        try school.run(PostAnnouncement.self, .init(title: "Pinned", content: "x", pinned: true), as: school.admin)
        for index in 1...4 {
            school.clock.advance(hours: 1)
            try school.run(PostAnnouncement.self, .init(title: "Notice \(index)", content: "x"), as: school.admin)
        }
        #expect(try school.titles(as: school.student) == ["Pinned", "Notice 4", "Notice 3", "Notice 2", "Notice 1"])
        let second = try school.run(ListAnnouncements.self, .init(offset: 2, limit: 2), as: school.student)
        #expect(second.total == 5 && second.items.map(\.title) == ["Notice 3", "Notice 2"])
    }
}

@Suite("Announcements: the audience as JSON")
struct AnnouncementAudienceJSONTests {
    @Test("each audience is one string that reads back as itself", arguments: [
        AnnouncementAudience.school, .role(.teacher), .class("c-1"), .yearLevel("y-1"),
    ])
    func roundTrip(audience: AnnouncementAudience) throws {
        let text = String(decoding: try JSONEncoder().encode(audience), as: UTF8.self)
        #expect(text.hasPrefix("\"") && !text.contains("_0"))
        #expect(try JSONDecoder().decode(AnnouncementAudience.self, from: Data(text.utf8)) == audience)
    }
}
