import Core
import Foundation
import HogwartsTestSupport
import Students
import Testing

/// The demo school and the other school, as the generated walks (routes, console pages) use
/// them: a demo student and class to name in paths and queries, and what must never reach a
/// person of the other school, the demo's ids and GR numbers.
struct TwoSchoolWalk {
    let harness: TestHarness
    let demo: School
    let nile: School
    let student: Student
    let schoolClass: SchoolClass
    let demoSecrets: [String]

    init() throws {
        let (harness, schools) = try TestHarness.withDemo(modules: builtInModules)
        self.harness = harness
        demo = try #require(schools.first { $0.slug == "demo" })
        nile = try #require(schools.first { $0.slug == "nile" })
        let admin = harness.user(.admin, in: demo)
        let students = try harness.kernel.run(ListStudents.self, .init(), as: admin, in: demo.id).students
        let classes = try harness.kernel.run(ListClasses.self, .init(), as: admin, in: demo.id)
        student = try #require(students.first)
        schoolClass = try #require(classes.first)
        demoSecrets = students.flatMap { [$0.id, $0.grNumber] } + classes.map(\.id)
    }

    /// Whether an answer to a person of `school` shows a demo row: it may repeat what was asked
    /// for (`asked`), any other demo id or GR number is a leak.
    func leaks(_ text: String, to school: School, asked: String) -> Bool {
        school.id == nile.id && demoSecrets.contains { !asked.contains($0) && text.contains($0) }
    }
}
