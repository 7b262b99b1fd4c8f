import Auth
import Core
import Foundation
import HogwartsTestSupport
import Students
import Testing
import Timetable

/// The demo school at a chosen moment: every test gets the full two-week grid to work with.
struct TimetableFixture {
    let harness: TestHarness
    let school: School

    /// `time` is UTC; the demo school is in Khartoum (UTC+2).
    init(at time: String = "2026-11-22T06:00:00Z") throws {
        let moment = (try? Date.ISO8601FormatStyle().parse(time)) ?? Date()
        let (harness, schools) = try TestHarness.withDemo(modules: [AuthModule(), StudentsModule(), TimetableModule()], clock: { moment })
        self.harness = harness
        school = schools[0]
    }

    var admin: Principal { harness.user(.admin, in: school) }

    func account(_ email: String) throws -> Principal {
        let result = try harness.kernel.run(SignIn.self, .init(email: email, password: AuthDemo.password), as: .anonymous, in: school.id)
        guard let user = result.user else { throw AuthError.signInRefused }
        return Principal(userID: user.id, role: user.role, schoolID: school.id, displayName: user.displayName)
    }

    @discardableResult
    func run<A: Action>(_ action: A.Type, _ input: A.Input, as principal: Principal? = nil) throws -> A.Output {
        try harness.kernel.run(action, input, as: principal ?? admin, in: school.id)
    }
}

@Suite("Timetable module")
struct TimetableTests {
    @Test("every string exists in Arabic and English")
    func strings() {
        #expect(TimetableModule().strings.text("timetable.module.name", in: .ar) != nil)
        #expect(TimetableModule().strings.missingTranslations.isEmpty)
    }

    @Test("the demo grid books no teacher, room or class twice in any period of any week")
    func demoHasNoClashes() throws {
        let fixture = try TimetableFixture()
        let slots = try fixture.run(ViewTimetable.self, .init(target: .classCode("7A"), span: .fortnight)).days.flatMap(\.lessons)
        #expect(slots.count == 5 * (2 + 6 * 2), "two every-week periods and six A/B periods, five days")
        var seen: Set<String> = []
        for code in try fixture.run(ListClasses.self, .init()).map(\.code) {
            for slot in try fixture.run(ViewTimetable.self, .init(target: .classCode(code), span: .fortnight)).days.flatMap(\.lessons) {
                for week in slot.week == -1 ? [0, 1] : [slot.week] {
                    for key in ["t\(slot.teacherEmail)", "r\(slot.room)", "c\(slot.classCode)"] {
                        #expect(seen.insert("\(key)|\(slot.day)|\(slot.periodCode)|\(week)").inserted, "double booking: \(key) \(slot.day) \(slot.periodCode) \(week)")
                    }
                }
            }
        }
    }

