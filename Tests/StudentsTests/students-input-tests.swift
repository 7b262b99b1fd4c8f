import Core
import Foundation
import HogwartsTestSupport
import Students
import Testing

/// Hostile and malformed input to the roster (issue 11): refused with a reason that names the
/// field, row or column, and nothing written.
@Suite("Students: bad input")
struct StudentsInputTests {
    static let header = "gr_number,given_name,surname,name_language,date_of_birth,gender,status,enrolled_on,class\n"

    @Test("pages outside 1...100000 are refused before any arithmetic", arguments: [0, -3, 100_001, 461_168_601_842_738_792, Int.max])
    func pageBounds(page: Int) throws {
        let roster = try RosterFixture()
        #expect(throws: InputError("students.error.page")) { try roster.run(ListStudents.self, .init(page: page)) }
    }

    @Test("control characters, NUL, invalid UTF-8 and over-long text in a student's fields are refused by field", arguments: [
        ("given_name", StudentFields(grNumber: "GR-9", givenName: "Al\u{0}i", surname: "X", dateOfBirth: "2013-01-01", gender: "MALE"), "kernel.error.text-control"),
        ("given_name", StudentFields(grNumber: "GR-9", givenName: "A\u{1B}[31m", surname: "X", dateOfBirth: "2013-01-01", gender: "MALE"), "kernel.error.text-control"),
        ("surname", StudentFields(grNumber: "GR-9", givenName: "A", surname: "X\u{7}", dateOfBirth: "2013-01-01", gender: "MALE"), "kernel.error.text-control"),
        ("surname", StudentFields(grNumber: "GR-9", givenName: "A", surname: "X\rY", dateOfBirth: "2013-01-01", gender: "MALE"), "kernel.error.text-control"),
        ("surname", StudentFields(grNumber: "GR-9", givenName: "A", surname: "X\nY", dateOfBirth: "2013-01-01", gender: "MALE"), "kernel.error.text-control"),
        ("given_name", StudentFields(grNumber: "GR-9", givenName: "A\u{FFFD}", surname: "X", dateOfBirth: "2013-01-01", gender: "MALE"), "kernel.error.text-invalid-utf8"),
        ("gr_number", StudentFields(grNumber: "GR\u{1B}9", givenName: "A", surname: "X", dateOfBirth: "2013-01-01", gender: "MALE"), "kernel.error.text-control"),
        ("given_name", StudentFields(grNumber: "GR-9", givenName: String(repeating: "a", count: 10_000), surname: "X", dateOfBirth: "2013-01-01", gender: "MALE"), "kernel.error.text-too-long"),
        ("date_of_birth", StudentFields(grNumber: "GR-9", givenName: "A", surname: "X", dateOfBirth: "0001-01-01", gender: "MALE"), "students.error.field"),
    ])
    func hostileStudentFields(field: String, fields: StudentFields, key: String) throws {
        let roster = try RosterFixture()
        let error = #expect(throws: InputError.self) { try roster.run(CreateStudent.self, fields) }
        #expect(error?.messageKey == key)
        #expect(error?.messageArguments["column"] == field)
        #expect(try roster.visible(to: roster.admin).count == 4, "nothing written")
    }

