import Attendance
import Auth
import Core
import Foundation
import HogwartsTestSupport
import Testing
import Timetable

/// The register on the web console, in-process on the demo school with the clock held at
/// 08:12 in Khartoum on a Tuesday of term (or a Friday): the radio groups, "already taken at
/// 08:12 by ...", the warning and confirmation on a day off, a form kept across an ended
/// session, and dates isolated from the Arabic around them.
@Suite("Web console: the register", .waitsOnProcesses, .serialized)
struct ConsoleRegisterTests {
    /// 2026-11-24, a Tuesday of term 1, 08:12 in Khartoum (UTC+2); after the demo's own records.
    static let tuesday = Date(timeIntervalSince1970: 1_795_500_720)
    /// 2026-11-27, a Friday (the demo school works Sunday to Thursday), 08:12 in Khartoum.
    static let friday = tuesday.addingTimeInterval(3 * 86_400)
    static let isolate = (start: "\u{2066}", end: "\u{2069}")

    let harness: TestHarness
    let demo: School

    init() throws {
        let (harness, schools) = try TestHarness.withDemo(modules: builtInModules, clock: { Self.tuesday })
        self.harness = harness
        demo = try #require(schools.first { $0.slug == "demo" })
    }

    /// The teacher's first class and its students' GR numbers, from the pages themselves.
    static func firstClass(_ console: ConsoleTestClient) async throws -> (code: String, students: [String], sheet: ConsoleTestPage) {
        let classes = try await console.get("/m/attendance/register")
        let link = try #require(classes.html.range(of: "href=\"/m/attendance/register?class=").map { classes.html[$0.upperBound...].prefix { $0 != "\"" } })
        let sheet = try await console.get("/m/attendance/register?class=\(link)")
        var seen: Set<String> = []
        let students = sheet.html.components(separatedBy: "name=\"status.").dropFirst().map { String($0.prefix { $0 != "\"" }) }
            .filter { seen.insert($0).inserted }
        return (String(link), students, sheet)
    }

    /// A page's hidden fields, as a browser would send them back.
    static func hiddenFields(_ html: String) -> [(String, String)] {
        html.components(separatedBy: "<input type=\"hidden\" name=\"").dropFirst().compactMap { part in
            let name = String(part.prefix { $0 != "\"" })
            guard let value = part.range(of: "value=\"").map({ part[$0.upperBound...].prefix { $0 != "\"" } }) else { return nil }
            let text = String(value).replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
                .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
            return (name, text)
        }
    }

    @Test("each student's statuses are a radio group named by the student; a fresh register starts present, one taken before says at 08:12 by whom (to the admin too); the saved result takes the focus")
    func takenBefore() async throws {
        let harness = harness
        let demo = demo
        let taken = try await harness.console { console in
            let home = try await console.signIn("teacher@databayt.org", "1234", school: demo.id)
            let teacher = try #require(home.html.range(of: "<bdi class=\"name\">").map { String(home.html[$0.upperBound...].prefix { $0 != "<" }) })
            let (code, students, sheet) = try await Self.firstClass(console)
            #expect(students.count >= 3)
            #expect(sheet.html.components(separatedBy: "<fieldset role=\"radiogroup\"><legend>").count - 1 == students.count)
            #expect(sheet.html.contains("الجميع حاضرون"))
            #expect(!sheet.html.contains("أُخذ هذا التحضير"))
            #expect(!sheet.html.contains("day-off-confirm"), "a Tuesday of term is a school day")
            #expect(sheet.html.contains("\(Self.isolate.start)2026-11-24\(Self.isolate.end)"), "the date is isolated from the Arabic around it")

            let saved = try await console.post("/m/attendance/register", [("class", code), ("period", ""), ("status.\(students[0])", "ABSENT")])
            #expect(saved.html.contains("<p class=\"notice\" role=\"status\" id=\"saved\" tabindex=\"-1\" data-focus-on-load>"))
            #expect(saved.html.contains("أُخذ هذا التحضير في \(Self.isolate.start)08:12\(Self.isolate.end) بواسطة \(teacher)."))
            #expect(!saved.html.contains("الجميع حاضرون"))
            #expect(saved.html.contains("id=\"s-1-ABSENT\" name=\"status.\(students[0])\" value=\"ABSENT\" checked"))
            return (code, teacher)
        }
        try await harness.console { admin in
            _ = try await admin.signIn("admin@databayt.org", "1234", school: demo.id)
            // The office chooses any class from the school's list, never types a code.
            let pick = try await admin.get("/m/attendance/register")
            #expect(pick.html.contains("<select id=\"class\" name=\"class\" required>") && pick.html.contains("<option value=\"\(taken.0)\">\(taken.0) · "))
            #expect(!pick.html.contains("<input id=\"class\""))
            let sheet = try await admin.get("/m/attendance/register?class=\(taken.0)")
            #expect(sheet.html.contains("أُخذ هذا التحضير في \(Self.isolate.start)08:12\(Self.isolate.end) بواسطة \(taken.1)."))
        }
    }

