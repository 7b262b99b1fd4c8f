import Auth
import Core
import Foundation
import HogwartsTestSupport
import Students
import Testing
import Timetable

/// The demo school and the people a phone user would be; the second demo school for tenancy.
struct TimetableAPIFixture {
    let base: TimetableFixture
    let other: School

    init(at time: String = "2026-11-22T06:00:00Z") throws {
        base = try TimetableFixture(at: time)
        let school = base.school
        other = try #require(try base.harness.kernel.schools().first { $0.id != school.id })
    }

    var harness: TestHarness { base.harness }
    var admin: Principal { base.admin }
    func account(_ email: String) throws -> Principal { try base.account(email) }

    func student(in classCode: String) throws -> Student {
        try #require(try base.run(ListStudents.self, .init(classCode: classCode)).students.first)
    }

    func students(of principal: Principal) throws -> [Student] {
        try base.run(ListStudents.self, .init(), as: principal).students
    }

    func foreignStudent() throws -> Student {
        try #require(try harness.kernel.run(ListStudents.self, .init(), as: harness.user(.admin, in: other), in: other.id).students.first)
    }

    /// The lesson ids the CLI's week view shows, for comparison.
    func weekIDs(_ target: TimetableTarget, date: String? = nil, day: Int? = nil) throws -> Set<String> {
        let days = try base.run(ViewTimetable.self, .init(target: target, date: date, span: .week)).days
        return Set(days.filter { day == nil || $0.weekday == day }.flatMap(\.lessons).map(\.id))
    }
}

@Suite("Timetable API")
struct TimetableRoutesTests {
    static let itemKeys: Set<String> = ["id", "day_of_week", "subject_name", "teacher_name", "section_name", "grade_name", "classroom",
                                        "period_name", "start_time", "end_time"]

    private func ids(_ response: APITestResponse) -> Set<String> { Set(response.data.compactMap { $0["id"] as? String }) }

    @Test("timetable/:userId gives this cycle week's lessons of a student, by student id, account id or GR number, with the contract's keys")
    func studentTimetable() async throws {
        let fixture = try TimetableAPIFixture()
        let student = try fixture.account("student@databayt.org")
        let me = try #require(try fixture.students(of: student).first)
        let week = try fixture.weekIDs(.classCode("7A"))
        try await fixture.harness.api { api in
            let answer = try await api.get("/api/mobile/timetable/\(me.id)", as: student, headers: ["Accept-Language": "en"])
            #expect(answer.status == 200 && Set(answer.object.keys) == ["data"])
            #expect(answer.data.count == 40 && self.ids(answer) == week, "five days of eight lessons, this week's letter only")
            let first = try #require(answer.data.first)
            #expect(Set(first.keys) == Self.itemKeys)
            #expect(first["day_of_week"] as? Int == 0 && first["start_time"] as? String == "1970-01-01T07:45:00.000Z")
            #expect(first["end_time"] as? String == "1970-01-01T08:30:00.000Z" && first["period_name"] as? String == "Period 1")
            #expect(first["section_name"] as? String == "Grade 7-A" && first["grade_name"] as? String == "Grade 7" && first["classroom"] as? String == "R-7A")
            #expect(!(first["teacher_name"] as? String ?? "").isEmpty && !(first["subject_name"] as? String ?? "").isEmpty)

            #expect(self.ids(try await api.get("/api/mobile/timetable/\(student.userID)", as: student)) == week, "the account's id names the student too")
            #expect(self.ids(try await api.get("/api/mobile/timetable/\(me.grNumber)", as: student)) == week)
            let monday = try await api.get("/api/mobile/timetable/\(me.id)?day=1", as: student)
            #expect(monday.data.count == 8 && monday.data.allSatisfy { $0["day_of_week"] as? Int == 1 })
            #expect(try await api.get("/api/mobile/timetable/\(me.id)?day=5", as: student).data.isEmpty, "Friday is no working day")
            for bad in ["7", "-1", "sun", "1.5"] {
                let refused = try await api.get("/api/mobile/timetable/\(me.id)?day=\(bad)", as: student)
                #expect(refused.status == 400 && refused.code == "INVALID_FIELD" && refused.text.contains("day"), "day=\(bad)")
            }
            let arabic = try await api.get("/api/mobile/timetable/\(me.id)?day=0", as: student)
            #expect(arabic.data.first?["period_name"] as? String == "الحصة الأولى", "Arabic by default")
            #expect(try await api.get("/api/mobile/timetable/\(me.id)").status == 401)
        }
    }