    @Test("a slot that double-books a teacher, a room or a class is refused, naming the clash")
    func clashes() throws {
        let fixture = try TimetableFixture()
        let existing = try #require(try fixture.run(ViewTimetable.self, .init(target: .classCode("7A"), span: .fortnight)).days[0].lessons.first { $0.week == -1 })
        func place(_ classCode: String, teacher: String, room: String, week: Int) -> SlotPlacement {
            SlotPlacement(day: existing.day, periodCode: existing.periodCode, week: week, classCode: classCode, subjectCode: "ART", teacherEmail: teacher, room: room)
        }
        let other = "teacher30@databayt.org"
        #expect(throws: TimetableError.self) { try fixture.run(CreateSlot.self, place("7B", teacher: existing.teacherEmail, room: "R-X", week: 0)) }
        do {
            try fixture.run(CreateSlot.self, place("7B", teacher: existing.teacherEmail, room: "R-X", week: 0))
        } catch let error as TimetableError {
            #expect(error.messageKey == "timetable.error.clash.teacher")
            #expect(error.messageArguments["slot"]?.contains("7A") == true, "names the lesson in the way")
        }
        let roomClash = #expect(throws: TimetableError.self) { try fixture.run(CreateSlot.self, place("7B", teacher: other, room: existing.room, week: 1)) }
        #expect(roomClash?.messageKey == "timetable.error.clash.room" || roomClash?.messageKey == "timetable.error.clash.teacher")
        let classClash = #expect(throws: TimetableError.self) { try fixture.run(CreateSlot.self, place("7A", teacher: other, room: "R-X", week: -1)) }
        #expect(classClash?.messageKey != nil)
        #expect(throws: TimetableError.breakPeriod("BRK")) {
            try fixture.run(CreateSlot.self, SlotPlacement(day: 0, periodCode: "BRK", week: -1, classCode: "7A", subjectCode: "ART", teacherEmail: other, room: "R-X"))
        }
        #expect(throws: TimetableError.notWorkingDay(5)) {
            try fixture.run(CreateSlot.self, SlotPlacement(day: 5, periodCode: "P1", week: -1, classCode: "7A", subjectCode: "ART", teacherEmail: other, room: "R-X"))
        }
    }

    @Test("slots move and are deleted; a move into a clash is refused and changes nothing")
    func moveAndDelete() throws {
        let fixture = try TimetableFixture()
        let lessons = try fixture.run(ViewTimetable.self, .init(target: .classCode("7A"), span: .fortnight)).days.flatMap(\.lessons)
        let first = try #require(lessons.first)
        let second = try #require(lessons.first { $0.day == first.day && $0.periodCode != first.periodCode && $0.week == -1 })
        #expect(throws: TimetableError.self) { try fixture.run(MoveSlot.self, .init(slot: first.id, periodCode: second.periodCode)) }
        let unchanged = try fixture.run(ViewTimetable.self, .init(target: .classCode("7A"), span: .fortnight)).days.flatMap(\.lessons)
        #expect(unchanged.first { $0.id == first.id }?.periodCode == first.periodCode, "a refused move changes nothing")

        try fixture.run(MoveSlot.self, .init(slot: first.id, room: "LAB-1"))
        try fixture.run(DeleteSlot.self, .init(slot: String(second.id.prefix(8))))
        let after = try fixture.run(ViewTimetable.self, .init(target: .classCode("7A"), span: .fortnight)).days.flatMap(\.lessons)
        #expect(after.count == lessons.count - 1)
        #expect(after.first { $0.id == first.id }?.room == "LAB-1")
        #expect(throws: TimetableError.unknownSlot(second.id)) { try fixture.run(DeleteSlot.self, .init(slot: second.id)) }
    }

    @Test("students see their own class, guardians their children's, teachers all")
    func visibility() throws {
        let fixture = try TimetableFixture()
        let student = try fixture.account("student@databayt.org")
        let own = try fixture.run(ViewTimetable.self, .init(), as: student)
        #expect(own.title.hasSuffix("(7A)"))
        #expect(throws: StudentsError.unknownClass("8B")) { try fixture.run(ViewTimetable.self, .init(target: .classCode("8B")), as: student) }
        #expect(throws: TimetableError.unknownTeacher("teacher@databayt.org")) {
            try fixture.run(ViewTimetable.self, .init(target: .teacher("teacher@databayt.org")), as: student)
        }
        let parent = try fixture.account("parent@databayt.org")
        let choose = #expect(throws: StudentsError.self) { try fixture.run(ViewTimetable.self, .init(), as: parent) }
        guard case .chooseChild(let listed) = choose else { Issue.record("expected the children listed"); return }
        #expect(listed.count == 2)
        let children = try fixture.run(ListStudents.self, .init(), as: parent).students
        for child in children {
            #expect(try fixture.run(ViewTimetable.self, .init(target: .student(child.grNumber)), as: parent).title.contains(child.classCode ?? "?"))
        }
        let teacher = try fixture.account("teacher@databayt.org")
        #expect(try fixture.run(ViewTimetable.self, .init(target: .classCode("12C")), as: teacher).days.count == 5)
        let mine = try fixture.run(ViewTimetable.self, .init(span: .fortnight), as: teacher).days.flatMap(\.lessons)
        #expect(!mine.isEmpty && mine.allSatisfy { $0.teacherEmail == "teacher@databayt.org" })
    }

    @Test("a day off shows the next school day's timetable")
    func nonSchoolDay() throws {
        let fixture = try TimetableFixture()
        let friday = try fixture.run(ViewTimetable.self, .init(target: .classCode("7A"), date: "2026-11-27", span: .day))
        #expect(friday.movedToNextSchoolDay)
        #expect(friday.days.first?.date?.description == "2026-11-29")
        #expect(friday.days.first?.lessons.count == 8)
        let holiday = try fixture.run(ViewTimetable.self, .init(target: .classCode("7A"), date: "2026-11-02", span: .day))
        #expect(holiday.days.first?.date?.description == "2026-11-08", "the mid-term break is skipped")
    }

    @Test("now: the lesson in progress and the next one, in the school's time zone")
    func nowAndNext() throws {
        // 06:00 UTC is 08:00 in Khartoum: period 1 (07:45-08:30) is in progress.
        let fixture = try TimetableFixture(at: "2026-11-22T06:00:00Z")
        let student = try fixture.account("student@databayt.org")
        let answer = try fixture.run(NowAndNext.self, .init(), as: student)
        #expect(answer.now == "08:00")
        #expect(answer.current?.slot.periodCode == "P1")
        #expect(answer.next?.slot.periodCode == "P2")
        #expect(answer.current?.date.description == "2026-11-22")

        // Thursday 12:00 UTC = 14:00 local, in the last period; Friday and Saturday are off.
        let late = try TimetableFixture(at: "2026-11-26T12:00:00Z")
        let afterSchool = try late.run(NowAndNext.self, .init(), as: try late.account("student@databayt.org"))
        #expect(afterSchool.current?.slot.periodCode == "P8")
        #expect(afterSchool.next?.date.description == "2026-11-29", "the next lesson is on Sunday")
        #expect(afterSchool.next?.slot.periodCode == "P1")
    }

    @Test("the school's settings and overrides drive the cycle the views show")
    func settingsAndOverrides() throws {
        let fixture = try TimetableFixture()
        func letters() throws -> String {
            try fixture.run(CycleWeeks.self, .init(from: "2026-10-18", to: "2026-11-29")).map(\.week.description).joined()
        }
        // Week A is the week the first term starts (23 August); 1-5 November is the mid-term break.
        #expect(try letters() == "AB-BABA", "calendar weeks: the mid-term week counts")
        try fixture.harness.kernel.setSetting("timetable.advance-mode", to: "school-weeks", for: fixture.school.id, by: fixture.admin)
        #expect(try letters() == "AB-ABAB", "school weeks: it does not")
        try fixture.run(SetWeekOverride.self, .init(date: "2026-11-10", week: 1, kind: .oneWeek))
        #expect(try letters() == "AB-BBAB", "that week only")
        try fixture.run(SetWeekOverride.self, .init(date: "2026-11-17", week: 0, kind: .restart))
        #expect(try letters() == "AB-BABA", "restarted on A from 15 November")
        #expect(throws: KernelError.invalidSetting(key: "timetable.working-days", value: "0,0,9", reason: "0-6,...")) {
            try fixture.harness.kernel.setSetting("timetable.working-days", to: "0,0,9", for: fixture.school.id, by: fixture.admin)
        }
    }
}
