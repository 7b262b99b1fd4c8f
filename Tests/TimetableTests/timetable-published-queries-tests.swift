import Auth
import Core
import Foundation
import HogwartsTestSupport
import Students
import Testing
import Timetable

/// A module that does not depend on Timetable, with its own copy of the shape it relies on.
private enum AskedPeriods: NamedQuery {
    static let name = "timetable.periods"
    struct Request: Codable, Sendable {}
    struct Answer: Codable, Sendable, Equatable { var periods: [Period] }
    struct Period: Codable, Sendable, Equatable { var code: String; var nameAr: String; var nameEn: String; var startsAt: String; var endsAt: String; var isBreak: Bool }
}

private struct AskPeriods: Action {
    struct Input: Codable, Sendable {}
    static let id = "timetable-asker.ask"
    static let permission: Permission = "timetable-asker.use"
    static let isReadOnly = true
    func perform(_ input: Input, in context: ActionContext) throws -> AskedPeriods.Answer? {
        try context.ask(AskedPeriods.self, .init())
    }
}

private struct TimetableAsker: AppModule {
    let id: ModuleID = "timetable-asker"
    let version = SemanticVersion(1, 0, 0)
    var actions: [any Action.Type] { [AskPeriods.self] }
    var permissions: [PermissionDefinition] {
        [PermissionDefinition("timetable-asker.use", summary: LocalizedText(ar: "سؤال", en: "Ask"), grants: [.admin: .school, .student: .school])]
    }
    var strings: StringCatalog { StringCatalog(ar: [:], en: [:]) }
}

@Suite("Timetable's published queries and tables")
struct TimetablePublishedQueryTests {
    @Test("timetable.periods answers every period of the day, breaks marked, in order; nothing where the timetable is off")
    func periods() throws {
        let moment = (try? Date.ISO8601FormatStyle().parse("2026-11-22T06:00:00Z")) ?? Date()
        let harness = try TestHarness(modules: [AuthModule(), StudentsModule(), TimetableModule(), TimetableAsker()], clock: { moment })
        let school = try harness.kernel.createDemoSchools()[0]
        let admin = harness.user(.admin, in: school)
        let answer = try #require(try harness.kernel.run(AskPeriods.self, .init(), as: admin, in: school.id))
        let listed = try harness.kernel.run(ListPeriods.self, .init(), as: admin, in: school.id)
        #expect(answer.periods.map(\.code) == listed.map(\.code))
        #expect(answer.periods.map(\.isBreak) == listed.map(\.isBreak))
        #expect(answer.periods.map(\.nameEn) == listed.map(\.name.en))
        #expect(answer.periods.map(\.startsAt) == listed.map(\.startsAt))
        #expect(answer.periods.map(\.startsAt) == answer.periods.map(\.startsAt).sorted())

        _ = try harness.kernel.disable("timetable", for: school.id, by: .localOperator)
        #expect(try harness.kernel.run(AskPeriods.self, .init(), as: admin, in: school.id) == nil, "nothing where the timetable is off")
    }

    @Test("the tables Timetable declares are exactly those its migrations create")
    func declaredTables() {
        let mismatches = ModuleSchema.mismatches(of: TimetableModule())
        #expect(mismatches.undeclared.isEmpty)
        #expect(mismatches.notCreated.isEmpty)
    }
}
