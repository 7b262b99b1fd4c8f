import Auth
import Core
import Foundation
import HogwartsTestSupport
import Students
import Testing

/// The students import page as an administrator uses it: choose a CSV file, check it (nothing
/// written), then import it through `students.import`; a file with problems lists each one and can
/// never be imported; a hostile upload gets a page that says what is wrong and changes nothing.
@Suite("Students console import")
struct StudentsConsoleImportTests {
    static let password = StudentsConsoleAdminTests.password
    static let header = "gr_number,given_name,surname,name_language,date_of_birth,gender,status,enrolled_on,class\n"
    static let good = header + "GR-0901,Layla,Hassan,en,2013-04-02,FEMALE,ACTIVE,2026-11-01,8A\nGR-0902,عمر,الأمين,ar,2013-09-15,MALE,ACTIVE,2026-11-01,8A\n"

    static func csv(_ text: String, name: String = "new-students.csv") -> ConsoleTestClient.UploadFile {
        ConsoleTestClient.UploadFile(name: name, type: "text/csv", data: Data(text.utf8))
    }

    /// A hidden field's value on a page, as the browser would send it back.
    static func hidden(_ name: String, in html: String) -> String? {
        guard let range = html.range(of: "name=\"\(name)\" value=\"") else { return nil }
        return String(html[range.upperBound...].prefix { $0 != "\"" }).replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    }

