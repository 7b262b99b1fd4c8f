import Auth
import Core
import Foundation
import HogwartsTestSupport
import Testing
import Timetable

/// The school day's periods in the browser, laid out by the console's records pages from
/// `timetable.list-periods` and `timetable.create-period`: an administrator lists them and adds
/// one; a clash or a time that is not one is refused beside its field; a teacher has no page.
@Suite("Timetable console: the periods of the school day")
struct TimetableConsolePeriodsTests {
    static let path = "/m/timetable/periods"

    static func fields(code: String, starts: String, ends: String, isBreak: Bool = false) -> [(String, String)] {
        [("code", code), ("name.ar", "حصة المساء"), ("name.en", "Evening period"), ("starts_at", starts), ("ends_at", ends)]
            + (isBreak ? [("is_break", "on")] : [])
    }

    @Test("an administrator sees every period with its times, adds an evening break, and it is the module's own period afterwards")
    func adminAdds() async throws {
        let fixture = try TimetableFixture()
        let periods = try fixture.run(ListPeriods.self, .init())
        let first = try #require(periods.first)
        try await fixture.harness.console { console in
            let dashboard = try await console.signIn("admin@databayt.org", AuthDemo.password, school: fixture.school.id)
            #expect(dashboard.html.contains("href=\"\(Self.path)\""))
            let arabic = try await console.get(Self.path)
            #expect(arabic.status == 200 && arabic.html.contains("<bdi>\(first.name.ar)</bdi>") && arabic.html.contains("<bdi dir=\"ltr\">\(first.startsAt)</bdi>"))
            _ = try await console.post("/language", [("lang", "en"), ("back", Self.path)])
            let page = try await console.get(Self.path)
            #expect(page.html.contains("<bdi>\(first.name.en)</bdi>"))
            #expect(page.html.contains("id=\"records-count\">1–\(min(periods.count, 25)) of \(periods.count)<"))
            let form = Self.fields(code: "EV", starts: "19:00", ends: "19:30", isBreak: true) + [("request", UUID().uuidString.lowercased())]
            let added = try await console.post(Self.path, form)
            #expect(added.html.contains("The period was added.") && added.html.contains("<bdi>Evening period</bdi>"))
            // The same form sent again (a double tap, a reload): the first answer, no second period and no clash.
            let again = try await console.post(Self.path, form)
            #expect(again.html.contains("The period was added.") && !again.html.contains("id=\"record-problems\""))
        }
        let evening = try fixture.run(ListPeriods.self, .init()).filter { $0.code == "EV" }
        #expect(evening.count == 1)
        let made = try #require(evening.first)
        #expect(made.name == LocalizedText(ar: "حصة المساء", en: "Evening period") && made.startsAt == "19:00" && made.endsAt == "19:30" && made.isBreak)
    }

    @Test("a period over another's time, or a time that is not one, is refused beside the field with the typed values kept; nothing is saved; a teacher has no page")
    func refusals() async throws {
        let fixture = try TimetableFixture()
        let before = try fixture.run(ListPeriods.self, .init())
        let first = try #require(before.first)
        try await fixture.harness.console { console in
            _ = try await console.signIn("admin@databayt.org", AuthDemo.password, school: fixture.school.id)
            _ = try await console.post("/language", [("lang", "en"), ("back", Self.path)])
            let clash = try await console.post(Self.path, Self.fields(code: "XX", starts: first.startsAt, ends: first.endsAt))
            #expect(clash.html.contains("id=\"record-problems\"") && clash.html.contains(first.code))
            #expect(clash.html.contains("value=\"Evening period\""), "what was typed stays")
            let notTime = try await console.post(Self.path, Self.fields(code: "XX", starts: "25:00", ends: "26:00"))
            #expect(notTime.html.contains("id=\"record-starts-at-problem\">"))
            let noName = try await console.post(Self.path, [("code", "XX"), ("name.ar", "س"), ("name.en", ""), ("starts_at", "20:00"), ("ends_at", "20:30")])
            #expect(noName.html.contains("id=\"record-name-en-problem\">Fill this in."))
            for page in [clash, notTime, noName] { #expect(page.status == 200 && !page.html.contains("--") && !page.html.contains("hogwarts ")) }
        }
        #expect(try fixture.run(ListPeriods.self, .init()) == before, "nothing was saved")
        try await fixture.harness.console { console in
            let dashboard = try await console.signIn("teacher@databayt.org", AuthDemo.password, school: fixture.school.id)
            #expect(!dashboard.html.contains("href=\"\(Self.path)\""))
            #expect(try await console.get(Self.path).status == 403)
            #expect(try await console.post(Self.path, Self.fields(code: "T1", starts: "20:00", ends: "20:30")).status == 403)
        }
        #expect(try fixture.run(ListPeriods.self, .init()).count == before.count)
    }

    @Test("a period's page corrects its times (an overlap refused beside the field, nothing saved), and removing asks first; one with lessons is not removed")
    func correctAndRemove() async throws {
        let fixture = try TimetableFixture()
        try fixture.run(CreatePeriod.self, .init(code: "EV", name: LocalizedText(ar: "المساء", en: "Evening"), startsAt: "19:00", endsAt: "19:30"))
        let before = try fixture.run(ListPeriods.self, .init())
        let evening = try #require(before.first { $0.code == "EV" })
        let used = try #require(before.first { !$0.isBreak })
        let page = "\(Self.path)?id=\(evening.id)"
        try await fixture.harness.console { console in
            _ = try await console.signIn("admin@databayt.org", AuthDemo.password, school: fixture.school.id)
            _ = try await console.post("/language", [("lang", "en"), ("back", page)])
            let record = try await console.get(page)
            #expect(record.html.contains("id=\"record-edit-form\"") && record.html.contains("id=\"record-starts-at\" name=\"starts_at\" type=\"time\" value=\"19:00\""))
            let edit = [("do", "edit"), ("id", evening.id), ("name.ar", "المساء"), ("name.en", "Late evening"), ("ends_at", "20:00")]
            let clash = try await console.post(Self.path, edit + [("starts_at", used.startsAt)])
            #expect(clash.html.contains("id=\"record-problems\"") && clash.html.contains("It overlaps the period") && clash.html.contains("value=\"Late evening\""))
            let saved = try await console.post(Self.path, edit + [("starts_at", "19:15")])
            #expect(saved.html.contains("The period was saved.") && saved.html.contains("<bdi>Late evening</bdi>"))

            let ask = try await console.post(Self.path, [("do", "remove"), ("id", evening.id)])
            #expect(ask.html.contains("role=\"alertdialog\"") && ask.html.contains("Yes, remove Late evening"))
            #expect(try fixture.run(ListPeriods.self, .init()).contains { $0.id == evening.id }, "the first press only asks")
            let refused = try await console.post(Self.path, [("do", "remove"), ("id", used.id), ("confirm", "yes")])
            #expect(refused.html.contains("id=\"record-remove-problem\"") && refused.html.contains("Move or remove them in the timetable builder first"))
            let removed = try await console.post(Self.path, [("do", "remove"), ("id", evening.id), ("confirm", "yes")])
            #expect(removed.html.contains("The period was removed."))
            #expect(try await console.get("\(Self.path)?id=\(evening.id)").status == 404)
        }
        let after = try fixture.run(ListPeriods.self, .init())
        #expect(!after.contains { $0.id == evening.id } && after.contains { $0.id == used.id })
        #expect(after.filter { $0.id != evening.id } == before.filter { $0.id != evening.id }, "nothing else changed")
    }
}
