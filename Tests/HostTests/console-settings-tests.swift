import Core
import Foundation
import HogwartsTestSupport
import Testing

/// The settings page as an administrator reads it: controls and words, never the keys or the
/// patterns the command line shows; what is saved is read back through the kernel.
@Suite("Console settings in words", .waitsOnProcesses, .serialized)
struct ConsoleSettingsTests {
    let harness: TestHarness
    let demo: School

    init() throws {
        let (harness, schools) = try TestHarness.withDemo(modules: builtInModules)
        self.harness = harness
        demo = try #require(schools.first { $0.slug == "demo" })
    }

    static let arabicDays = ["الأحد", "الاثنين", "الثلاثاء", "الأربعاء", "الخميس", "الجمعة", "السبت"]
    static let englishDays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    @Test("no setting key, pattern or server file is visible, in Arabic or English; numbers say their range and unit in words")
    func inWords() async throws {
        let kernel = harness.kernel
        let demo = demo
        try await harness.console { console in
            _ = try await console.signIn("admin@databayt.org", "1234", school: demo.id)
            let keys = try kernel.settings(for: demo.id).map(\.key)
            #expect(keys.contains("timetable.working-days") && keys.contains("notifications.log-path"))
            let arabic = try await console.get("/admin/settings")
            _ = try await console.post("/language", [("lang", "en"), ("back", "/admin/settings")])
            let english = try await console.get("/admin/settings")
            for page in [arabic, english] {
                let text = Self.visibleText(page.html)
                for key in keys { #expect(!text.contains(key), "\(key) is shown") }
                for pattern in ["true|false", "Expected", "المتوقع", "n,n", "0-6", "YYYY", "calendar-weeks", "hogwarts-outbox.log"] {
                    #expect(!text.contains(pattern), "\(pattern) is shown")
                }
                // Operator-only files are not fields at all.
                #expect(!page.html.contains("name=\"setting.notifications.log-path\""))
                #expect(page.html.contains("type=\"checkbox\" value=\"true\""), "a flag is a checkbox")
            }
            #expect(Self.visibleText(arabic.html).contains("عدد صحيح من 1 إلى 60 (بالدقائق)."))
            #expect(Self.visibleText(english.html).contains("A whole number from 1 to 60 (minutes)."))
            #expect(Self.visibleText(english.html).contains("Only weeks with at least one school day"))
        }
    }

    @Test("school days are seven named checkboxes; a changed set is stored in the timetable's own format, an empty one refused")
    func schoolDays() async throws {
        let kernel = harness.kernel
        let demo = demo
        try await harness.console { console in
            _ = try await console.signIn("admin@databayt.org", "1234", school: demo.id)
            let arabic = try await console.get("/admin/settings")
            let boxes = arabic.html.components(separatedBy: "name=\"setting.timetable.working-days\" type=\"checkbox\"").count - 1
            #expect(boxes == 7)
            #expect(arabic.html.contains("<fieldset class=\"choices\" id=\"setting-timetable-working-days\""))
            let arabicText = Self.visibleText(arabic.html)
            for day in Self.arabicDays { #expect(arabicText.contains(day), "\(day)") }
            // The demo's default: Sunday to Thursday ticked.
            #expect(arabic.html.contains("value=\"4\" checked") && !arabic.html.contains("value=\"5\" checked"))

            _ = try await console.post("/language", [("lang", "en"), ("back", "/admin/settings")])
            let english = try await console.get("/admin/settings")
            let englishText = Self.visibleText(english.html)
            for day in Self.englishDays { #expect(englishText.contains(day), "\(day)") }

            // Saturday to Wednesday, ticked in the page's order, with the picker's hidden blank.
            let days = ["0", "1", "2", "3", "6"].map { ("setting.timetable.working-days", $0) }
            let saved = try await console.post("/admin/settings", [("module", "timetable"), ("setting.timetable.working-days", "")] + days)
            #expect(saved.html.contains("role=\"status\""))
            #expect(try Self.stored(kernel, demo, "timetable.working-days") == "0,1,2,3,6")

            let none = try await console.post("/admin/settings", [("module", "timetable"), ("setting.timetable.working-days", "")])
            #expect(none.html.contains("id=\"setting-timetable-working-days-error\""))
            #expect(Self.visibleText(none.html).contains("Tick at least one day."))
            #expect(try Self.stored(kernel, demo, "timetable.working-days") == "0,1,2,3,6")
        }
    }

    @Test("a bad number is refused beside its field in words and nothing of the form is stored; a flag's box saves yes and no")
    func refusedNumber() async throws {
        let kernel = harness.kernel
        let demo = demo
        try await harness.console { console in
            _ = try await console.signIn("admin@databayt.org", "1234", school: demo.id)
            let bad = try await console.post("/admin/settings", [("module", "attendance"), ("setting.attendance.late-threshold-minutes", "0"),
                                                                  ("setting.attendance.edit-window-days", "10")])
            let field = try #require(bad.html.range(of: "id=\"setting-attendance-late-threshold-minutes\"").map { String(bad.html[$0.lowerBound...]) })
            let problem = try #require(field.range(of: "id=\"setting-attendance-late-threshold-minutes-error\"").map { String(field[$0.upperBound...].prefix { $0 != "<" }) })
            #expect(problem.contains("عدد صحيح من 1 إلى 60 (بالدقائق)."))
            // The problem sits in the same field as its input, before the next field begins.
            let beforeProblem = String(field[..<(field.range(of: "-error\"")?.lowerBound ?? field.endIndex)])
            #expect(!beforeProblem.contains("class=\"field"))
            #expect(bad.html.contains("aria-invalid=\"true\""))
            #expect(!bad.html.contains("id=\"setting-attendance-edit-window-days-error\""))
            #expect(try Self.stored(kernel, demo, "attendance.late-threshold-minutes") == "15")
            #expect(try Self.stored(kernel, demo, "attendance.edit-window-days") == "7")

            _ = try await console.post("/admin/settings", [("module", "timetable"), ("setting.timetable.term-reset", "false"), ("setting.timetable.term-reset", "true")])
            #expect(try Self.stored(kernel, demo, "timetable.term-reset") == "true")
            _ = try await console.post("/admin/settings", [("module", "timetable"), ("setting.timetable.term-reset", "false")])
            #expect(try Self.stored(kernel, demo, "timetable.term-reset") == "false")
        }
    }

    static func stored(_ kernel: Kernel, _ school: School, _ key: String) throws -> String? {
        try kernel.settings(for: school.id).first { $0.key == key }?.value
    }

    /// What a reader sees: the page without its tags, scripts and styles, entities decoded.
    static func visibleText(_ html: String) -> String {
        var text = html
        for pattern in ["<script[\\s\\S]*?</script>", "<style[\\s\\S]*?</style>", "<[^>]*>"] {
            text = text.replacingOccurrences(of: pattern, with: " ", options: .regularExpression)
        }
        for (entity, character) in [("&quot;", "\""), ("&#39;", "'"), ("&lt;", "<"), ("&gt;", ">"), ("&amp;", "&")] {
            text = text.replacingOccurrences(of: entity, with: character)
        }
        return text
    }
}
