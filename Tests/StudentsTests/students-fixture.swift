import Auth
import Core
import Foundation
import HogwartsTestSupport
import Students

/// A school with a year, two classes, teachers, a guardian account and a few students.
struct RosterFixture {
    let harness: TestHarness
    let admin: Principal
    var teacher7A: Principal
    var teacher8A: Principal
    var guardian: Principal
    var studentUser: Principal

    init(clock: @escaping @Sendable () -> Date = { Date(timeIntervalSince1970: 1_795_000_000) }) throws {
        harness = try TestHarness(modules: [AuthModule(), StudentsModule()], clock: clock)
        admin = harness.user(.admin)
        try harness.kernel.setSetting("auth.password-hash-cost", to: "10", for: harness.school.id, by: admin)
        teacher7A = try Self.account("t7a@school.org", .teacher, harness)
        teacher8A = try Self.account("t8a@school.org", .teacher, harness)
        guardian = try Self.account("mum@family.org", .guardian, harness)
        studentUser = try Self.account("pupil@school.org", .student, harness)

        try run(CreateSchoolYear.self, .init(name: "2026-2027", startsOn: "2026-09-01", endsOn: "2027-06-30"))
        try run(CreateYearLevel.self, .init(code: "G7", name: LocalizedText(ar: "السابع", en: "Grade 7"), position: 1))
        try run(CreateYearLevel.self, .init(code: "G8", name: LocalizedText(ar: "الثامن", en: "Grade 8"), position: 2))
        try run(CreateClass.self, .init(code: "7A", name: LocalizedText(ar: "السابع أ", en: "7-A"), yearLevel: "G7", homeroomTeacherEmail: "t7a@school.org", capacity: 3))
        try run(CreateClass.self, .init(code: "8A", name: LocalizedText(ar: "الثامن أ", en: "8-A"), yearLevel: "G8", capacity: 30))
        try run(CreateSubject.self, .init(code: "MATH", name: LocalizedText(ar: "الرياضيات", en: "Maths"), credits: 4))
        try run(AssignTeacher.self, .init(teacherEmail: "t8a@school.org", classCode: "8A", subjectCode: "MATH"))

        try addStudent("GR-1", "أحمد", "عثمان", class: "7A")
        try addStudent("GR-2", "فاطمة", "الأمين", class: "7A")
        try addStudent("GR-3", "مُحَمَّد", "إبراهيم", class: "8A")
        try addStudent("GR-4", "Emma", "Wilson", class: "8A", language: "en")
        try run(LinkGuardian.self, .init(grNumber: "GR-1", givenName: "هالة", surname: "عثمان", email: "mum@family.org", relation: .mother, isPrimary: true))
        try run(LinkGuardian.self, .init(grNumber: "GR-3", givenName: "هالة", surname: "عثمان", email: "mum@family.org", relation: .mother))
    }

    static func account(_ email: String, _ role: Role, _ harness: TestHarness) throws -> Principal {
        let user = try harness.kernel.run(CreateUser.self, .init(email: email, displayName: email, role: role, password: "Corr3ct-Horse"),
                                          as: harness.user(.admin), in: harness.school.id)
        return Principal(userID: user.id, role: role, schoolID: harness.school.id, displayName: email)
    }

    @discardableResult
    func run<A: Action>(_ action: A.Type, _ input: A.Input, as principal: Principal? = nil) throws -> A.Output {
        try harness.kernel.run(action, input, as: principal ?? admin, in: harness.school.id)
    }

    func addStudent(_ gr: String, _ given: String, _ surname: String, class code: String?, language: String = "ar", birth: String = "2013-05-04") throws {
        try run(CreateStudent.self, StudentFields(grNumber: gr, givenName: given, surname: surname, nameLanguage: language,
                                                  dateOfBirth: birth, gender: "MALE", enrolledOn: "2026-09-01", classCode: code))
    }

    func visible(to principal: Principal, search: String? = nil) throws -> [String] {
        try run(ListStudents.self, .init(search: search, sort: .name), as: principal).students.map(\.grNumber).sorted()
    }
}