    @Test("timetable/:userId refuses a foreign student, another family's child, a student reading a teacher, and another school")
    func refusals() async throws {
        let fixture = try TimetableAPIFixture()
        let student = try fixture.account("student@databayt.org")
        let parent = try fixture.account("parent@databayt.org")
        let teacher = try fixture.account("teacher@databayt.org")
        let children = try fixture.students(of: parent)
        let stranger = try fixture.student(in: "12C")
        let classmate = try fixture.student(in: "7A")
        let foreign = try fixture.foreignStudent()
        try await fixture.harness.api { api in
            for child in children {
                #expect(try await api.get("/api/mobile/timetable/\(child.id)", as: parent).status == 200, "a guardian reads her child's")
            }
            let notMine = try await api.get("/api/mobile/timetable/\(stranger.id)", as: parent, headers: ["Accept-Language": "en"])
            #expect(notMine.status == 404 && notMine.code == "TIMETABLE_UNKNOWN_PERSON", "another family's child is answered as nobody")
            let unknown = UUID().uuidString
            let nobody = try await api.get("/api/mobile/timetable/\(unknown)", as: parent, headers: ["Accept-Language": "en"])
            #expect(notMine.refusal(asked: stranger.id) == nobody.refusal(asked: unknown))
            #expect(try await api.get("/api/mobile/timetable/\(stranger.id)", as: student).status == 404, "another student")
            if classmate.userID != student.userID {
                #expect(try await api.get("/api/mobile/timetable/\(classmate.id)", as: student).status == 404, "even a classmate")
            }
            let teacherGrid = try await api.get("/api/mobile/timetable/\(teacher.userID)", as: student)
            #expect(teacherGrid.status == 404 && teacherGrid.code == "TIMETABLE_UNKNOWN_PERSON", "a teacher's grid is not a student's to read")
            let guardianAccount = try await api.get("/api/mobile/timetable/\(parent.userID)", as: student)
            #expect(guardianAccount.status == 404 && guardianAccount.code == "TIMETABLE_UNKNOWN_PERSON", "someone with no timetable is not there")
            #expect(try await api.get("/api/mobile/timetable/nobody", as: fixture.admin).status == 404)
            let otherSchool = try await api.get("/api/mobile/timetable/\(foreign.id)", as: fixture.admin)
            #expect(otherSchool.status == 404 && otherSchool.code == "TIMETABLE_UNKNOWN_PERSON", "another school's student does not exist here")
            #expect(try await api.get("/api/mobile/timetable/\(classmate.id)", as: fixture.harness.user(.admin, in: fixture.other)).status == 404)

            // Staff follow the roster: a teacher reaches her classes' students and every teacher's grid.
            #expect(try await api.get("/api/mobile/timetable/\(classmate.id)", as: teacher).status == 200, "her class")
            #expect(try await api.get("/api/mobile/timetable/\(stranger.id)", as: teacher).status == 404, "not her class: not there")
            let colleague = try fixture.account("teacher30@databayt.org")
            #expect(try await api.get("/api/mobile/timetable/\(colleague.userID)", as: teacher).status == 200)
            let accountant = fixture.harness.user(.accountant, in: fixture.base.school)
            #expect(try await api.get("/api/mobile/timetable/\(classmate.id)", as: accountant).status == 404, "no roster grant: a student id is no one here")
            #expect(try await api.get("/api/mobile/timetable/\(teacher.userID)", as: accountant).status == 200)
            #expect(try await api.get("/api/mobile/timetable/\(stranger.id)", as: fixture.admin).status == 200)
            let own = try await api.get("/api/mobile/timetable/\(fixture.admin.userID)", as: fixture.admin)
            #expect(own.status == 200 && own.data.isEmpty, "one's own id without lessons is an empty week")
        }
    }

