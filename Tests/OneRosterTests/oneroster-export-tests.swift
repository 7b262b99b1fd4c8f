import Auth
import Core
import Foundation
import Grades
import HogwartsTestSupport
import OneRoster
import Students
import Testing

@Suite("OneRoster export")
struct OneRosterExportTests {
    /// The export's files as the import reads them: names without `.csv`.
    func asSet(_ export: OneRosterExport) -> [String: String] {
        Dictionary(uniqueKeysWithValues: export.files.map { (String($0.key.dropLast(4)), $0.value) })
    }

    @Test("export then import into a fresh database gives the same counts and links")
    func roundTrip() throws {
        let source = try OneRosterSchool()
        try source.importSet(OneRosterFixture.bulk().set)
        let export = try source.run(ExportOneRoster.self, .init())
        let fresh = try OneRosterSchool()
        let report = try fresh.importSet(asSet(export))
        #expect(report.violations.isEmpty)
        #expect(try fresh.signature() == source.signature())
    }

    @Test("a school built by hand exports and comes back the same, and sourcedIds are stable")
    func handBuiltSchool() throws {
        let source = try OneRosterSchool()
        try source.run(CreateSchoolYear.self, .init(name: "2026-2027", startsOn: "2026-08-23", endsOn: "2027-06-30"))
        try source.run(CreateTerm.self, .init(schoolYear: "2026-2027", name: LocalizedText(ar: "الفصل الأول", en: "Term 1"), startsOn: "2026-08-23", endsOn: "2027-01-15"))
        try source.run(CreateYearLevel.self, .init(code: "G8", name: LocalizedText(ar: "الثامن", en: "Grade 8"), position: 2))
        try source.run(CreateSubject.self, .init(code: "ARAB", name: LocalizedText(ar: "اللغة العربية", en: "Arabic")))
        let teacher = try source.run(CreateUser.self, .init(email: "t@school.org", displayName: "Amal Said", role: .teacher, password: "Corr3ct-Horse"))
        try source.run(CreateClass.self, .init(code: "8B", name: LocalizedText(ar: "الثامن ب", en: "8-B"), yearLevel: "G8", homeroomTeacherEmail: teacher.email))
        try source.run(AssignTeacher.self, .init(teacherEmail: teacher.email, classCode: "8B", subjectCode: "ARAB"))
        try source.run(CreateStudent.self, StudentFields(grNumber: "GR-9", givenName: "سلمى", surname: "النور", dateOfBirth: "2012-02-02", gender: "FEMALE", classCode: "8B"))
        try source.run(LinkGuardian.self, .init(grNumber: "GR-9", givenName: "Rania", surname: "Nour", email: "rania@family.org", relation: .mother))
        try source.run(CreateUser.self, .init(email: "rania@family.org", displayName: "Rania Nour", role: .guardian, password: "Corr3ct-Horse"))
        let first = try source.run(ExportOneRoster.self, .init())
        let second = try source.run(ExportOneRoster.self, .init())
        #expect(first.files == second.files, "the same school exports the same files")
        let fresh = try OneRosterSchool()
        try fresh.importSet(asSet(first))
        #expect(try fresh.signature() == source.signature())
        #expect(first.files["manifest.csv"]?.contains("file.lineItems,absent") == true)
    }

    @Test("where Grades is on, the gradebook goes out as categories, lineItems and results")
    func gradebook() throws {
        let school = try OneRosterSchool(grades: true)
        try school.importSet(OneRosterFixture.bulk().set)
        try school.run(CreateAssessment.self, .init(code: "Q1", classCode: "7A", subjectCode: "MATH", term: "Term 1", kind: .quiz, title: "Quiz 1",
                                                    date: "2026-10-01", maxMarks: 20, passingMarks: 10, category: "coursework"))
        try school.run(EnterResults.self, .init(assessment: "Q1", lines: [.init(student: "S-001", result: "18.5"), .init(student: "S-002", result: "absent")]))
        let export = try school.run(ExportOneRoster.self, .init())
        #expect(export.rows["lineItems"] == 1)
        #expect(export.rows["results"] == 2)
        #expect(export.files["results.csv"]?.contains("fully graded,18.5") == true)
        #expect(export.files["manifest.csv"]?.contains("file.results,bulk") == true)
    }

    @Test("a teacher may not export")
    func teacherRefused() throws {
        let school = try OneRosterSchool()
        #expect(throws: KernelError.permissionDenied(permission: "oneroster.export", role: .teacher)) {
            try school.run(ExportOneRoster.self, .init(), as: school.harness.user(.teacher))
        }
    }
}