    @Test("guardian, class, subject, year and term names refuse control characters and say which field")
    func hostileRosterNames() throws {
        let roster = try RosterFixture()
        let control = #expect(throws: InputError.self) {
            try roster.run(LinkGuardian.self, .init(grNumber: "GR-1", givenName: "Ha\u{0}la", surname: "X", relation: .mother))
        }
        #expect(control?.messageKey == "kernel.error.text-control" && control?.messageArguments["field"] == "given_name")
        let bell = #expect(throws: InputError.self) {
            try roster.run(CreateClass.self, .init(code: "9B", name: LocalizedText(ar: "تاسع\u{7}", en: "9B"), yearLevel: "G7"))
        }
        #expect(bell?.messageArguments["field"] == "name_ar")
        let long = #expect(throws: InputError.self) {
            try roster.run(CreateSubject.self, .init(code: "ART", name: LocalizedText(ar: "فن", en: String(repeating: "x", count: 10_000))))
        }
        #expect(long?.messageKey == "kernel.error.text-too-long" && long?.messageArguments["field"] == "name_en")
        let code = #expect(throws: InputError.self) {
            try roster.run(CreateYearLevel.self, .init(code: "G\u{1B}9", name: LocalizedText(ar: "ت", en: "9"), position: 3))
        }
        #expect(code?.messageArguments["field"] == "code")
        #expect(throws: InputError("students.error.position")) {
            try roster.run(CreateYearLevel.self, .init(code: "G9", name: LocalizedText(ar: "ت", en: "9"), position: 461_168_601_842_738_792))
        }
        #expect(try roster.run(ListClasses.self, .init()).count == 2)
        #expect(try roster.run(ListSubjects.self, .init()).count == 1)
    }

    @Test("a search for % or _ finds names that contain them, not every student")
    func likeWildcardsAreLetters() throws {
        let roster = try RosterFixture()
        #expect(try roster.visible(to: roster.admin, search: "%").isEmpty)
        #expect(try roster.visible(to: roster.admin, search: "_").isEmpty)
        #expect(try roster.visible(to: roster.admin, search: "\\").isEmpty)
        try roster.addStudent("GR-5", "Anna_Maria", "100%", class: nil, language: "en")
        #expect(try roster.visible(to: roster.admin, search: "_") == ["GR-5"])
        #expect(try roster.visible(to: roster.admin, search: "100%") == ["GR-5"])
        #expect(throws: InputError.self) { try roster.visible(to: roster.admin, search: "a\u{0}") }
    }

    @Test("malformed CSV is reported with its row and column, not SwiftCSV's raw error", arguments: [
        ("GR-9,\"Ali,Taha,en,2014-03-02,MALE,,,\n", "2:given_name", "never closed"),
        ("GR-9,Al\"i,Taha,en,2014-03-02,MALE,,,\n", "2:given_name", "middle of an unquoted value"),
        ("GR-9,\"Ali\"x,Taha,en,2014-03-02,MALE,,,\n", "2:given_name", "closing quote"),
        ("GR-9,Ali,Taha,en,2014-03-02,MALE,,,,extra\n", "2:10", "10 fields but the header has 9"),
        ("GR-9,Ali,Taha,en,2014-03-02\n", "2:gender", "5 fields but the header has 9"),
        ("GR-9,Al\u{0}i,Taha,en,2014-03-02,MALE,,,\n", "2:given_name", "control character"),
        ("GR-9,\"Al\ni\",Taha,en,2014-03-02,MALE,,,\n", "2:given_name", "control character"),
        ("GR-9,Al\u{FFFD}i,Taha,en,2014-03-02,MALE,,,\n", "2:given_name", "not valid UTF-8"),
        ("GR-9,Ali,Taha,en,0001-01-01,MALE,,,\n", "2:date_of_birth", "YYYY-MM-DD"),
    ])
    func malformedRows(body: String, location: String, reason: String) throws {
        let roster = try RosterFixture()
        let report = try roster.run(ImportStudents.self, .init(csv: Self.header + body, dryRun: true))
        #expect(report.problems.map { "\($0.row):\($0.column)" } == [location])
        #expect(report.problems.first?.reason.contains(reason) == true, "\(report.problems)")
        #expect(throws: StudentsError.self) { try roster.run(ImportStudents.self, .init(csv: Self.header + body, dryRun: false)) }
        #expect(try roster.visible(to: roster.admin).count == 4)
    }

    @Test("a header names each known column once", arguments: [
        ("gr_number,given_name,surname,date_of_birth,gender,surname\n", "1:surname", "named twice"),
        ("gr_number,given_name,surname,date_of_birth,gender,notes\n", "1:notes", "unknown column"),
        ("gr_number,given_name,surname,date_of_birth,gender,\n", "1:6", "no name"),
        ("gr_number,given_name,surname,date_of_birth\n", "1:gender", "required column missing"),
        ("", "1:-", "empty"),
    ])
    func badHeaders(header: String, location: String, reason: String) throws {
        let roster = try RosterFixture()
        let csv = header.isEmpty ? "" : header + "GR-9,Ali,Taha,2014-03-02,MALE,x\n"
        let report = try roster.run(ImportStudents.self, .init(csv: csv, dryRun: true))
        #expect(report.problems.map { "\($0.row):\($0.column)" } == [location])
        #expect(report.problems.first?.reason.contains(reason) == true, "\(report.problems)")
    }

    @Test("a UTF-16 or UTF-32 file is named as such; a UTF-8 BOM just works")
    func encodings() throws {
        let text = Self.header + "GR-9,سارة,علي,ar,2014-03-02,FEMALE,,,\n"
        var utf16 = Data([0xFF, 0xFE])
        utf16.append(text.data(using: .utf16LittleEndian) ?? Data())
        #expect(throws: InputError("students.error.csv-encoding", ["encoding": "UTF-16"])) { try StudentsCSVText.decode(utf16) }
        #expect(throws: InputError("students.error.csv-encoding", ["encoding": "UTF-16"])) {
            try StudentsCSVText.decode(text.data(using: .utf16BigEndian) ?? Data())
        }
        #expect(throws: InputError("students.error.csv-encoding", ["encoding": "UTF-32"])) {
            try StudentsCSVText.decode(Data([0xFF, 0xFE, 0x00, 0x00]) + (text.data(using: .utf32LittleEndian) ?? Data()))
        }
        let decoded = try StudentsCSVText.decode(Data([0xEF, 0xBB, 0xBF]) + Data(text.utf8))
        let roster = try RosterFixture()
        #expect(try roster.run(ImportStudents.self, .init(csv: decoded, dryRun: false)).imported == 1)
        let invalid = try StudentsCSVText.decode(Data(Self.header.utf8) + Data("GR-10,A".utf8) + Data([0xC3, 0x28]) + Data(",B,ar,2014-03-02,MALE,,,\n".utf8))
        let report = try roster.run(ImportStudents.self, .init(csv: invalid, dryRun: true))
        #expect(report.problems.map { "\($0.row):\($0.column)" } == ["2:given_name"])
    }

    @Test("every export cell is spreadsheet-safe and a hostile name still imports back unchanged")
    func hostileExportRoundTrip() throws {
        let roster = try RosterFixture()
        try roster.addStudent("GR-5", "=HYPERLINK(\"x\")", "+SUM(A1)", class: nil, language: "en")
        try roster.addStudent("GR-6", "@cmd", "-2+3", class: nil, language: "en")
        let csv = ExportStudents.csv(try roster.run(ExportStudents.self, .init()))
        #expect(csv.contains("\"'=HYPERLINK(\"\"x\"\")\",'+SUM(A1)"))
        #expect(csv.contains("'@cmd,'-2+3"))
        for line in csv.split(separator: "\n") {
            for cell in line.split(separator: ",", omittingEmptySubsequences: false) {
                #expect(!["=", "+", "-", "@"].contains(cell.first), "\(line)")
            }
        }
        let other = try roster.harness.makeSchool("other-school")
        let otherAdmin = roster.harness.user(.admin, in: other)
        try roster.harness.kernel.run(CreateSchoolYear.self, .init(name: "2026-2027", startsOn: "2026-09-01", endsOn: "2027-06-30"), as: otherAdmin, in: other.id)
        let rows = try roster.run(ExportStudents.self, .init()).filter { $0.classCode?.isEmpty != false }
        let imported = try roster.harness.kernel.run(ImportStudents.self, .init(csv: ExportStudents.csv(rows), dryRun: false), as: otherAdmin, in: other.id)
        #expect(imported.imported == 2)
        let back = try roster.harness.kernel.run(ExportStudents.self, .init(), as: otherAdmin, in: other.id)
        #expect(back == rows)
        #expect(back.map(\.givenName) == ["=HYPERLINK(\"x\")", "@cmd"])
    }

    @Test("a long import reports its progress while checking and while writing")
    func progress() throws {
        let roster = try RosterFixture()
        let rows = (0..<1_000).map { "P-\($0),Name\($0),Family,en,2014-03-02,FEMALE,,,\n" }.joined()
        let seen = ProgressLog()
        let report = try roster.harness.kernel.run(ImportStudents.self, .init(csv: Self.header + rows, dryRun: false),
                                                   as: roster.harness.user(.admin), in: roster.harness.school.id,
                                                   progress: { done, total, label in seen.add(done, total, label) })
        #expect(report.imported == 1_000)
        let calls = seen.calls
        #expect(calls.contains { $0.done == 0 && $0.total == 1_000 && !$0.label.isEmpty })
        #expect(calls.contains { $0.done == 1_000 && $0.total == 1_000 }, "the last call ends the line")
        #expect(calls.count > 4)
    }
}

/// What a progress reporter was told, from a `@Sendable` closure.
final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [(done: Int, total: Int, label: String)] = []
    func add(_ done: Int, _ total: Int, _ label: String) { lock.withLock { stored.append((done, total, label)) } }
    var calls: [(done: Int, total: Int, label: String)] { lock.withLock { stored } }
}