    @Test("teacher/schedule is the caller's teaching without teacher_name; 404 for someone who teaches nothing")
    func teacherSchedule() async throws {
        let fixture = try TimetableAPIFixture()
        let teacher = try fixture.account("teacher@databayt.org")
        let week = try fixture.weekIDs(.teacher("teacher@databayt.org"))
        try await fixture.harness.api { api in
            let answer = try await api.get("/api/mobile/teacher/schedule", as: teacher)
            #expect(answer.status == 200 && !answer.data.isEmpty && self.ids(answer) == week)
            #expect(Set(try #require(answer.data.first).keys) == Self.itemKeys.subtracting(["teacher_name"]))
            let sunday = try await api.get("/api/mobile/teacher/schedule?day=0", as: teacher)
            #expect(self.ids(sunday) == (try fixture.weekIDs(.teacher("teacher@databayt.org"), day: 0)))
            #expect(self.ids(try await api.get("/api/mobile/timetable/\(teacher.userID)", as: teacher)) == week, "the same as by her id")
            let nothing = try await api.get("/api/mobile/teacher/schedule", as: fixture.admin)
            #expect(nothing.status == 404 && nothing.code == "TIMETABLE_NO_TEACHING")
            #expect(try await api.get("/api/mobile/teacher/schedule", as: try fixture.account("student@databayt.org")).status == 403)
            #expect(try await api.get("/api/mobile/teacher/schedule", as: try fixture.account("parent@databayt.org")).status == 403)
            #expect(try await api.get("/api/mobile/teacher/schedule?day=9", as: teacher).status == 400)
            #expect(try await api.get("/api/mobile/teacher/schedule").status == 401)
        }
    }

    @Test("guardian/children/:id/timetable: the caller's own children only")
    func childTimetable() async throws {
        let fixture = try TimetableAPIFixture()
        let parent = try fixture.account("parent@databayt.org")
        let children = try fixture.students(of: parent)
        let stranger = try fixture.student(in: "12C")
        let student = try fixture.account("student@databayt.org")
        try await fixture.harness.api { api in
            #expect(children.count == 2)
            for child in children {
                let answer = try await api.get("/api/mobile/guardian/children/\(child.id)/timetable?day=2", as: parent)
                #expect(answer.status == 200 && answer.data.count == 8)
                #expect(self.ids(answer) == (try fixture.weekIDs(.classCode(try #require(child.classCode)), day: 2)))
            }
            let notMine = try await api.get("/api/mobile/guardian/children/\(stranger.id)/timetable", as: parent)
            #expect(notMine.status == 404 && notMine.code == "STUDENTS_UNKNOWN_STUDENT", "another family's child is answered as nobody")
            let me = try #require(try fixture.students(of: student).first)
            #expect(try await api.get("/api/mobile/guardian/children/\(me.id)/timetable", as: student).status == 403, "not a guardian")
            #expect(try await api.get("/api/mobile/guardian/children/\(me.id)/timetable", as: fixture.admin).status == 403, "not a guardian")
            #expect(try await api.get("/api/mobile/guardian/children/\(try fixture.foreignStudent().id)/timetable", as: parent).status == 404)
            #expect(try await api.get("/api/mobile/guardian/children/\(children[0].id)/timetable?day=x", as: parent).status == 400)
            #expect(try await api.get("/api/mobile/guardian/children/\(children[0].id)/timetable").status == 401)
        }
    }

    @Test("on a day off the week shown is the coming one, and the dashboard's today_classes is 0")
    func weekendAndDashboard() async throws {
        let sunday = try TimetableAPIFixture()
        let friday = try TimetableAPIFixture(at: "2026-11-27T06:00:00Z")
        for (fixture, isSunday) in [(sunday, true), (friday, false)] {
            let student = try fixture.account("student@databayt.org")
            let teacher = try fixture.account("teacher@databayt.org")
            let me = try #require(try fixture.students(of: student).first)
            let teaching = try fixture.weekIDs(.teacher("teacher@databayt.org"), date: "2026-11-22", day: 0).count
            let comingWeek = try fixture.weekIDs(.classCode("7A"), date: "2026-11-29")
            try await fixture.harness.api { api in
                if !isSunday {
                    #expect(self.ids(try await api.get("/api/mobile/timetable/\(me.id)", as: student)) == comingWeek, "Friday shows next week's letter")
                }
                let dashboard = try await api.get("/api/mobile/dashboard", as: student)
                #expect(dashboard.status == 200 && dashboard.object["today_classes"] as? Int == (isSunday ? 8 : 0))
                #expect(try await api.get("/api/mobile/dashboard", as: teacher).object["today_classes"] as? Int == (isSunday ? teaching : 0))
                #expect(try await api.get("/api/mobile/dashboard", as: fixture.admin).object["today_classes"] == nil, "not an admin's field")
            }
        }
    }
}
