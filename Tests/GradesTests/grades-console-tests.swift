import Auth
import Core
import Foundation
import Grades
import HogwartsTestSupport
import Students
import Testing

/// Grade entry in the web console: one assessment, a mark per student, one save through
/// `grades.enter-results`, whose problems appear beside the fields with nothing written.
@Suite("Grades in the web console")
struct GradesConsoleTests {
    static let path = "/m/grades/enter"

    @Test("a teacher picks their assessment, a bad mark is shown beside its field and nothing is written, then one save records every mark")
    func entry() async throws {
        let fixture = try GradesFixture()
        let (_, assessment) = try fixture.newAssessment()
        let students = try fixture.run(ListStudents.self, .init(classCode: "7A", sort: .name, pageSize: 100)).students
        let first = try #require(students.first)
        let second = try #require(students.dropFirst().first)
        try await fixture.harness.console { console in
            let dashboard = try await console.signIn("teacher29@databayt.org", AuthDemo.password, school: fixture.school.id)
            #expect(dashboard.html.contains("href=\"\(Self.path)\""))
            let pick = try await console.get(Self.path)
            #expect(pick.html.contains("<html lang=\"ar\" dir=\"rtl\">"))
            #expect(pick.html.contains("<label for=\"assessment\">") && pick.html.contains("value=\"\(assessment.code)\""))
            #expect(pick.html.contains("\u{2066}\(assessment.date)\u{2069}"), "the date is isolated inside the Arabic option")
            let sheet = try await console.get("\(Self.path)?assessment=\(assessment.code)")
            #expect(sheet.html.contains("<label for=\"mark-\(first.grNumber)\">"))
            #expect(sheet.html.components(separatedBy: "name=\"mark.").count - 1 == students.count)
            #expect(sheet.html.components(separatedBy: "<h1").count - 1 == 1)

            let bad = try await console.post(Self.path, [("assessment", assessment.code), ("mark.\(first.grNumber)", "25"), ("mark.\(second.grNumber)", "absent")])
            #expect(bad.html.contains("role=\"alert\""))
            #expect(bad.html.contains("aria-invalid=\"true\" aria-describedby=\"problem-\(first.grNumber)\""))
            #expect(bad.html.contains("value=\"25\""))
            #expect(try !fixture.run(StudentResults.self, .init(grNumber: second.grNumber)).contains { $0.assessment == assessment.code })

            let saved = try await console.post(Self.path, [("assessment", assessment.code), ("mark.\(first.grNumber)", "18.5"), ("mark.\(second.grNumber)", "absent")])
            #expect(saved.html.contains("id=\"saved\""))
            _ = try await console.post("/language", [("lang", "en"), ("back", "\(Self.path)?assessment=\(assessment.code)")])
            let english = try await console.get("\(Self.path)?assessment=\(assessment.code)")
            #expect(english.html.contains("<html lang=\"en\" dir=\"ltr\">") && english.html.contains("Grade entry"))
            // The sheet opens with what was entered, ready to correct.
            #expect(english.html.contains("value=\"18.5\"") && english.html.contains("value=\"absent\""))
        }
        let entered = try fixture.run(AssessmentResults.self, .init(assessment: assessment.code))
        #expect(Set(entered.map(\.studentID)) == [first.id, second.id])
        #expect(entered.first { $0.studentID == first.id }?.score == 18.5)
        #expect(throws: GradesError.self) {
            try fixture.run(AssessmentResults.self, .init(assessment: assessment.code), as: try fixture.account("teacher30@databayt.org"))
        }
        let results = try fixture.run(StudentResults.self, .init(grNumber: first.grNumber))
        #expect(results.contains { $0.assessment == assessment.code })
    }

    @Test("another teacher can neither open nor save marks for the assessment; a guardian has no grade entry")
    func refusals() async throws {
        let fixture = try GradesFixture()
        let (_, assessment) = try fixture.newAssessment()
        let student = try #require(try fixture.run(ListStudents.self, .init(classCode: "7A", sort: .name)).students.first)
        try await fixture.harness.console { console in
            _ = try await console.signIn("teacher30@databayt.org", AuthDemo.password, school: fixture.school.id)
            let pick = try await console.get(Self.path)
            #expect(!pick.html.contains("value=\"\(assessment.code)\""))
            let opened = try await console.get("\(Self.path)?assessment=\(assessment.code)")
            #expect(opened.status >= 400 && opened.html.contains("role=\"alert\""))
            #expect(!opened.html.contains("name=\"mark."))
            let forged = try await console.post(Self.path, [("assessment", assessment.code), ("mark.\(student.grNumber)", "10")])
            #expect(forged.status >= 400)
        }
        #expect(try !fixture.run(StudentResults.self, .init(grNumber: student.grNumber)).contains { $0.assessment == assessment.code })
        try await fixture.harness.console { console in
            _ = try await console.signIn("parent@databayt.org", AuthDemo.password, school: fixture.school.id)
            #expect(try await console.get(Self.path).status == 403)
        }
    }
}
