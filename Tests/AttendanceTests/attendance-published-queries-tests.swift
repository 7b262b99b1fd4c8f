import Auth
import Core
import Foundation
import HogwartsTestSupport
import Students
import Testing
import Timetable
@testable import Attendance

/// A module that does not depend on Attendance and asks it, with its own copy of the shape.
private enum AskedCounts: NamedQuery {
    static let name = "attendance.student-counts"
    struct Request: Codable, Sendable { var studentID: String; var from: String; var to: String }
    struct Answer: Codable, Sendable, Equatable { var counts: [String: Int] }
}

private struct AskCounts: Action {
    struct Input: Codable, Sendable { var studentID: String }
    static let id = "counts-asker.ask"
    static let permission: Permission = "counts-asker.use"
    static let isReadOnly = true
    func perform(_ input: Input, in context: ActionContext) throws -> AskedCounts.Answer? {
        try context.ask(AskedCounts.self, .init(studentID: input.studentID, from: "2000-01-01", to: "2100-12-31"))
    }
}

private struct CountsAsker: AppModule {
    let id: ModuleID = "counts-asker"
    let version = SemanticVersion(1, 0, 0)
    var actions: [any Action.Type] { [AskCounts.self] }
    var permissions: [PermissionDefinition] {
        [PermissionDefinition("counts-asker.use", summary: LocalizedText(ar: "سؤال", en: "Ask"), grants: [.admin: .school, .guardian: .school])]
    }
    var strings: StringCatalog { StringCatalog(ar: [:], en: [:]) }
}

@Suite("Attendance's published queries and tables")
struct AttendancePublishedQueryTests {
    @Test("attendance.student-counts answers a student's records by status, as the summary counts them; nothing where Attendance is off")
    func counts() throws {
        let moment = (try? Date.ISO8601FormatStyle().parse("2026-11-22T06:00:00Z")) ?? Date()
        let harness = try TestHarness(modules: [AuthModule(), StudentsModule(), AttendanceModule(), CountsAsker()], clock: { moment })
        let school = try harness.kernel.createDemoSchools()[0]
        let admin = harness.user(.admin, in: school)
        let student = try #require(try harness.kernel.run(ListStudents.self, .init(), as: admin, in: school.id).students.first)
        let summary = try harness.kernel.run(AttendanceSummary.self, .init(student: student.id), as: admin, in: school.id).totals
        let answer = try #require(try harness.kernel.run(AskCounts.self, .init(studentID: student.id), as: admin, in: school.id))
        #expect(answer.counts.values.reduce(0, +) > 0)
        #expect(answer.counts["PRESENT", default: 0] == summary.present)
        #expect(answer.counts["ABSENT", default: 0] == summary.absent)
        #expect(answer.counts["LATE", default: 0] == summary.late)

        _ = try harness.kernel.disable("attendance", for: school.id, by: .localOperator)
        #expect(try harness.kernel.run(AskCounts.self, .init(studentID: student.id), as: admin, in: school.id) == nil, "nothing where Attendance is off")
    }

    @Test("the tables and views Attendance declares are exactly those its migrations create")
    func declaredTables() {
        let mismatches = ModuleSchema.mismatches(of: AttendanceModule())
        #expect(mismatches.undeclared.isEmpty)
        #expect(mismatches.notCreated.isEmpty)
    }

    @Test("Attendance's own shape of timetable.periods decodes what Timetable answers; nil where the timetable is off")
    func timetableShape() throws {
        let moment = (try? Date.ISO8601FormatStyle().parse("2026-11-22T06:00:00Z")) ?? Date()
        let harness = try TestHarness(modules: [AuthModule(), StudentsModule(), TimetableModule(), PeriodsAsker()], clock: { moment })
        let school = try harness.kernel.createDemoSchools()[0]
        let teacher = harness.user(.teacher, in: school)
        let periods = try #require(try harness.kernel.run(AskPeriods.self, .init(), as: teacher, in: school.id))
        let listed = try harness.kernel.run(ListPeriods.self, .init(), as: teacher, in: school.id)
        #expect(Set(periods.keys) == Set(listed.map(\.code)))
        for period in listed {
            #expect(periods[period.code] == TimetablePeriods.Period(code: period.code, nameAr: period.name.ar, nameEn: period.name.en,
                                                                    startsAt: period.startsAt, isBreak: period.isBreak))
        }
        #expect(periods.values.contains { $0.isBreak } && periods.values.contains { !$0.isBreak })

        _ = try harness.kernel.disable("timetable", for: school.id, by: .localOperator)
        #expect(try harness.kernel.run(AskPeriods.self, .init(), as: teacher, in: school.id) == nil, "nothing where the timetable is off")
    }
}

/// Asks with Attendance's own declaration (`TimetablePeriods`), as Attendance's actions do.
private struct AskPeriods: Action {
    struct Input: Codable, Sendable {}
    static let id = "periods-asker.ask"
    static let permission: Permission = "periods-asker.use"
    static let isReadOnly = true
    func perform(_ input: Input, in context: ActionContext) throws -> [String: TimetablePeriods.Period]? {
        try TimetablePeriods.byCode(context)
    }
}

private struct PeriodsAsker: AppModule {
    let id: ModuleID = "periods-asker"
    let version = SemanticVersion(1, 0, 0)
    var actions: [any Action.Type] { [AskPeriods.self] }
    var permissions: [PermissionDefinition] {
        [PermissionDefinition("periods-asker.use", summary: LocalizedText(ar: "سؤال", en: "Ask"), grants: [.admin: .school, .teacher: .school])]
    }
    var strings: StringCatalog { StringCatalog(ar: [:], en: [:]) }
}
