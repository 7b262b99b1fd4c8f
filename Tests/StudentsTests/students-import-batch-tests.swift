import Core
import Foundation
import HogwartsTestSupport
import Students
import Testing

@Suite("Importing many students")
struct StudentsImportBatchTests {
    /// A school with this year, one level and a roomy class, as `admin`.
    static func school(_ slug: String, _ roster: RosterFixture) throws -> (School, Principal) {
        let school = try roster.harness.makeSchool(slug)
        let admin = roster.harness.user(.admin, in: school)
        func run<A: Action>(_ action: A.Type, _ input: A.Input) throws {
            _ = try roster.harness.kernel.run(action, input, as: admin, in: school.id)
        }
        try run(CreateSchoolYear.self, .init(name: "2026-2027", startsOn: "2026-09-01", endsOn: "2027-06-30"))
        try run(CreateYearLevel.self, .init(code: "G9", name: LocalizedText(ar: "التاسع", en: "Grade 9"), position: 3))
        try run(CreateClass.self, .init(code: "9A", name: LocalizedText(ar: "التاسع أ", en: "9-A"), yearLevel: "G9", capacity: 200))
        return (school, admin)
    }

    @Test("a file of many rows writes what adding each student by hand writes, class places included")
    func importMatchesAddingByHand() throws {
        let roster = try RosterFixture()
        let rows = (0..<70).map { index in
            StudentFields(grNumber: String(format: "B-%03d", index), givenName: index % 3 == 0 ? "أَحمد \(index)" : "Name\(index)", surname: "Hall",
                          nameLanguage: index % 2 == 0 ? "" : "EN", dateOfBirth: "2013-05-04", gender: index % 2 == 0 ? "female" : "MALE",
                          status: index % 5 == 0 ? "inactive" : "", enrolledOn: index % 4 == 0 ? "2026-09-02" : "", classCode: index % 2 == 0 ? "9A" : "")
        }
        let (imported, importer) = try Self.school("imported", roster)
        let report = try roster.harness.kernel.run(ImportStudents.self, .init(csv: ExportStudents.csv(rows), dryRun: false), as: importer, in: imported.id)
        #expect(report.imported == 70)

        let (byHand, admin) = try Self.school("by-hand", roster)
        for fields in rows { _ = try roster.harness.kernel.run(CreateStudent.self, fields, as: admin, in: byHand.id) }

        let importedRows = try roster.harness.kernel.run(ExportStudents.self, .init(), as: importer, in: imported.id)
        #expect(importedRows.count == 70)
        #expect(importedRows == (try roster.harness.kernel.run(ExportStudents.self, .init(), as: admin, in: byHand.id)))
        let classes = try roster.harness.kernel.run(ListClasses.self, .init(), as: importer, in: imported.id)
        #expect(classes.first { $0.code == "9A" }?.enrolled == 35)
        let found = try roster.harness.kernel.run(ListStudents.self, .init(search: "احمد 69"), as: importer, in: imported.id)
        #expect(found.students.map(\.grNumber) == ["B-069"], "the search key folds the imported name")
    }
}
