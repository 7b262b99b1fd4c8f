import Auth
import Core
import Foundation
import Grades
import HogwartsTestSupport
import Students
import Testing

/// A module that does not depend on Grades and asks it for the school's gradebook.
private struct AskGradebook: Action {
    struct Input: Codable, Sendable {}
    static let id = "gradebook-asker.ask"
    static let permission: Permission = "gradebook-asker.use"
    static let isReadOnly = true
    func perform(_ input: Input, in context: ActionContext) throws -> AssessmentsAndResults.Answer? {
        try context.ask(AssessmentsAndResults.self, .init())
    }
}

private struct GradebookAsker: AppModule {
    let id: ModuleID = "gradebook-asker"
    let version = SemanticVersion(1, 0, 0)
    var actions: [any Action.Type] { [AskGradebook.self] }
    var permissions: [PermissionDefinition] {
        [PermissionDefinition("gradebook-asker.use", summary: LocalizedText(ar: "سؤال", en: "Ask"), grants: [.admin: .school, .teacher: .school])]
    }
    var strings: StringCatalog { StringCatalog(ar: [:], en: [:]) }
}

@Suite("Grades' published queries")
struct GradesPublishedQueryTests {
    func harness() throws -> (TestHarness, School) {
        let moment = (try? Date.ISO8601FormatStyle().parse("2026-11-22T06:00:00Z")) ?? Date()
        let harness = try TestHarness(modules: [AuthModule(), StudentsModule(), GradesModule(), GradebookAsker()], clock: { moment })
        return (harness, try harness.kernel.createDemoSchools()[0])
    }

    @Test("grades.assessments-and-results answers every assessment and result of the school")
    func answers() throws {
        let (harness, school) = try harness()
        let admin = harness.user(.admin, in: school)
        let answer = try #require(try harness.kernel.run(AskGradebook.self, .init(), as: admin, in: school.id))
        let listed = try harness.kernel.run(ListAssessments.self, .init(), as: admin, in: school.id)
        #expect(!answer.assessments.isEmpty)
        #expect(Set(answer.assessments.map(\.id)) == Set(listed.map(\.id)))
        #expect(Set(answer.results.map(\.assessmentID)).isSubset(of: Set(listed.map(\.id))))
        #expect(answer.results.allSatisfy { ["SCORED", "ABSENT", "EXEMPT"].contains($0.state) })

        _ = try harness.kernel.disable("grades", for: school.id, by: .localOperator)
        #expect(try harness.kernel.run(AskGradebook.self, .init(), as: admin, in: school.id) == nil, "nothing where Grades is off")
    }

    @Test("only school-wide roles get the whole gradebook")
    func permission() throws {
        let (harness, school) = try harness()
        #expect(throws: KernelError.permissionDenied(permission: "grades.manage", role: .teacher)) {
            try harness.kernel.run(AskGradebook.self, .init(), as: harness.user(.teacher, in: school), in: school.id)
        }
    }

    @Test("the answer's shape is the published contract: these fields, under these names")
    func shape() throws {
        let (harness, school) = try harness()
        let answer = try #require(try harness.kernel.run(AskGradebook.self, .init(), as: harness.user(.admin, in: school), in: school.id))
        let json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(answer)) as? [String: Any])
        #expect(Set(json.keys) == ["assessments", "results"])
        let assessment = try #require((json["assessments"] as? [[String: Any]])?.first)
        #expect(Set(assessment.keys) == ["id", "classID", "subjectID", "termID", "title", "date", "maxMarks", "category"])
        let result = try #require((json["results"] as? [[String: Any]])?.first { $0["score"] != nil })
        #expect(Set(result.keys) == ["assessmentID", "studentID", "state", "score", "enteredAt"])
    }
}
