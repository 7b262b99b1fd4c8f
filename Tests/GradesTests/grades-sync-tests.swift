import Auth
import Core
import Foundation
import Grades
import HogwartsTestSupport
import Students
import Testing

/// Seed 000 §9.2 for grades: server wins. And what each role's app receives of them.
@Suite("Grades: offline sync")
struct GradesSyncTests {
    /// Every entity an app of the caller holds after its snapshot and a pull.
    static func replica(_ fixture: GradesFixture, as principal: Principal, in school: School? = nil) throws -> [String: [String: APIValue]] {
        try TestDevice(fixture.harness.kernel, as: principal, in: (school ?? fixture.school).id).entities
    }

    static func results(_ replica: [String: [String: APIValue]]) -> [[String: APIValue]] {
        replica.filter { $0.key.hasPrefix("grades.result/") }.map(\.value)
    }

    static func push(_ fixture: GradesFixture, seq: Int, client: String, as principal: Principal, _ args: [String: APIValue]) throws -> SyncPushResult? {
        try fixture.harness.kernel.syncPush(SyncPushRequest(clientId: client, mutations: [
            SyncPushMutation(seq: seq, id: "00000000-0000-4000-8000-\(String(format: "%012d", seq))", name: "grades.enter-results@1", args: .object(args)),
        ]), as: principal, in: fixture.school.id).results.first
    }

    static func entry(_ assessment: String, _ student: String, _ result: String) -> [String: APIValue] {
        ["assessment": .string(assessment), "byStudentID": true,
         "lines": .array([.object(["student": .string(student), "result": .string(result)])])]
    }

    @Test("grades.enter-results@1 pushed twice enters the result once, and the teacher's and the student's apps receive it")
    func appliedOnce() throws {
        let fixture = try GradesFixture(withAttendance: false)
        try fixture.run(AssignTeacher.self, .init(teacherEmail: "teacher29@databayt.org", classCode: "7A", subjectCode: "MATH"))
        let teacher = try fixture.account("teacher29@databayt.org")
        // Term 2 is not published: its marks are still the teachers'.
        let assessment = try fixture.run(CreateAssessment.self, .init(code: "7A-MATH-T2Q", classCode: "7A", subjectCode: "MATH", term: "Term 2", kind: .quiz,
                                                                      title: "Quiz", date: "2027-02-10", maxMarks: 20, passingMarks: 10, category: "coursework"),
                                         as: teacher)
        let student = try #require(try fixture.run(ListStudents.self, .init(classCode: "7A")).students.first)
        let client = UUID().uuidString.lowercased()
        let args = Self.entry(assessment.id, student.id, "17.5")
        #expect(try Self.push(fixture, seq: 1, client: client, as: teacher, args)?.status == .applied)
        #expect(try Self.push(fixture, seq: 1, client: client, as: teacher, args)?.status == .duplicate)
        let entered = try fixture.run(AssessmentResults.self, .init(assessment: assessment.id), as: teacher)
        #expect(entered.map(\.score) == [17.5])
        let runs = try fixture.harness.kernel.auditLog(for: fixture.school.id, limit: 100).filter { $0.action == EnterResults.id }
        #expect(runs.count == 1, "the action ran once")
        let id = "grades.result/\(assessment.id):\(student.id)"
        #expect(try Self.replica(fixture, as: teacher)[id]?["score"] == .double(17.5))
        if let account = student.userID {
            let own = Principal(userID: account, role: .student, schoolID: fixture.school.id, displayName: "s")
            let replica = try Self.replica(fixture, as: own)
            #expect(replica[id]?["state"] == .string("SCORED"))
            #expect(replica["grades.assessment/\(assessment.id)"]?["maxMarks"] == .double(20))
        }
    }

