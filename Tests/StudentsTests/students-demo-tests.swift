import Auth
import Core
import Foundation
import HogwartsTestSupport
import Students
import Testing

@Suite("Demo school")
struct StudentsDemoTests {
    static func demo() throws -> (TestHarness, School, School) {
        let harness = try TestHarness(modules: [AuthModule(), StudentsModule()], clock: { Date(timeIntervalSince1970: 1_795_000_000) })
        let schools = try harness.kernel.createDemoSchools()
        return (harness, schools[0], schools[1])
    }

    @Test("the demo school is realistic and its test accounts are wired to real data")
    func wired() throws {
        let (harness, demo, _) = try Self.demo()
        let kernel = harness.kernel
        let admin = harness.user(.admin, in: demo)
        #expect(try kernel.run(ListStudents.self, .init(), as: admin, in: demo.id).total >= 400)
        let teachers = try kernel.run(ListUsers.self, .init(role: .teacher), as: admin, in: demo.id)
        #expect(teachers.count == 30)
        #expect(try kernel.run(ListTerms.self, .init(), as: admin, in: demo.id).count == 2)
        #expect(try kernel.run(ListSubjects.self, .init(), as: admin, in: demo.id).count == 12)
        let classes = try kernel.run(ListClasses.self, .init(), as: admin, in: demo.id)
        #expect(Set(classes.map(\.yearLevel)).count == 6)

        func principal(_ email: String) throws -> Principal {
            let result = try kernel.run(SignIn.self, .init(email: email, password: AuthDemo.password), as: .anonymous, in: demo.id)
            let user = try #require(result.user, "\(email) signs in with the demo password")
            return Principal(userID: user.id, role: user.role, schoolID: demo.id, displayName: user.displayName)
        }
        let parent = try kernel.run(ListStudents.self, .init(), as: try principal("parent@databayt.org"), in: demo.id).students
        #expect(parent.count == 2)
        #expect(Set(parent.compactMap(\.classCode)).count == 2, "two children in different classes")
        let student = try kernel.run(ListStudents.self, .init(), as: try principal("student@databayt.org"), in: demo.id).students
        #expect(student.count == 1 && student.first?.classCode != nil)
        let taught = try kernel.run(ListStudents.self, .init(), as: try principal("teacher@databayt.org"), in: demo.id)
        #expect(taught.total > 24, "teacher@ teaches several classes")
        #expect(try principal("admin@databayt.org").role == .admin)
        #expect(try principal("dev@databayt.org").role == .developer)
    }

    @Test("the second school is smaller, isolated, and shares the parent's email")
    func secondSchool() throws {
        let (harness, demo, nile) = try Self.demo()
        let kernel = harness.kernel
        let nileStudents = try kernel.run(ListStudents.self, .init(), as: harness.user(.admin, in: nile), in: nile.id)
        #expect(nileStudents.total > 0 && nileStudents.total < 100)
        let demoGRs = Set(try kernel.run(ExportStudents.self, .init(), as: harness.user(.admin, in: demo), in: demo.id).map(\.grNumber))
        #expect(nileStudents.students.allSatisfy { !demoGRs.contains($0.grNumber) })
        for school in [demo, nile] {
            #expect(try kernel.run(FindAccount.self, .init(email: "parent@databayt.org"), as: .anonymous, in: school.id))
        }
    }

    @Test("the same seed gives the same data")
    func deterministic() throws {
        let (first, firstDemo, _) = try Self.demo()
        let (second, secondDemo, _) = try Self.demo()
        let a = try first.kernel.run(ExportStudents.self, .init(), as: first.user(.admin, in: firstDemo), in: firstDemo.id)
        let b = try second.kernel.run(ExportStudents.self, .init(), as: second.user(.admin, in: secondDemo), in: secondDemo.id)
        #expect(a == b)
        let usersA = try first.kernel.run(ListUsers.self, .init(), as: first.user(.admin, in: firstDemo), in: firstDemo.id).map(\.id)
        let usersB = try second.kernel.run(ListUsers.self, .init(), as: second.user(.admin, in: secondDemo), in: secondDemo.id).map(\.id)
        #expect(usersA == usersB, "ids too")
    }
}