    /// The Import button's form sent back as the page holds it.
    static func confirm(_ page: ConsoleTestPage, _ console: ConsoleTestClient) async throws -> ConsoleTestPage {
        let fields = try ["step", "request", "name", "csv"].map { name in (name, try #require(hidden(name, in: page.html), "\(name) is on the page")) }
        return try await console.post("/m/students/import", multipart: fields, files: [])
    }

    static func students(_ fixture: RosterFixture) throws -> Int { try fixture.run(CountRoster.self, .init()).students }

    @Test("an admin checks a good file (nothing written, who will be added is shown), imports it once, and a second press adds nobody again")
    func checkThenImport() async throws {
        let fixture = try StudentsConsoleAdminTests.fixture()
        let before = try Self.students(fixture)
        try await fixture.harness.console { console in
            _ = try await console.signIn("head@school.org", Self.password)
            let list = try await console.get("/m/students/students")
            #expect(list.html.contains("href=\"/m/students/import\""), "the students list leads to the import")
            let form = try await console.get("/m/students/import")
            #expect(form.status == 200 && form.html.contains("<html lang=\"ar\" dir=\"rtl\">"))
            #expect(form.html.contains("enctype=\"multipart/form-data\"") && form.html.contains("type=\"file\"") && form.html.contains("data-submit-once"))
            #expect(!StudentsConsoleAdminTests.commandLineText(form.html))

            let checked = try await console.post("/m/students/import", multipart: [("step", "check")], files: [Self.csv(Self.good)])
            #expect(checked.status == 200)
            #expect(checked.html.contains("id=\"import-ready\"") && checked.html.contains("سيُضاف 2 من الطلاب"))
            #expect(checked.html.contains("GR-0901") && checked.html.contains("Layla Hassan") && checked.html.contains("عمر الأمين"))
            #expect(checked.html.contains("id=\"import-confirm\"") && !checked.html.contains("id=\"import-problems\""))
            #expect(!StudentsConsoleAdminTests.commandLineText(checked.html))
            #expect(try Self.students(fixture) == before, "a check writes nothing")

            let done = try await Self.confirm(checked, console)
            #expect(done.status == 200)
            #expect(done.html.contains("id=\"import-done\"") && done.html.contains("أُضيف 2 من الطلاب"))
            #expect(done.html.contains("href=\"/m/students/students\""))
            #expect(try Self.students(fixture) == before + 2)

            let again = try await Self.confirm(checked, console)
            #expect(again.html.contains("id=\"import-done\""), "the same form sent again answers as the first time")
            #expect(try Self.students(fixture) == before + 2, "and adds nobody again")
        }
        let layla = try #require(try fixture.run(ListStudents.self, .init(search: "GR-0901")).students.first)
        #expect(layla.classCode == "8A" && layla.fullName == "Layla Hassan")
        #expect(try fixture.run(ListStudents.self, .init(search: "GR-0902")).students.count == 1)
    }

    @Test("a file with problems lists each by row, column and reason in English, writes nothing, and its bytes can never be imported")
    func problems() async throws {
        let fixture = try StudentsConsoleAdminTests.fixture()
        let before = try Self.students(fixture)
        let bad = Self.header + "GR-0903,Sami,Ali,en,2013-02-30,MALE,ACTIVE,2026-11-01,8A\nGR-1,Nour,Ali,en,2013-02-01,FEMALE,ACTIVE,2026-11-01,9Z\n"
        try await fixture.harness.console { console in
            _ = try await console.signIn("head@school.org", Self.password)
            _ = try await console.post("/language", [("lang", "en"), ("back", "/m/students/import")])
            let checked = try await console.post("/m/students/import", multipart: [("step", "check")], files: [Self.csv(bad, name: "term.csv")])
            #expect(checked.status == 200 && checked.html.contains("<html lang=\"en\" dir=\"ltr\">"))
            #expect(checked.html.contains("id=\"import-problems\"") && checked.html.contains("term.csv"))
            #expect(checked.html.contains("nothing was written"))
            let rows = checked.html.components(separatedBy: "<tr><td>").dropFirst().map { String($0.prefix(60)) }
            #expect(rows.contains { $0.hasPrefix("2</td><td><code dir=\"ltr\">date_of_birth") }, "row 2's birth date")
            #expect(rows.contains { $0.hasPrefix("3</td><td><code dir=\"ltr\">gr_number") }, "row 3's GR number is taken")
            #expect(rows.contains { $0.hasPrefix("3</td><td><code dir=\"ltr\">class") }, "row 3's class is unknown")
            #expect(!checked.html.contains("id=\"import-confirm\""), "no Import button for a file with problems")
            #expect(checked.html.contains("type=\"file\""), "the file can be chosen again")
            #expect(!StudentsConsoleAdminTests.commandLineText(checked.html))

            // The Import step sent by hand with these bytes: the action checks them again and refuses.
            let forced = try await console.post("/m/students/import", multipart: [
                ("step", "import"), ("request", UUID().uuidString), ("name", "term.csv"), ("csv", Data(bad.utf8).base64EncodedString()),
            ], files: [])
            #expect(forced.html.contains("id=\"import-problems\"") && !forced.html.contains("id=\"import-done\""))
        }
        #expect(try Self.students(fixture) == before)
        #expect(try fixture.run(ListStudents.self, .init(search: "Sami")).students.isEmpty)
    }

    @Test("a malformed form, a file over the limit and a file that is not CSV each get a page that says so, and nothing is written")
    func hostileUploads() async throws {
        let fixture = try StudentsConsoleAdminTests.fixture()
        let before = try Self.students(fixture)
        try await fixture.harness.console { console in
            _ = try await console.signIn("head@school.org", Self.password)
            _ = try await console.get("/m/students/import")
            let csrf = try #require(try await console.get("/m/students/import").csrf)
            let cut = "--XyZ\r\nContent-Disposition: form-data; name=\"_csrf\"\r\n\r\n\(csrf)\r\n--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.csv\"\r\n\r\n"
                + Self.good
            let malformed = try await console.post("/m/students/import", body: Array(cut.utf8), contentType: "multipart/form-data; boundary=XyZ")
            #expect(malformed.status == 400 && malformed.html.contains("role=\"alert\"") && malformed.html.contains("لم يصل النموذج كاملًا"))
            let noBoundary = try await console.post("/m/students/import", body: Array(cut.utf8), contentType: "multipart/form-data")
            #expect(noBoundary.status == 400)

            _ = try await console.get("/m/students/import")
            let huge = Self.header + String(repeating: "GR-1,A,B,en,2013-01-01,MALE,ACTIVE,2026-11-01,8A\n", count: 25_000)
            let tooLarge = try await console.post("/m/students/import", multipart: [("step", "check")], files: [Self.csv(huge)])
            #expect(tooLarge.status == 413 && tooLarge.html.contains("1 ميغابايت"))
            let overBody = try await console.post("/m/students/import", body: [UInt8](repeating: 0x41, count: ConsoleMultipart.maximumBodySize + 10),
                                                  contentType: "multipart/form-data; boundary=XyZ")
            #expect(overBody.status == 413)

            _ = try await console.get("/m/students/import")
            let zip = ConsoleTestClient.UploadFile(name: "students.csv", type: "text/csv", data: Data([0x50, 0x4B, 0x03, 0x04, 0x14, 0x00]))
            let notCSV = try await console.post("/m/students/import", multipart: [("step", "check")], files: [zip])
            #expect(notCSV.status == 200 && notCSV.html.contains("هذا ليس ملف CSV") && !notCSV.html.contains("id=\"import-confirm\""))
            _ = try await console.get("/m/students/import")
            let image = ConsoleTestClient.UploadFile(name: "photo.png", type: "image/png", data: Data(Self.good.utf8))
            #expect(try await console.post("/m/students/import", multipart: [("step", "check")], files: [image]).html.contains("هذا ليس ملف CSV"))
            _ = try await console.get("/m/students/import")
            let none = try await console.post("/m/students/import", multipart: [("step", "check")], files: [])
            #expect(none.html.contains("لم يُختر ملف"))
            _ = try await console.get("/m/students/import")
            let utf16 = ConsoleTestClient.UploadFile(name: "s.csv", type: "text/csv", data: try #require(Self.good.data(using: .utf16)))
            #expect(try await console.post("/m/students/import", multipart: [("step", "check")], files: [utf16]).html.contains("UTF-16"))
            for page in [malformed, tooLarge, notCSV] { #expect(!StudentsConsoleAdminTests.commandLineText(page.html)) }

            let forged = try await console.post("/m/students/import", multipart: [("step", "check"), ("_csrf", "forged")], files: [Self.csv(Self.good)])
            #expect(forged.status == 403, "an upload without this session's token is refused before it is read")
        }
        #expect(try Self.students(fixture) == before)
    }

    @Test("teachers, guardians and students are refused the import page and its upload, with no form, and nothing is written")
    func refusedRoles() async throws {
        let fixture = try StudentsConsoleAdminTests.fixture()
        let before = try Self.students(fixture)
        try await fixture.harness.console { console in
            for email in ["t8a@school.org", "mum@family.org", "pupil@school.org"] {
                _ = try await console.signIn(email, Self.password)
                let list = try await console.get("/m/students/students")
                #expect(!list.html.contains("/m/students/import"), "\(email) has no link to it")
                let page = try await console.get("/m/students/import")
                #expect(page.status == 403 && !page.html.contains("type=\"file\""), "\(email)")
                let posted = try await console.post("/m/students/import", multipart: [("step", "check")], files: [Self.csv(Self.good)])
                #expect(posted.status == 403 && !posted.html.contains("import-ready"), "\(email)")
                _ = try await console.post("/sign-out", [])
            }
        }
        #expect(try Self.students(fixture) == before)
    }
}
