@testable import Announcements
import Auth
import Core
import Foundation
import HogwartsTestSupport
import Notifications
import Students

final class MovableClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current = Date(timeIntervalSince1970: 1_795_000_000)
    var now: Date { lock.withLock { current } }
    func advance(hours: Double) { lock.withLock { current = current.addingTimeInterval(hours * 3600) } }
}

/// A school with classes 7A (taught by `teacher`, with `student` and her `guardian`) and 7B (with
/// `otherStudent`), both in year level G7, and 8A in G8 (with `olderStudent`); a staff member, an
/// accountant, and another school with an administrator of its own.
struct AnnouncementsFixture: @unchecked Sendable {
    let harness: TestHarness
    let clock: MovableClock
    let admin: Principal
    let teacher: Principal
    let student: Principal
    let guardian: Principal
    let otherStudent: Principal
    let olderStudent: Principal
    let staff: Principal
    let otherSchool: School

    static let modules: [any AppModule] = [AuthModule(), StudentsModule(), NotificationsModule(), AnnouncementsModule()]

    init() throws {
        let clock = MovableClock()
        self.clock = clock
        let harness = try TestHarness(modules: Self.modules, clock: { clock.now })
        self.harness = harness
        admin = harness.user(.admin)
        try harness.kernel.setSetting("auth.password-hash-cost", to: "10", for: harness.school.id, by: admin)
        teacher = try Self.account("Amal Haddad", "t7a@school.org", .teacher, harness)
        student = try Self.account("Sara Osman", "sara@school.org", .student, harness)
        guardian = try Self.account("Hala Osman", "mum@family.org", .guardian, harness)
        otherStudent = try Self.account("Omar Ali", "omar@school.org", .student, harness)
        olderStudent = try Self.account("Lina Adam", "lina@school.org", .student, harness)
        staff = try Self.account("Office", "office@school.org", .staff, harness)
        func run<A: Action>(_ action: A.Type, _ input: A.Input) throws { _ = try harness.kernel.run(action, input, as: harness.user(.admin), in: harness.school.id) }
        try run(CreateSchoolYear.self, .init(name: "2026-2027", startsOn: "2026-09-01", endsOn: "2027-06-30"))
        try run(CreateYearLevel.self, .init(code: "G7", name: LocalizedText(ar: "السابع", en: "Grade 7"), position: 1))
        try run(CreateYearLevel.self, .init(code: "G8", name: LocalizedText(ar: "الثامن", en: "Grade 8"), position: 2))
        try run(CreateClass.self, .init(code: "7A", name: LocalizedText(ar: "السابع أ", en: "7-A"), yearLevel: "G7", homeroomTeacherEmail: "t7a@school.org"))
        try run(CreateClass.self, .init(code: "7B", name: LocalizedText(ar: "السابع ب", en: "7-B"), yearLevel: "G7", homeroomTeacherEmail: nil))
        try run(CreateClass.self, .init(code: "8A", name: LocalizedText(ar: "الثامن أ", en: "8-A"), yearLevel: "G8", homeroomTeacherEmail: nil))
        for (gr, email, code) in [("GR-1", "sara@school.org", "7A"), ("GR-2", "omar@school.org", "7B"), ("GR-3", "lina@school.org", "8A")] {
            try run(CreateStudent.self, StudentFields(grNumber: gr, givenName: "Pupil", surname: gr, nameLanguage: "en", dateOfBirth: "2013-05-04",
                                                      gender: "FEMALE", enrolledOn: "2026-09-01", classCode: code))
            try run(LinkStudentAccount.self, .init(grNumber: gr, email: email))
        }
        try run(LinkGuardian.self, .init(grNumber: "GR-1", givenName: "Hala", surname: "Osman", email: "mum@family.org", relation: .mother))
        otherSchool = try harness.makeSchool("other-school")
    }

    static func account(_ name: String, _ email: String, _ role: Role, _ harness: TestHarness) throws -> Principal {
        let user = try harness.kernel.run(CreateUser.self, .init(email: email, displayName: name, role: role, password: "Corr3ct-Horse"),
                                          as: harness.user(.admin), in: harness.school.id)
        return Principal(userID: user.id, role: role, schoolID: harness.school.id, displayName: name)
    }

    @discardableResult
    func run<A: Action>(_ action: A.Type, _ input: A.Input, as principal: Principal) throws -> A.Output {
        try harness.kernel.run(action, input, as: principal, in: principal.schoolID ?? harness.school.id)
    }

    func titles(as principal: Principal) throws -> [String] {
        try run(ListAnnouncements.self, .init(), as: principal).items.map(\.title)
    }

    func notifications(of principal: Principal) throws -> [String] {
        try run(ListNotifications.self, .init(), as: principal).notifications.map { $0.title.en }
    }

    /// How many announcements the school holds, whatever their state.
    func stored() throws -> Int {
        try run(ListAnnouncements.self, .init(includeUnpublished: true), as: admin).total
    }
}
