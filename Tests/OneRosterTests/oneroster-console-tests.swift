import Auth
import Core
import Foundation
import HogwartsTestSupport
@testable import OneRoster
import Students
import Testing

/// The roster import page as an administrator uses it: choose a OneRoster zip, check it (nothing
/// written), then import it through `oneroster.import`; a broken set lists every violation and can
/// never be imported; a hostile upload gets a page that says what is wrong and changes nothing.
@Suite("OneRoster console import")
struct OneRosterConsoleTests {
    static let password = "Corr3ct-Horse"

    /// A school with OneRoster on, an administrator and a teacher who sign in to the console.
    static func school() throws -> OneRosterSchool {
        let school = try OneRosterSchool()
        for (email, role) in [("head@school.org", Role.admin), ("teacher@school.org", .teacher)] {
            try school.run(CreateUser.self, .init(email: email, displayName: email, role: role, password: password))
        }
        return school
    }

    /// A set zipped as an information system exports it.
    static func zip(_ set: [String: String]) throws -> ConsoleTestClient.UploadFile {
        let path = FileManager.default.temporaryDirectory.appending(path: "oneroster-console-\(UUID().uuidString).zip").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try OneRosterPackage.write(Dictionary(uniqueKeysWithValues: set.map { ($0.key + ".csv", $0.value) }), to: path, zip: true)
        return ConsoleTestClient.UploadFile(name: "roster.zip", type: "application/zip", data: try Data(contentsOf: URL(filePath: path)))
    }

    static func hidden(_ name: String, in html: String) -> String? {
        guard let range = html.range(of: "name=\"\(name)\" value=\"") else { return nil }
        return String(html[range.upperBound...].prefix { $0 != "\"" }).replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
    }

