import Auth
import Core
import Foundation
import HogwartsTestSupport
import Students
import Testing
import Timetable

@Suite("Timetable: access and input (issue 11)")
struct TimetableHardeningTests {
    /// The first student of a class, as the admin sees it.
    private func first(of classCode: String, _ fixture: TimetableFixture) throws -> Student {
        try #require(try fixture.run(ListStudents.self, .init(classCode: classCode)).students.first)
    }

    @Test("--student follows the roster: an accountant is refused, a teacher sees only her classes' students, as students show does")
    func studentTargetFollowsRoster() throws {
        let fixture = try TimetableFixture()
        let own = try first(of: "7A", fixture)
        let stranger = try first(of: "12C", fixture)
        let accountant = try fixture.account("accountant@databayt.org")
        #expect(throws: KernelError.permissionDenied(permission: "students.read", role: .accountant)) {
            try fixture.run(ViewTimetable.self, .init(target: .student(own.grNumber)), as: accountant)
        }
        #expect(throws: KernelError.permissionDenied(permission: "students.read", role: .accountant)) {
            try fixture.run(NowAndNext.self, .init(target: .student(own.grNumber)), as: accountant)
        }
        let teacher = try fixture.account("teacher@databayt.org")
        #expect(throws: StudentsError.unknownStudent(stranger.grNumber)) {
            try fixture.run(ViewTimetable.self, .init(target: .student(stranger.grNumber), span: .fortnight), as: teacher)
        }
        #expect(throws: StudentsError.unknownStudent(stranger.grNumber)) { try fixture.run(ShowStudent.self, .init(grNumber: stranger.grNumber), as: teacher) }
        let view = try fixture.run(ViewTimetable.self, .init(target: .student(own.grNumber), span: .day), as: teacher)
        #expect(view.title.contains("7A"))
        // Staff read every student, so every student's grid.
        #expect(try fixture.run(ViewTimetable.self, .init(target: .student(stranger.grNumber)), as: try fixture.account("staff@databayt.org")).title.contains("12C"))
    }

    @Test("--student for students and guardians: themselves and their children only")
    func studentTargetForFamilies() throws {
        let fixture = try TimetableFixture()
        let stranger = try first(of: "12C", fixture)
        let student = try fixture.account("student@databayt.org")
        let me = try #require(try fixture.run(ListStudents.self, .init(), as: student).students.first)
        #expect(try fixture.run(ViewTimetable.self, .init(target: .student(me.grNumber)), as: student).title.contains(me.classCode ?? "?"))
        #expect(throws: StudentsError.unknownStudent(stranger.grNumber)) { try fixture.run(ViewTimetable.self, .init(target: .student(stranger.grNumber)), as: student) }
        let parent = try fixture.account("parent@databayt.org")
        for child in try fixture.run(ListStudents.self, .init(), as: parent).students {
            #expect(try fixture.run(ViewTimetable.self, .init(target: .student(child.grNumber)), as: parent).title.contains(child.fullName))
        }
        #expect(throws: StudentsError.unknownStudent(stranger.grNumber)) { try fixture.run(ViewTimetable.self, .init(target: .student(stranger.grNumber)), as: parent) }
    }

    @Test("--class and --teacher name no student: the timetable's own grant applies, and families see only their own classes")
    func classAndTeacherTargets() throws {
        let fixture = try TimetableFixture()
        let accountant = try fixture.account("accountant@databayt.org")
        #expect(try fixture.run(ViewTimetable.self, .init(target: .classCode("12C")), as: accountant).title == "12C")
        #expect(try fixture.run(ViewTimetable.self, .init(target: .teacher("teacher@databayt.org")), as: accountant).days.flatMap(\.lessons).isEmpty == false)
        let parent = try fixture.account("parent@databayt.org")
        #expect(throws: StudentsError.unknownClass("12C")) { try fixture.run(ViewTimetable.self, .init(target: .classCode("12C")), as: parent) }
        #expect(throws: TimetableError.unknownTeacher("teacher@databayt.org")) {
            try fixture.run(ViewTimetable.self, .init(target: .teacher("teacher@databayt.org")), as: parent)
        }
    }

    @Test("periods are listed for an admin, who has no timetable of her own, and for every reader")
    func periodsList() throws {
        let fixture = try TimetableFixture()
        let periods = try fixture.run(ListPeriods.self, .init())
        #expect(periods.map(\.code).contains("P1") && periods.contains(where: \.isBreak))
        #expect(try fixture.run(ListPeriods.self, .init(), as: try fixture.account("parent@databayt.org")) == periods)
    }

    @Test("a slot id prefix takes % and _ literally: one typed character is not a wildcard that picks some slot")
    func likePrefixes() throws {
        let fixture = try TimetableFixture()
        let slot = try #require(try fixture.run(ViewTimetable.self, .init(target: .classCode("7A"), span: .fortnight)).days.flatMap(\.lessons).first)
        let wildcard = String(slot.id.prefix(7)) + "_"
        #expect(throws: TimetableError.unknownSlot(wildcard)) { try fixture.run(DeleteSlot.self, .init(slot: wildcard)) }
        for reference in ["%", ""] {
            #expect(throws: TimetableError.unknownSlot(reference)) { try fixture.run(DeleteSlot.self, .init(slot: reference)) }
        }
        #expect(try fixture.run(DeleteSlot.self, .init(slot: String(slot.id.prefix(8)))) == slot.id, "the real prefix still works")
    }

    @Test("free text is checked: a holiday name with control characters or 10,000 characters, a period name with a NUL")
    func freeText() throws {
        let fixture = try TimetableFixture()
        #expect(throws: InputError("kernel.error.text-too-long", ["field": "name", "max": "200"])) {
            try fixture.run(AddClosure.self, .init(from: "2026-12-01", to: "2026-12-02", name: String(repeating: "x", count: 10_000)))
        }
        #expect(throws: InputError("kernel.error.text-control", ["field": "name", "max": "200"])) {
            try fixture.run(AddClosure.self, .init(from: "2026-12-01", to: "2026-12-02", name: "Eid\u{1B}[2J"))
        }
        #expect(throws: InputError("kernel.error.text-control", ["field": "name-en", "max": "100"])) {
            try fixture.run(CreatePeriod.self, .init(code: "P9", name: LocalizedText(ar: "تاسعة", en: "Nin\0th"), startsAt: "15:00", endsAt: "15:40"))
        }
        #expect(throws: TimetableError.invalidDate("0001-01-01")) { try fixture.run(AddClosure.self, .init(from: "0001-01-01", to: "2026-12-02", name: "x")) }
    }
}

