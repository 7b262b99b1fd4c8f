import Auth
import Core
import Foundation
import GRDB

/// What the HTTP runs send: access tokens minted in-process (signed with the key stored in the
/// database, so `hogwarts serve` accepts them), class C00 and its students, today's date, and an
/// account to sign in with.
struct HTTPFixtures: Sendable {
    /// teacher-0, who teaches class C00 (see `buildRoster`).
    let teacherToken: String
    let adminToken: String
    let classID: String
    let studentIDs: [String]
    let today: String
    let signInEmail: String
    let signInPassword: String

    /// `POST /attendance/bulk`'s body: every student of the class with one status today.
    func bulkAttendanceBody(_ status: String = "PRESENT") -> String {
        let records = studentIDs.map { "{\"student_id\":\"\($0)\",\"status\":\"\(status)\"}" }.joined(separator: ",")
        return "{\"section_id\":\"\(classID)\",\"date\":\"\(today)\",\"records\":[\(records)]}"
    }

    var signInBody: String { "{\"identifier\":\"\(signInEmail)\",\"password\":\"\(signInPassword)\"}" }
}

extension BenchSchool {
    func httpFixtures() throws -> HTTPFixtures {
        // An admin created as an operator would, so their password has the school's bcrypt cost
        // (the bench's teachers carry the demo's cheaper hash).
        let password = "Bench-Sign-In-2026!"
        let admin = try run(CreateUser.self, .init(email: "http-admin@bench.org", displayName: "HTTP Admin", role: .admin, password: password))
        let teacher = Principal(userID: "teacher-0", role: .teacher, schoolID: school.id, displayName: "Teacher 0")
        let headmaster = Principal(userID: admin.id, role: .admin, schoolID: school.id, displayName: admin.displayName)

        let server = APIServer(kernel: kernel)
        let (teacherToken, adminToken) = try Blocking.run {
            let teacherPair = try await server.tokens.issue(for: teacher, email: "t0@bench.org")
            let adminPair = try await server.tokens.issue(for: headmaster, email: admin.email)
            return (teacherPair.accessToken, adminPair.accessToken)
        }

        let schoolID = school.id
        let code = classCodes.first ?? "C00"
        let (classID, students) = try raw.read { db -> (String?, [String]) in
            let id = try String.fetchOne(db, sql: "SELECT id FROM students_classes WHERE school_id = ? AND code = ?", arguments: [schoolID, code])
            let students = try String.fetchAll(db, sql: "SELECT student_id FROM students_enrolments WHERE school_id = ? AND class_id = ? ORDER BY student_id",
                                               arguments: [schoolID, id])
            return (id, students)
        }
        guard let classID, !students.isEmpty else { throw BenchHTTPError("class \(code) has no id or no students") }
        let today = CivilDate(Date(), in: TimeZone(identifier: school.timeZone) ?? .gmt).description
        return HTTPFixtures(teacherToken: teacherToken, adminToken: adminToken, classID: classID, studentIDs: students, today: today,
                            signInEmail: admin.email, signInPassword: password)
    }
}
