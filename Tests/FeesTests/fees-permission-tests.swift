import Auth
import Core
import Fees
import Foundation
import HogwartsTestSupport
import Students
import Testing

@Suite("Fees: who sees and does what")
struct FeesPermissionTests {
    @Test("the accountant records payments; teachers and staff see nothing of fees")
    func roles() throws {
        let fixture = try FeesFixture()
        let student = try fixture.student(in: "11B")
        let accountant = try fixture.account("accountant@databayt.org")
        let paid = try fixture.run(RecordFeePayment.self, .init(student: student.grNumber, amount: "10.00", method: .cash), as: accountant)
        #expect(paid.entry.amountMinor == 1_000)
        for email in ["teacher@databayt.org", "staff@databayt.org"] {
            let person = try fixture.account(email)
            #expect(throws: KernelError.permissionDenied(permission: "fees.read", role: person.role)) {
                try fixture.run(StudentFeeAccount.self, .init(student: student.id), as: person)
            }
            #expect(throws: KernelError.permissionDenied(permission: "fees.manage", role: person.role)) {
                try fixture.run(RecordFeePayment.self, .init(student: student.id, amount: "1", method: .cash), as: person)
            }
        }
        let parent = try fixture.account("parent@databayt.org")
        #expect(throws: KernelError.permissionDenied(permission: "fees.manage", role: .guardian)) {
            try fixture.run(RecordFeePayment.self, .init(student: student.id, amount: "1", method: .cash), as: parent)
        }
    }

    @Test("a guardian sees their own children's accounts; another family's child answers exactly like no student at all")
    func guardian() throws {
        let fixture = try FeesFixture()
        let parent = try fixture.account("parent@databayt.org")
        let children = try fixture.children(of: parent)
        #expect(children.count == 2)
        for child in children {
            #expect(try fixture.run(StudentFeeAccount.self, .init(student: child.id), as: parent).studentID == child.id)
        }
        #expect(Set(try fixture.run(FeeBalances.self, .init(), as: parent).rows.map(\.studentID)) == Set(children.map(\.id)))
        do {
            _ = try fixture.run(StudentFeeAccount.self, .init(), as: parent)
            Issue.record("a guardian of two children must name one")
        } catch FeesError.chooseChild(let names) {
            #expect(children.allSatisfy { names.contains($0.grNumber) })
        }
        let stranger = try fixture.student(in: "12C")
        #expect(throws: FeesError.unknownStudent(stranger.id)) { try fixture.run(StudentFeeAccount.self, .init(student: stranger.id), as: parent) }
        #expect(throws: FeesError.unknownStudent("no-such-student")) {
            try fixture.run(StudentFeeAccount.self, .init(student: "no-such-student"), as: parent)
        }
    }

    @Test("a student sees their own balance only where the school allows it, and never another's")
    func student() throws {
        let fixture = try FeesFixture()
        let student = try fixture.account("student@databayt.org")
        #expect(throws: FeesError.studentsMayNotSee) { try fixture.run(StudentFeeAccount.self, .init(), as: student) }
        _ = try fixture.harness.kernel.setSetting("fees.students-see-balance", to: "true", for: fixture.school.slug, by: .localOperator)
        let me = try #require(try fixture.children(of: student).first)
        #expect(try fixture.run(StudentFeeAccount.self, .init(), as: student).studentID == me.id)
        let classmate = try fixture.student(in: "12A")
        #expect(throws: FeesError.unknownStudent(classmate.id)) { try fixture.run(StudentFeeAccount.self, .init(student: classmate.id), as: student) }
    }

    @Test("another school's accountant is refused here, and finds none of this school's students in their own")
    func otherSchool() throws {
        let fixture = try FeesFixture()
        let student = try fixture.student(in: "7A")
        let foreign = fixture.harness.user(.accountant, in: fixture.other)
        #expect(throws: KernelError.outsideSchool(school: fixture.school.slug)) {
            try fixture.harness.kernel.run(StudentFeeAccount.self, .init(student: student.id), as: foreign, in: fixture.school.id)
        }
        #expect(throws: FeesError.unknownStudent(student.id)) {
            try fixture.harness.kernel.run(RecordFeePayment.self, .init(student: student.id, amount: "5", method: .cash), as: foreign, in: fixture.other.id)
        }
    }
}
