import Auth
import Core
@testable import Events
import Foundation
import Grades
import HogwartsTestSupport
import Students
import Timetable

/// A school on Wednesday 18 November 2026 with classes 7A (taught by `teacher`, with `student`
/// and her `guardian`) and 7B (with `otherStudent`), a holiday, a 7A exam and a 7B exam; a staff
/// member; and another school.
struct EventsFixture: @unchecked Sendable {
    let harness: TestHarness
    let admin: Principal
    let teacher: Principal
    let student: Principal
    let guardian: Principal
    let otherStudent: Principal
    let staff: Principal
    let otherSchool: School

    static let moment = Date(timeIntervalSince1970: 1_795_000_000)
    static let today = "2026-11-18"

    init(modules: [any AppModule] = [AuthModule(), StudentsModule(), TimetableModule(), GradesModule(), EventsModule()]) throws {
        let harness = try TestHarness(modules: modules, clock: { Self.moment })
        self.harness = harness
        admin = harness.user(.admin)
        try harness.kernel.setSetting("auth.password-hash-cost", to: "10", for: harness.school.id, by: admin)
        teacher = try Self.account("Amal Haddad", "t7a@school.org", .teacher, harness)
        student = try Self.account("Sara Osman", "sara@school.org", .student, harness)
        guardian = try Self.account("Hala Osman", "mum@family.org", .guardian, harness)
        otherStudent = try Self.account("Omar Ali", "omar@school.org", .student, harness)
        staff = try Self.account("Office", "office@school.org", .staff, harness)
        func run<A: Action>(_ action: A.Type, _ input: A.Input) throws { _ = try harness.kernel.run(action, input, as: harness.user(.admin), in: harness.school.id) }
        try run(CreateSchoolYear.self, .init(name: "2026-2027", startsOn: "2026-09-01", endsOn: "2027-06-30"))
        try run(CreateTerm.self, .init(schoolYear: "2026-2027", name: LocalizedText(ar: "الفصل الأول", en: "Term 1"), startsOn: "2026-09-01", endsOn: "2027-01-28"))
        try run(CreateYearLevel.self, .init(code: "G7", name: LocalizedText(ar: "السابع", en: "Grade 7"), position: 1))
        try run(CreateSubject.self, .init(code: "MATH", name: LocalizedText(ar: "الرياضيات", en: "Mathematics")))
        try run(CreateClass.self, .init(code: "7A", name: LocalizedText(ar: "السابع أ", en: "7-A"), yearLevel: "G7", homeroomTeacherEmail: "t7a@school.org"))
        try run(CreateClass.self, .init(code: "7B", name: LocalizedText(ar: "السابع ب", en: "7-B"), yearLevel: "G7"))
        for (gr, email, code) in [("GR-1", "sara@school.org", "7A"), ("GR-2", "omar@school.org", "7B")] {
            try run(CreateStudent.self, StudentFields(grNumber: gr, givenName: "Pupil", surname: gr, nameLanguage: "en", dateOfBirth: "2013-05-04",
                                                      gender: "FEMALE", enrolledOn: "2026-09-01", classCode: code))
            try run(LinkStudentAccount.self, .init(grNumber: gr, email: email))
        }
        try run(LinkGuardian.self, .init(grNumber: "GR-1", givenName: "Hala", surname: "Osman", email: "mum@family.org", relation: .mother))
        if modules.contains(where: { $0.id == "timetable" }) {
            try run(AddClosure.self, .init(from: "2026-11-30", to: "2026-12-02", name: "Mid-term break"))
        }
        if modules.contains(where: { $0.id == "grades" }) {
            for code in ["7A", "7B"] {
                try run(CreateAssessment.self, .init(code: "\(code)-MATH-EXAM", classCode: code, subjectCode: "MATH", term: "Term 1", kind: .exam,
                                                     title: "Maths exam \(code)", date: "2026-12-07", maxMarks: 100, passingMarks: 50, category: "exams"))
            }
        }
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

    /// The titles on a person's calendar over the next month.
    func titles(as principal: Principal) throws -> [String] {
        try run(ListCalendar.self, .init(from: Self.today, to: "2026-12-31"), as: principal).map(\.title)
    }
}
