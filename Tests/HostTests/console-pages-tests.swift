import Attendance
import Core
import Foundation
import HogwartsTestSupport
import Testing

/// The web console on the demo school, in-process: the admin's switches and settings, the
/// teacher's register, the guardian's report cards. Every page is Arabic and right to left
/// unless the person chose English, and has a title.
@Suite("Web console pages", .waitsOnProcesses, .serialized)
struct ConsolePagesTests {
    let harness: TestHarness
    let demo: School

    init() throws {
        let (harness, schools) = try TestHarness.withDemo(modules: builtInModules)
        self.harness = harness
        demo = try #require(schools.first { $0.slug == "demo" })
    }

    @Test("the admin switches a module off (it leaves the menu and its page is gone) and on again; Students asks before cascading")
    func switches() async throws {
        let kernel = harness.kernel
        let demo = demo
        try await harness.console { console in
            let dashboard = try await console.signIn("admin@databayt.org", "1234", school: demo.id)
            #expect(dashboard.html.contains("<html lang=\"ar\" dir=\"rtl\">"))
            #expect(dashboard.html.contains("href=\"/m/timetable/today\""))
            let modules = try await console.get("/admin/modules")
            #expect(modules.html.contains("data-module=\"timetable\""))
            let off = try await console.post("/admin/modules", [("module", "timetable"), ("turn", "off")])
            #expect(!off.html.contains("href=\"/m/timetable/today\""))
            #expect(try await console.get("/m/timetable/today").status == 404)
            #expect(!(try kernel.enabledModules(for: demo.id)).contains("timetable"))
            let on = try await console.post("/admin/modules", [("module", "timetable"), ("turn", "on")])
            #expect(on.html.contains("href=\"/m/timetable/today\""))

            let asked = try await console.post("/admin/modules", [("module", "students"), ("turn", "off")])
            #expect(asked.html.contains("name=\"confirm\" value=\"yes\""))
            #expect(try kernel.enabledModules(for: demo.id).contains("students"))
            _ = try await console.post("/admin/modules", [("module", "students"), ("turn", "off"), ("confirm", "yes")])
            #expect(try kernel.enabledModules(for: demo.id) == ["auth"])
            let refused = try await console.post("/admin/modules", [("module", "grades"), ("turn", "on")])
            #expect(refused.html.contains("role=\"alert\""))
            #expect(!(try kernel.enabledModules(for: demo.id)).contains("grades"))
        }
    }

    @Test("settings come from the modules' definitions; a bad value is marked and nothing is written, a good one is saved")
    func settings() async throws {
        let kernel = harness.kernel
        let demo = demo
        try await harness.console { console in
            _ = try await console.signIn("admin@databayt.org", "1234", school: demo.id)
            let page = try await console.get("/admin/settings")
            #expect(page.html.contains("id=\"setting-attendance-late-threshold-minutes\""))
            #expect(page.html.contains("<select id=\"setting-timetable-advance-mode\""))
            let bad = try await console.post("/admin/settings", [("module", "attendance"), ("setting.attendance.late-threshold-minutes", "0"),
                                                                  ("setting.attendance.check-in-minutes", "9")])
            #expect(bad.html.contains("aria-invalid=\"true\""))
            #expect(try kernel.settings(for: demo.id).first { $0.key == "attendance.check-in-minutes" }?.value == "5")
            let good = try await console.post("/admin/settings", [("module", "attendance"), ("setting.attendance.late-threshold-minutes", "20")])
            #expect(good.html.contains("role=\"status\""))
            #expect(try kernel.settings(for: demo.id).first { $0.key == "attendance.late-threshold-minutes" }?.value == "20")
        }
    }

    @Test("the teacher's register starts all present; two taps and one save record exactly two exceptions")
    func register() async throws {
        let kernel = harness.kernel
        let demo = demo
        try await harness.console { console in
            _ = try await console.signIn("teacher@databayt.org", "1234", school: demo.id)
            let classes = try await console.get("/m/attendance/register")
            let link = try #require(classes.html.range(of: "href=\"/m/attendance/register?class=").map { classes.html[$0.upperBound...].prefix { $0 != "\"" } })
            let classCode = String(link)
            let sheet = try await console.get("/m/attendance/register?class=\(classCode)")
            let grs = sheet.html.components(separatedBy: "name=\"status.").dropFirst().map { String($0.prefix { $0 != "\"" }) }
            var seen: Set<String> = []
            let students = grs.filter { seen.insert($0).inserted }
            #expect(students.count >= 3)
            #expect(sheet.html.components(separatedBy: "value=\"PRESENT\" checked").count - 1 == students.count)
            let fields = students.enumerated().map { index, gr in ("status.\(gr)", index == 0 ? "ABSENT" : index == 1 ? "LATE" : "PRESENT") }
            // On a day the calendar calls a day off (a Friday run) the page asks for this confirmation.
            let saved = try await console.post("/m/attendance/register", [("class", classCode), ("period", ""), ("day-off", "confirmed")] + fields)
            #expect(saved.html.contains("id=\"saved\""))
            let register = try kernel.run(ClassRegister.self, .init(classCode: classCode), as: .localOperator, in: demo.id)
            #expect(register.lines.filter { $0.status == .absent }.map(\.grNumber) == [students[0]])
            #expect(register.lines.filter { $0.status == .late }.map(\.grNumber) == [students[1]])
            #expect(register.lines.filter { $0.status == .present }.count == students.count - 2)
        }
    }

    @Test("the guardian chooses a school, sees each child's attendance rate and band, and their published report cards")
    func guardian() async throws {
        let demo = demo
        try await harness.console { console in
            let choose = try await console.signIn("parent@databayt.org", "1234")
            #expect(choose.html.contains("<select id=\"school\""))
            let dashboard = try await console.signIn("parent@databayt.org", "1234", school: demo.id)
            #expect(dashboard.html.contains("card-attendance-rate"))
            #expect(dashboard.html.contains("band-"))
            let cards = try await console.get("/m/grades/report-card")
            #expect(cards.status == 200)
            #expect(cards.html.components(separatedBy: "<table>").count - 1 == 2)
            #expect(try await console.get("/admin/modules").status == 403)
        }
    }
}
