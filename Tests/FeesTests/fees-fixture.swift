import Auth
import Core
import Fees
import Foundation
import HogwartsTestSupport
import Students
import Testing

/// The demo schools on 22 November 2026 with their year of fees: term 1's tuition, books and
/// three months of transport are due, the rest of the year is still to come.
struct FeesFixture {
    let harness: TestHarness
    let school: School
    let other: School

    static let moment = (try? Date.ISO8601FormatStyle().parse("2026-11-22T06:00:00Z")) ?? Date()

    /// - Parameter more: modules beside Auth, Students and Fees (Notifications, to see reminders arrive).
    init(with more: [any AppModule] = []) throws {
        let (harness, schools) = try TestHarness.withDemo(modules: [AuthModule(), StudentsModule()] + more + [FeesModule()], clock: { Self.moment })
        self.harness = harness
        school = schools[0]
        other = schools[1]
    }

    var admin: Principal { harness.user(.admin, in: school) }

    func account(_ email: String, in school: School? = nil) throws -> Principal {
        let school = school ?? self.school
        let result = try harness.kernel.run(SignIn.self, .init(email: email, password: AuthDemo.password), as: .anonymous, in: school.id)
        guard let user = result.user else { throw AuthError.signInRefused }
        return Principal(userID: user.id, role: user.role, schoolID: school.id, displayName: user.displayName)
    }

    @discardableResult
    func run<A: Action>(_ action: A.Type, _ input: A.Input, as principal: Principal? = nil) throws -> A.Output {
        try harness.kernel.run(action, input, as: principal ?? admin, in: school.id)
    }

    /// The first student of a class, as an admin sees them.
    func student(in classCode: String) throws -> Student {
        try #require(try run(ListStudents.self, .init(classCode: classCode)).students.first)
    }

    func children(of principal: Principal) throws -> [Student] {
        try run(ListStudents.self, .init(), as: principal).students
    }

    /// Every receipt sequence number of a year, in order.
    func receiptNumbers(year: Int = 2026) throws -> [Int] {
        let students = try run(FeeBalances.self, .init()).rows
        return try students.flatMap { try run(StudentFeeAccount.self, .init(student: $0.studentID)).entries.map(\.receipt) }
            .filter { $0.hasPrefix("\(year)-") }.compactMap { Int($0.dropFirst(5)) }.sorted()
    }
}
