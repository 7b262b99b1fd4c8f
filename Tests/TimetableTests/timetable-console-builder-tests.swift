import Auth
import Core
import Foundation
import HogwartsTestSupport
import Testing
import Timetable

/// The timetable builder in the browser: an administrator opens a class's two-week grid, takes a
/// Week B lesson out, is told which rooms are in use when she places another, is refused a busy
/// room beside the room field with nothing saved, and places the lesson; a teacher has no builder.
@Suite("Timetable console: the builder")
struct TimetableBuilderConsoleTests {
    static let path = "/m/timetable/builder"

    @Test("an administrator sees Week A and Week B side by side, removes a lesson, is refused a busy room beside its field, and places a lesson in the freed cell")
    func buildWeekB() async throws {
        let fixture = try TimetableFixture()
        let plan = try fixture.run(ShowTimetableBuilder.self, .init(classCode: "7A"))
        let lesson = try #require(plan.lessons.first { $0.week == 1 })
        let busyRoom = try #require(try fixture.run(ShowTimetableBuilder.self, .init(classCode: "7A", day: lesson.day, periodCode: lesson.periodCode))
            .busy.first { $0.classCode != "7A" && $0.week != 0 }).room
        let cell = "\(Self.path)?class=7A&day=\(lesson.day)&period=\(lesson.periodCode)&week=1"
        let place = [("class", "7A"), ("day", String(lesson.day)), ("period", lesson.periodCode), ("week", "1"),
                     ("teaching", "\(lesson.subjectCode)|\(lesson.teacherEmail)")]
        try await fixture.harness.console { console in
            let dashboard = try await console.signIn("admin@databayt.org", AuthDemo.password, school: fixture.school.id)
            #expect(dashboard.html.contains("href=\"\(Self.path)\""))
            _ = try await console.post("/language", [("lang", "en"), ("back", Self.path)])
            let picker = try await console.get(Self.path)
            #expect(picker.html.contains("<option value=\"7A\">7A · "))
            let grid = try await console.get("\(Self.path)?class=7A")
            #expect(grid.status == 200 && grid.html.contains("id=\"builder-grid\""))
            #expect(grid.html.contains("Week A:</span>") && grid.html.contains("Week B:</span>") && grid.html.contains("Every week:</span>"))
            #expect(grid.html.contains("<bdi dir=\"ltr\">\(lesson.room)</bdi>"))

            let removed = try await console.post(Self.path, [("do", "remove"), ("class", "7A"), ("slot", lesson.id)])
            #expect(removed.html.contains("The lesson was removed."))
            #expect(removed.html.contains("href=\"\(cell.replacingOccurrences(of: "&", with: "&amp;"))#place\""), "the freed cell offers a placement")

            let form = try await console.get(cell)
            #expect(form.html.contains("id=\"place\"") && form.html.contains("Rooms in use then:") && form.html.contains(busyRoom))
            let clash = try await console.post(Self.path, place + [("room", busyRoom)])
            #expect(clash.html.contains("id=\"place-room-problem\">Clash: the room is already booked then"))
            #expect(clash.html.contains("value=\"\(busyRoom)\""), "what was typed stays")
            #expect(!clash.html.contains("--") && !clash.html.contains("hogwarts "))

            let placed = try await console.post(Self.path, place + [("room", lesson.room)])
            #expect(placed.html.contains("The lesson was placed."))
        }
        let after = try fixture.run(ShowTimetableBuilder.self, .init(classCode: "7A")).lessons
        let here = after.filter { $0.day == lesson.day && $0.periodCode == lesson.periodCode && $0.week == 1 }
        #expect(here.count == 1 && here.first?.subjectCode == lesson.subjectCode && here.first?.room == lesson.room && here.first?.id != lesson.id)
        #expect(after.count == plan.lessons.count)
    }

    @Test("a teacher has no builder in her menu and is refused it and its actions")
    func teacherRefused() async throws {
        let fixture = try TimetableFixture()
        let before = try fixture.run(ShowTimetableBuilder.self, .init(classCode: "7A")).lessons
        let lesson = try #require(before.first)
        try await fixture.harness.console { console in
            let dashboard = try await console.signIn("teacher@databayt.org", AuthDemo.password, school: fixture.school.id)
            #expect(!dashboard.html.contains("href=\"\(Self.path)\""))
            #expect(try await console.get("\(Self.path)?class=7A").status == 403)
            #expect(try await console.post(Self.path, [("do", "remove"), ("class", "7A"), ("slot", lesson.id)]).status == 403)
        }
        #expect(try fixture.run(ShowTimetableBuilder.self, .init(classCode: "7A")).lessons == before)
    }
}