    @Test("on a holiday the register warns in words and saves nothing until the teacher confirms; the tapped marks stay on screen")
    func holiday() async throws {
        let kernel = harness.kernel
        let demo = demo
        _ = try kernel.run(AddClosure.self, .init(from: "2026-11-24", to: "2026-11-24", name: "Sports day"), as: .localOperator, in: demo.id)
        try await harness.console { console in
            _ = try await console.signIn("teacher@databayt.org", "1234", school: demo.id)
            _ = try await console.post("/language", [("lang", "en"), ("back", "/")])
            let (code, students, sheet) = try await Self.firstClass(console)
            #expect(sheet.html.contains("Careful: \(Self.isolate.start)2026-11-24\(Self.isolate.end) is a day off in the school calendar: Sports day."))
            #expect(sheet.html.contains("name=\"day-off\" value=\"confirmed\" required"))

            let refused = try await console.post("/m/attendance/register", [("class", code), ("period", ""), ("status.\(students[1])", "LATE")])
            #expect(refused.html.contains("role=\"alert\""))
            #expect(refused.html.contains("Nothing was saved: this is not a school day."))
            #expect(refused.html.contains("name=\"status.\(students[1])\" value=\"LATE\" checked"), "the tapped mark is still on screen")
            #expect(try kernel.run(ClassRegister.self, .init(classCode: code), as: .localOperator, in: demo.id).taken == nil)

            let saved = try await console.post("/m/attendance/register", [("class", code), ("period", ""), ("status.\(students[1])", "LATE"), ("day-off", "confirmed")])
            #expect(saved.html.contains("id=\"saved\""))
            let register = try kernel.run(ClassRegister.self, .init(classCode: code), as: .localOperator, in: demo.id)
            #expect(register.lines.filter { $0.status == .late }.map(\.grNumber) == [students[1]])
        }
    }

    @Test("on a Friday (a weekend day for the school) the register says so in Arabic and asks for the confirmation")
    func weekend() async throws {
        let (harness, schools) = try TestHarness.withDemo(modules: builtInModules, clock: { Self.friday })
        let demo = try #require(schools.first { $0.slug == "demo" })
        try await harness.console { console in
            _ = try await console.signIn("teacher@databayt.org", "1234", school: demo.id)
            let (code, students, sheet) = try await Self.firstClass(console)
            #expect(sheet.html.contains("انتبه: يوم \(Self.isolate.start)2026-11-27\(Self.isolate.end) ليس يوم دراسة (عطلة نهاية الأسبوع)."))
            #expect(sheet.html.contains("id=\"day-off-confirm\""))
            let refused = try await console.post("/m/attendance/register", [("class", code), ("period", ""), ("status.\(students[0])", "ABSENT")])
            #expect(refused.html.contains("لم يُحفظ شيء"))
            #expect(try harness.kernel.run(ClassRegister.self, .init(classCode: code), as: .localOperator, in: demo.id).taken == nil)
        }
    }