    @Test("an offline entry into a published term is rejected with the server's marks; the next entry is not blocked")
    func publishedTermWins() throws {
        let fixture = try GradesFixture(withAttendance: false)
        try fixture.run(AssignTeacher.self, .init(teacherEmail: "teacher29@databayt.org", classCode: "7A", subjectCode: "MATH"))
        let teacher = try fixture.account("teacher29@databayt.org")
        // Term 1 is published in the demo.
        let server = try #require(try fixture.run(AssessmentResults.self, .init(assessment: "7A-MATH-Q1"), as: teacher).first { $0.state == .scored })
        let client = UUID().uuidString.lowercased()
        let rejected = try #require(try Self.push(fixture, seq: 1, client: client, as: teacher, Self.entry("7A-MATH-Q1", server.studentID, "0")))
        #expect(rejected.status == .rejected && rejected.code == "GRADES_RESULTS_LOCKED")
        #expect(rejected.error?.contains("Term 1") == true)
        guard case .object(let current) = rejected.current, case .array(let marks) = current["results"], case .object(let mark) = marks.first else {
            Issue.record("no current value: \(String(describing: rejected.current))")
            return
        }
        #expect(marks.count == 1 && mark["studentId"] == .string(server.studentID) && mark["score"] == server.score.map(APIValue.double))
        let after = try fixture.run(AssessmentResults.self, .init(assessment: "7A-MATH-Q1"), as: teacher).first { $0.studentID == server.studentID }
        #expect(after?.score == server.score, "the server's mark stands")
        // A list position is refused offline; the queue goes on.
        var byPosition = Self.entry("7A-MATH-Q1", "1", "10")
        byPosition["byStudentID"] = false
        let position = try Self.push(fixture, seq: 2, client: client, as: teacher, byPosition)
        #expect(position?.status == .rejected && position?.code == "GRADES_OFFLINE_STUDENT_ID")
        let created = try fixture.run(CreateAssessment.self, .init(code: "7A-MATH-T2", classCode: "7A", subjectCode: "MATH", term: "Term 2", kind: .test,
                                                                   title: "Test", date: "2027-03-01", maxMarks: 50, passingMarks: 25, category: "coursework"),
                                      as: teacher)
        #expect(try Self.push(fixture, seq: 3, client: client, as: teacher, Self.entry(created.id, server.studentID, "absent"))?.status == .applied)
    }

    @Test("a student receives their own results only, a guardian their children's, a teacher her class's; another school nothing")
    func visibility() throws {
        let fixture = try GradesFixture(withAttendance: false)
        let student = try fixture.account("student@databayt.org")
        let me = try #require(try fixture.run(ListStudents.self, .init(), as: student).students.first)
        let mine = Self.results(try Self.replica(fixture, as: student))
        #expect(!mine.isEmpty)
        #expect(mine.allSatisfy { $0["studentId"] == .string(me.id) }, "never a classmate's result")

        let parent = try fixture.account("parent@databayt.org")
        let children = Set(try fixture.run(ListStudents.self, .init(), as: parent).students.map(\.id))
        let theirs = Self.results(try Self.replica(fixture, as: parent))
        #expect(children.count == 2 && !theirs.isEmpty)
        #expect(theirs.allSatisfy { if case .string(let id) = $0["studentId"] { children.contains(id) } else { false } })
        #expect(Set(theirs.compactMap { if case .string(let id) = $0["studentId"] { id } else { nil } }) == children, "both children's")

        try fixture.run(AssignTeacher.self, .init(teacherEmail: "teacher29@databayt.org", classCode: "7A", subjectCode: "MATH"))
        let teacher = try fixture.account("teacher29@databayt.org")
        let taught = Set(try fixture.run(ListStudents.self, .init(classCode: "7A")).students.map(\.id))
        let replica = try Self.replica(fixture, as: teacher)
        let classResults = Self.results(replica)
        #expect(classResults.contains { if case .string(let id) = $0["studentId"] { taught.contains(id) } else { false } })
        #expect(replica.keys.contains { $0.hasPrefix("grades.assessment/") })

        let nile = try #require(try fixture.harness.kernel.schools().first { $0.slug == "nile" })
        let demoIDs = Set(mine.compactMap { if case .string(let id) = $0["id"] { id } else { nil } })
        for email in ["admin@nile.databayt.org", "parent@databayt.org"] {
            guard let user = try fixture.harness.kernel.run(SignIn.self, .init(email: email, password: AuthDemo.password), as: .anonymous, in: nile.id).user
            else { continue }
            let other = try Self.replica(fixture, as: Principal(userID: user.id, role: user.role, schoolID: nile.id, displayName: "n"), in: nile)
            #expect(other.keys.allSatisfy { key in !demoIDs.contains { key.hasSuffix($0) } }, "\(email) at nile sees no demo result")
            #expect(Self.results(other).allSatisfy { $0["studentId"] != .string(me.id) })
        }
    }
}