@Suite("Timetable JSON (issue 11)")
struct TimetableJSONTests {
    @Test("a cycle week is its letter or null, and reads back")
    func cycleWeek() throws {
        let weeks: [CycleWeek] = [.week(0), .week(1), .noSchool]
        let data = try JSONEncoder().encode(weeks)
        #expect(String(decoding: data, as: UTF8.self) == #"["A","B",null]"#)
        #expect(try JSONDecoder().decode([CycleWeek].self, from: data) == weeks)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([CycleWeek].self, from: Data(#"[{"week":{"_0":1}}]"#.utf8)) }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([CycleWeek].self, from: Data(#"["AB"]"#.utf8)) }
    }

    @Test("whose timetable is a plain object in JSON, and reads back")
    func target() throws {
        let targets: [TimetableTarget] = [.mine, .classCode("7A"), .teacher("t@x.org"), .student("GR-0001")]
        let data = try JSONEncoder().encode(targets)
        #expect(String(decoding: data, as: UTF8.self) == #"[{},{"class":"7A"},{"teacher":"t@x.org"},{"student":"GR-0001"}]"#)
        #expect(try JSONDecoder().decode([TimetableTarget].self, from: data) == targets)
    }

    @Test("views, now-and-next and the cycle print no Swift internals and read back (replayed answers are decoded)")
    func views() throws {
        let fixture = try TimetableFixture()
        let student = try fixture.account("student@databayt.org")
        let week = try fixture.run(ViewTimetable.self, .init(target: .classCode("7A"), span: .week))
        let now = try fixture.run(NowAndNext.self, .init(), as: student)
        let cycle = try fixture.run(CycleWeeks.self, .init(from: "2026-10-25", to: "2026-11-30"))
        for text in [try json(week), try json(now), try json(cycle)] {
            #expect(!text.contains("_0") && !text.contains("no_school") && !text.contains("\"week\" : -1"), "\(text.prefix(300))")
        }
        #expect(try json(cycle).contains(#""week" : null"#) && json(cycle).contains(#""week" : "B""#))
        #expect(try json(week).contains(#""span" : "WEEK""#) && json(week).contains(#""week" : "ALL""#))
        let back = try JSONDecoder().decode(TimetableView.self, from: JSONEncoder().encode(week))
        #expect(back.days.map(\.week) == week.days.map(\.week) && back.days.flatMap(\.lessons) == week.days.flatMap(\.lessons))
        #expect(try JSONDecoder().decode(NowAndNext.Output.self, from: JSONEncoder().encode(now)).next == now.next)
    }

    private func json<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try Output.jsonEncoder().encode(value), as: UTF8.self)
    }
}