    @Test("a register saved after the session ended: the sign-in page says why in the teacher's English, and signing in again saves the marks")
    func endedSession() async throws {
        let kernel = harness.kernel
        let demo = demo
        try await harness.console { console in
            _ = try await console.signIn("teacher@databayt.org", "1234", school: demo.id)
            _ = try await console.post("/language", [("lang", "en"), ("back", "/")])
            let (code, students, _) = try await Self.firstClass(console)
            console.setCookie("hogwarts_session", "\(demo.id).ended-session-token")
            let marks = [("class", code), ("period", ""), ("status.\(students[0])", "ABSENT"), ("status.\(students[2])", "LATE")]
            let ended = try await console.post("/m/attendance/register", marks, headers: ["Sec-Fetch-Site": "same-origin"])
            #expect(ended.status == 401)
            #expect(ended.html.contains("<html lang=\"en\" dir=\"ltr\">"))
            #expect(ended.html.contains("Your session ended. Sign in again and what you were saving will be saved."))
            #expect(ended.html.contains("name=\"resume-to\" value=\"/m/attendance/register\""))
            #expect(try kernel.run(ClassRegister.self, .init(classCode: code), as: .localOperator, in: demo.id).taken == nil)

            let fields = Self.hiddenFields(ended.html).filter { $0.0 != "_csrf" && $0.0 != "back" && $0.0 != "lang" }
            let resend = try await console.post("/sign-in", fields + [("email", "teacher@databayt.org"), ("password", "1234"), ("school", demo.id)])
            #expect(resend.html.contains("data-auto-submit"))
            #expect(resend.html.contains("action=\"/m/attendance/register\""))
            let saved = try await console.post("/m/attendance/register", Self.hiddenFields(resend.html))
            #expect(saved.html.contains("id=\"saved\""))
            #expect(saved.html.contains("<html lang=\"en\" dir=\"ltr\">"))
            let register = try kernel.run(ClassRegister.self, .init(classCode: code), as: .localOperator, in: demo.id)
            #expect(register.lines.filter { $0.status == .absent }.map(\.grNumber) == [students[0]])
            #expect(register.lines.filter { $0.status == .late }.map(\.grNumber) == [students[2]])
        }
    }

    @Test("another site's form is never carried over a sign-in: the page only asks to sign in again, and nothing is saved")
    func crossSiteNotCarried() async throws {
        let kernel = harness.kernel
        let demo = demo
        try await harness.console { console in
            _ = try await console.signIn("teacher@databayt.org", "1234", school: demo.id)
            let (code, students, _) = try await Self.firstClass(console)
            console.setCookie("hogwarts_session", "\(demo.id).ended-session-token")
            for headers in [["Sec-Fetch-Site": "cross-site"], ["Origin": "https://evil.example"], [:]] {
                let ended = try await console.post("/m/attendance/register", [("class", code), ("status.\(students[0])", "ABSENT")], headers: headers)
                #expect(ended.html.contains("انتهت جلستك. سجّل الدخول مرة أخرى."))
                #expect(!ended.html.contains("resume-to"))
            }
            let home = try await console.post("/sign-in", [("email", "teacher@databayt.org"), ("password", "1234"), ("school", demo.id)])
            #expect(!home.html.contains("data-auto-submit"))
            #expect(try kernel.run(ClassRegister.self, .init(classCode: code), as: .localOperator, in: demo.id).taken == nil)
        }
    }

    @Test("the term chart's week labels are short enough to fit (15 نوفمبر) and the term's range stays one isolated line")
    func chartLabels() async throws {
        let demo = demo
        try await harness.console { console in
            let dashboard = try await console.signIn("admin@databayt.org", "1234", school: demo.id)
            #expect(dashboard.html.contains("أسبوع \(Self.isolate.start)15\(Self.isolate.end)\u{00A0}نوفمبر"))
            #expect(!dashboard.html.contains("أسبوع 2026-"))
            // Word joiners after the hyphens and the dash: chromium would otherwise break the line there.
            #expect(dashboard.html.contains("\(Self.isolate.start)2026-\u{2060}08-\u{2060}23\u{00A0}–\u{2060}\u{00A0}2026-\u{2060}11-\u{2060}24\(Self.isolate.end)"))
        }
    }
}
