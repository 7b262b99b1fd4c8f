import Attendance
import Auth
import Core
import Foundation
import HogwartsTestSupport
import Students
import Testing
@testable import Grades

/// Runs Grades' own ask for a term's attendance, as a report card does.
private struct AskAttendance: Action {
    struct Input: Codable, Sendable { var studentID: String }
    static let id = "attendance-asker.ask"
    static let permission: Permission = "attendance-asker.use"
    static let isReadOnly = true
    func perform(_ input: Input, in context: ActionContext) throws -> ReportCard.AttendanceCounts? {
        try AttendanceCountsQuery.counts(student: input.studentID, from: "2000-01-01", to: "2100-12-31", context)
    }
}

private struct AttendanceAsker: AppModule {
    let id: ModuleID = "attendance-asker"
    let version = SemanticVersion(1, 0, 0)
    var actions: [any Action.Type] { [AskAttendance.self] }
    var permissions: [PermissionDefinition] {
        [PermissionDefinition("attendance-asker.use", summary: LocalizedText(ar: "سؤال", en: "Ask"), grants: [.admin: .school])]
    }
    var strings: StringCatalog { StringCatalog(ar: [:], en: [:]) }
}

@Suite("Grades' asks of other modules, and its tables")
struct GradesAttendanceQueryTests {
    @Test("Grades' shape of attendance.student-counts decodes Attendance's answer; no attendance where Attendance is off")
    func attendanceCounts() throws {
        let moment = (try? Date.ISO8601FormatStyle().parse("2026-11-22T06:00:00Z")) ?? Date()
        let harness = try TestHarness(modules: [AuthModule(), StudentsModule(), AttendanceModule(), AttendanceAsker()], clock: { moment })
        let school = try harness.kernel.createDemoSchools()[0]
        let admin = harness.user(.admin, in: school)
        let student = try #require(try harness.kernel.run(ListStudents.self, .init(), as: admin, in: school.id).students.first)
        let summary = try harness.kernel.run(AttendanceSummary.self, .init(student: student.id), as: admin, in: school.id).totals
        let counts = try #require(try harness.kernel.run(AskAttendance.self, .init(studentID: student.id), as: admin, in: school.id))
        #expect(counts.present + counts.absent + counts.late > 0)
        let asked: [Int] = [counts.present, counts.late, counts.absent, counts.excused, counts.sick, counts.holiday]
        let summed: [Int] = [summary.present, summary.late, summary.absent, summary.excused, summary.sick, summary.holiday]
        #expect(asked == summed)

        _ = try harness.kernel.disable("attendance", for: school.id, by: .localOperator)
        #expect(try harness.kernel.run(AskAttendance.self, .init(studentID: student.id), as: admin, in: school.id) == nil)
    }

    @Test("the tables Grades declares are exactly those its migrations create")
    func declaredTables() {
        let mismatches = ModuleSchema.mismatches(of: GradesModule())
        #expect(mismatches.undeclared.isEmpty)
        #expect(mismatches.notCreated.isEmpty)
    }
}