    static func confirm(_ page: ConsoleTestPage, _ console: ConsoleTestClient) async throws -> ConsoleTestPage {
        let fields = try ["step", "name", "zip"].map { name in (name, try #require(hidden(name, in: page.html), "\(name) is on the page")) }
        return try await console.post("/m/oneroster/import", multipart: fields, files: [])
    }

    static func commandLineText(_ html: String) -> Bool {
        html.range(of: #"(?<![\w-])--[a-z][a-z-]+|\bhogwarts [a-z]"#, options: .regularExpression) != nil
    }

    static func students(_ school: OneRosterSchool) throws -> Int { try school.run(CountRoster.self, .init()).students }

    @Test("an admin checks a good zip (nothing written, its files shown), imports it once with each new account's code, and a second press adds nothing")
    func checkThenImport() async throws {
        let school = try Self.school()
        let zip = try Self.zip(OneRosterFixture.bulk().set)
        try await school.harness.console { console in
            let dashboard = try await console.signIn("head@school.org", Self.password)
            #expect(dashboard.html.contains("href=\"/m/oneroster/import\""), "the import is in an administrator's menu")
            let form = try await console.get("/m/oneroster/import")
            #expect(form.status == 200 && form.html.contains("<html lang=\"ar\" dir=\"rtl\">"))
            #expect(form.html.contains("enctype=\"multipart/form-data\"") && form.html.contains("type=\"file\"") && form.html.contains("data-submit-once"))
            #expect(!Self.commandLineText(form.html))

            let checked = try await console.post("/m/oneroster/import", multipart: [("step", "check")], files: [zip])
            #expect(checked.status == 200 && checked.html.contains("id=\"import-ready\"") && checked.html.contains("id=\"import-confirm\""))
            #expect(checked.html.contains("users.csv</code></td><td>8<"), "each file with its rows")
            #expect(!Self.commandLineText(checked.html))
            #expect(try Self.students(school) == 0, "a check writes nothing")

            let done = try await Self.confirm(checked, console)
            #expect(done.status == 200 && done.html.contains("id=\"import-done\""))
            #expect(done.html.contains("id=\"import-codes\"") && done.html.contains("sara@shorouq.edu"), "the new accounts' codes, shown once")
            #expect(!Self.commandLineText(done.html))
            #expect(try Self.students(school) == 3)

            let again = try await Self.confirm(checked, console)
            #expect(again.html.contains("id=\"import-done\"") && !again.html.contains("id=\"import-codes\""), "a second press creates no account")
            #expect(try Self.students(school) == 3)
        }
        #expect(try school.run(ListStudents.self, .init(search: "Mansour")).students.count == 1)
    }

    @Test("a broken set lists each violation by file, row and column in English, writes nothing, and can never be imported")
    func broken() async throws {
        let school = try Self.school()
        var fixture = OneRosterFixture.bulk()
        fixture.files["enrollments"]?.append(["e-x", "", "", "k-none", "org-1", "u-s1", "student", "false", "", ""])
        let set = fixture.set
        let badRow = fixture.files["enrollments"]?.count ?? 0
        try await school.harness.console { console in
            _ = try await console.signIn("head@school.org", Self.password)
            _ = try await console.post("/language", [("lang", "en"), ("back", "/m/oneroster/import")])
            let checked = try await console.post("/m/oneroster/import", multipart: [("step", "check")], files: [try Self.zip(set)])
            #expect(checked.status == 200 && checked.html.contains("<html lang=\"en\" dir=\"ltr\">"))
            #expect(checked.html.contains("id=\"import-problems\"") && checked.html.contains("nothing was written"))
            #expect(checked.html.contains("<code dir=\"ltr\">enrollments.csv</code></td><td>\(badRow)</td>"),
                    "the violation's file and row (the header is row 1)")
            #expect(!checked.html.contains("id=\"import-confirm\"") && checked.html.contains("type=\"file\""))
            #expect(!Self.commandLineText(checked.html))

            let forced = try await console.post("/m/oneroster/import", multipart: [
                ("step", "import"), ("name", "roster.zip"), ("zip", try Self.zip(set).data.base64EncodedString()),
            ], files: [])
            #expect(forced.html.contains("id=\"import-problems\"") && !forced.html.contains("id=\"import-done\""))
        }
        #expect(try Self.students(school) == 0)
    }

    @Test("a file that is not a zip, a zip with no OneRoster files and a malformed form each get a page that says so, and nothing is written")
    func hostileUploads() async throws {
        let school = try Self.school()
        try await school.harness.console { console in
            _ = try await console.signIn("head@school.org", Self.password)
            _ = try await console.get("/m/oneroster/import")
            let csv = ConsoleTestClient.UploadFile(name: "roster.zip", type: "application/zip", data: Data("sourcedId,name\n".utf8))
            let notZip = try await console.post("/m/oneroster/import", multipart: [("step", "check")], files: [csv])
            #expect(notZip.status == 200 && notZip.html.contains("هذا ليس ملفًا مضغوطًا") && !notZip.html.contains("id=\"import-confirm\""))
            _ = try await console.get("/m/oneroster/import")
            let renamed = ConsoleTestClient.UploadFile(name: "roster.txt", type: "text/plain", data: try Self.zip(OneRosterFixture.bulk().set).data)
            #expect(try await console.post("/m/oneroster/import", multipart: [("step", "check")], files: [renamed]).html.contains("هذا ليس ملفًا مضغوطًا"))
            _ = try await console.get("/m/oneroster/import")
            let empty = try await console.post("/m/oneroster/import", multipart: [("step", "check")], files: [try Self.zip([:])])
            #expect(empty.status == 200 && empty.html.contains("id=\"import-problem\"") && !empty.html.contains("id=\"import-confirm\""))
            _ = try await console.get("/m/oneroster/import")
            let cut = try await console.post("/m/oneroster/import", body: Array("--B\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\nPK".utf8),
                                             contentType: "multipart/form-data; boundary=B")
            #expect(cut.status == 400 && cut.html.contains("role=\"alert\""))
            for page in [notZip, empty, cut] { #expect(!Self.commandLineText(page.html)) }
        }
        #expect(try Self.students(school) == 0)
    }

    @Test("a district's set with two schools asks which one, lists both by name, and imports only the chosen school's classes")
    func chooseSchool() async throws {
        let school = try Self.school()
        var fixture = OneRosterFixture.bulk()
        fixture.files["orgs"]?.append(["org-2", "", "", "Other School", "school", "OTH", "org-d"])
        fixture.files["classes"]?.append(["k-9x", "", "", "9X", "09", "c-hr7", "9X", "homeroom", "", "org-2", "t1", "", "", ""])
        let zip = try Self.zip(fixture.set)
        try await school.harness.console { console in
            _ = try await console.signIn("head@school.org", Self.password)
            _ = try await console.post("/language", [("lang", "en"), ("back", "/m/oneroster/import")])
            let asked = try await console.post("/m/oneroster/import", multipart: [("step", "check")], files: [zip])
            #expect(asked.status == 200 && asked.html.contains("id=\"import-choose\"") && asked.html.contains("holds 2 schools"))
            #expect(asked.html.contains("value=\"org-1\" checked> مدرسة الشروق <bdi dir=\"ltr\">(SHR)</bdi>"))
            #expect(asked.html.contains("value=\"org-2\"> Other School <bdi dir=\"ltr\">(OTH)</bdi>"))
            #expect(!asked.html.contains("id=\"import-confirm\"") && !Self.commandLineText(asked.html))

            let zipField = try #require(Self.hidden("zip", in: asked.html))
            let checked = try await console.post("/m/oneroster/import", multipart: [("step", "school"), ("name", "roster.zip"), ("zip", zipField), ("org", "org-1")], files: [])
            #expect(checked.html.contains("id=\"import-confirm\"") && checked.html.contains("Imported this school only: org-1"))
            #expect(Self.hidden("org", in: checked.html) == "org-1", "the Import step carries the choice")
            #expect(try Self.students(school) == 0, "choosing checks again and writes nothing")

            let fields = try ["step", "name", "zip", "org"].map { name in (name, try #require(Self.hidden(name, in: checked.html))) }
            let done = try await console.post("/m/oneroster/import", multipart: fields, files: [])
            #expect(done.html.contains("id=\"import-done\""))
        }
        #expect(try Self.students(school) == 3)
        let classes = try school.run(ListClasses.self, .init()).map(\.code)
        #expect(!classes.isEmpty && !classes.contains("9X"), "the other school's class stayed out")
    }

    @Test("a set past the school's row limit is refused in the browser's words: where to raise the limit, never a setting's key")
    func limitInWords() async throws {
        let school = try Self.school()
        try school.harness.kernel.setSetting("oneroster.max-rows", to: "5", for: school.harness.school.id, by: school.harness.user(.admin))
        try await school.harness.console { console in
            _ = try await console.signIn("head@school.org", Self.password)
            _ = try await console.post("/language", [("lang", "en"), ("back", "/m/oneroster/import")])
            let refused = try await console.post("/m/oneroster/import", multipart: [("step", "check")], files: [try Self.zip(OneRosterFixture.bulk().set)])
            #expect(refused.html.contains("more than 5 data rows") && refused.html.contains("settings, under OneRoster"))
            #expect(!refused.html.contains("oneroster.max-rows") && !refused.html.contains("max-rows"))
        }
        #expect(try Self.students(school) == 0)
    }

    @Test("a teacher has no import in the menu and is refused the page and its upload")
    func teacherRefused() async throws {
        let school = try Self.school()
        try await school.harness.console { console in
            let dashboard = try await console.signIn("teacher@school.org", Self.password)
            #expect(!dashboard.html.contains("/m/oneroster/import"))
            let page = try await console.get("/m/oneroster/import")
            #expect(page.status == 403 && !page.html.contains("type=\"file\""))
            let posted = try await console.post("/m/oneroster/import", multipart: [("step", "check")], files: [try Self.zip(OneRosterFixture.bulk().set)])
            #expect(posted.status == 403 && !posted.html.contains("import-ready"))
        }
        #expect(try Self.students(school) == 0)
    }
}
