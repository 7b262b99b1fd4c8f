import Auth
import Core
import Foundation
import Grades
import HogwartsTestSupport
import OneRoster
import Students

/// Spec-shaped OneRoster sets built in code: each file is header plus rows, written by the
/// caller's choice of line ending and byte-order mark.
struct OneRosterFixture {
    var manifest: [[String]]? = [["manifest.version", "1.0"], ["oneroster.version", "1.2"]]
    var files: [String: [[String]]] = [:]
    var bom = false
    var lineEnd = "\n"

    /// A cell as a CSV writer quotes it.
    static func cell(_ value: String) -> String {
        value.contains(where: { ",\"\n\r".contains($0) }) ? "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : value
    }

    func text(_ rows: [[String]]) -> String {
        (bom ? "\u{FEFF}" : "") + rows.map { $0.map(Self.cell).joined(separator: ",") + lineEnd }.joined()
    }

    /// The set as the import's input: file name without `.csv` to text, manifest listing every file.
    var set: [String: String] {
        var texts = files.mapValues(text)
        if var manifest {
            for name in files.keys.sorted() where !manifest.contains(where: { $0[0] == "file." + name }) {
                manifest.append(["file." + name, mode(of: name)])
            }
            texts["manifest"] = text([["propertyName", "value"]] + manifest)
        }
        return texts
    }

    var modes: [String: String] = [:]
    func mode(of name: String) -> String { modes[name] ?? "bulk" }

    static let usersHeader12 = ["sourcedId", "status", "dateLastModified", "enabledUser", "username", "userIds", "givenName", "familyName", "middleName",
                                "identifier", "email", "sms", "phone", "agentSourcedIds", "grades", "password", "userMasterIdentifier",
                                "resourceSourcedIds", "preferredGivenName", "preferredMiddleName", "preferredFamilyName", "primaryOrgSourcedId", "pronouns"]

    /// A user row of 1.2 from the cells that matter.
    static func user(_ id: String, given: String, family: String, email: String = "", username: String = "", identifier: String = "",
                     agents: String = "", status: String = "", modified: String = "", enabled: String = "true") -> [String] {
        [id, status, modified, enabled, username, "", given, family, "", identifier, email, "", "", agents, "", "", "", "", "", "", "", "", ""]
    }

    /// One school, a year with two terms, three courses (one for homerooms), a homeroom class 7A
    /// with two subject sections, two teachers, an admin, three students (Arabic names, a name
    /// with a comma, a location with a line break) and two parents.
    static func bulk() -> OneRosterFixture {
        var fixture = OneRosterFixture()
        fixture.files["orgs"] = [["sourcedId", "status", "dateLastModified", "name", "type", "identifier", "parentSourcedId"],
                                 ["org-d", "", "", "Nile District", "district", "ND", ""],
                                 ["org-1", "", "", "مدرسة الشروق", "school", "SHR", "org-d"]]
        fixture.files["academicSessions"] = [["sourcedId", "status", "dateLastModified", "title", "type", "startDate", "endDate", "parentSourcedId", "schoolYear"],
                                             ["y27", "", "", "2026-2027", "schoolYear", "2026-08-23", "2027-07-01", "", "2027"],
                                             ["t1", "", "", "Term 1", "term", "2026-08-23", "2027-01-01", "y27", "2027"],
                                             ["t2", "", "", "Term 2", "term", "2027-01-02", "2027-07-01", "y27", "2027"]]
        fixture.files["courses"] = [["sourcedId", "status", "dateLastModified", "schoolYearSourcedId", "title", "courseCode", "grades", "orgSourcedId", "subjects", "subjectCodes"],
                                    ["c-math", "", "", "y27", "الرياضيات", "MATH", "07", "org-1", "", ""],
                                    ["c-sci", "", "", "y27", "Science", "SCI", "07", "org-1", "", ""],
                                    ["c-hr7", "", "", "y27", "Homeroom 7", "HR7", "07", "org-1", "", ""]]
        fixture.files["classes"] = [["sourcedId", "status", "dateLastModified", "title", "grades", "courseSourcedId", "classCode", "classType", "location",
                                     "schoolSourcedId", "termSourcedIds", "subjects", "subjectCodes", "periods"],
                                    ["k-7a", "", "", "السابع أ", "07", "c-hr7", "7A", "homeroom", "Room 12\nBuilding B, east", "org-1", "t1,t2", "", "", ""],
                                    ["k-7a-math", "", "", "7A Maths", "07", "c-math", "7A-MATH", "scheduled", "", "org-1", "t1,t2", "", "", ""],
                                    ["k-7a-sci", "", "", "7A Science", "07", "c-sci", "7A-SCI", "scheduled", "", "org-1", "t1", "", "", ""]]
        fixture.files["users"] = [usersHeader12,
                                  user("u-t1", given: "Sara", family: "Ali", email: "sara@shorouq.edu"),
                                  user("u-t2", given: "Omar", family: "Hassan", username: "omar.h"),
                                  user("u-a1", given: "Huda", family: "Karim", email: "huda@shorouq.edu"),
                                  user("u-s1", given: "أحمد", family: "عثمان", email: "ahmed@shorouq.edu", identifier: "S-001", agents: "u-p1"),
                                  user("u-s2", given: "Layla, Jr", family: "Mansour", username: "layla.m", identifier: "S-002", agents: "u-p2"),
                                  user("u-s3", given: "مريم", family: "خالد", email: "maryam@shorouq.edu", identifier: "S-003", agents: "u-p1"),
                                  user("u-p1", given: "هالة", family: "عثمان", email: "hala@family.org"),
                                  user("u-p2", given: "Nadia", family: "Mansour", email: "nadia@family.org")]
        fixture.files["roles"] = [["sourcedId", "status", "dateLastModified", "userSourcedId", "roleType", "role", "beginDate", "endDate", "orgSourcedId", "userProfileSourcedId"]]
            + [("u-t1", "teacher"), ("u-t2", "teacher"), ("u-a1", "principal"), ("u-s1", "student"), ("u-s2", "student"), ("u-s3", "student"),
               ("u-p1", "parent"), ("u-p2", "guardian")].map { ["r-" + $0.0, "", "", $0.0, "primary", $0.1, "", "", "org-1", ""] }
        fixture.files["demographics"] = [["sourcedId", "status", "dateLastModified", "birthDate", "sex", "americanIndianOrAlaskaNative", "asian",
                                          "blackOrAfricanAmerican", "nativeHawaiianOrOtherPacificIslander", "white", "demographicRaceTwoOrMoreRaces",
                                          "hispanicOrLatinoEthnicity", "countryOfBirthCode", "stateOfBirthAbbreviation", "cityOfBirth", "publicSchoolResidenceStatus"]]
            + [("u-s1", "2013-04-02", "male"), ("u-s2", "2013-09-30", "female"), ("u-s3", "2014-01-15", "female"), ("u-p1", "", "female")]
            .map { [$0.0, "", "", $0.1, $0.2, "", "", "", "", "", "", "", "", "", "", ""] }
        let enrolmentHeader = ["sourcedId", "status", "dateLastModified", "classSourcedId", "schoolSourcedId", "userSourcedId", "role", "primary", "beginDate", "endDate"]
        var enrolments = [enrolmentHeader, ["e-1", "", "", "k-7a", "org-1", "u-t1", "teacher", "true", "", ""],
                          ["e-2", "", "", "k-7a-math", "org-1", "u-t1", "teacher", "true", "", ""],
                          ["e-3", "", "", "k-7a-sci", "org-1", "u-t2", "teacher", "true", "", ""]]
        for (index, student) in ["u-s1", "u-s2", "u-s3"].enumerated() {
            for (offset, klass) in ["k-7a", "k-7a-math", "k-7a-sci"].enumerated() {
                enrolments.append(["e-s\(index)-\(offset)", "", "", klass, "org-1", student, "student", "false", "", ""])
            }
        }
        fixture.files["enrollments"] = enrolments
        return fixture
    }
}

/// A school with OneRoster (and what it needs) on, a fixed clock inside 2026-2027, and its admin.
struct OneRosterSchool {
    let harness: TestHarness
    let admin: Principal

    init(grades: Bool = false, also extra: [any AppModule] = []) throws {
        var modules: [any AppModule] = [AuthModule(), StudentsModule(), OneRosterModule()] + extra
        if grades { modules.insert(GradesModule(), at: 2) }
        harness = try TestHarness(modules: modules, clock: { Date(timeIntervalSince1970: 1_795_000_000) })
        admin = harness.user(.admin)
        try harness.kernel.setSetting("auth.password-hash-cost", to: "10", for: harness.school.id, by: admin)
    }

    @discardableResult
    func run<A: Action>(_ action: A.Type, _ input: A.Input, as principal: Principal? = nil) throws -> A.Output {
        try harness.kernel.run(action, input, as: principal ?? admin, in: harness.school.id)
    }

    @discardableResult
    func importSet(_ files: [String: String], dryRun: Bool = false, strict: Bool = false, org: String? = nil, invite: Bool = false) throws -> OneRosterImportReport {
        try run(ImportOneRoster.self, .init(files: files, dryRun: dryRun, strict: strict, org: org, invite: invite))
    }

    /// What a person notices of the roster: totals, accounts by role, classes with their
    /// students and homeroom teacher, subjects, terms, each student's class and guardians, and
    /// who teaches what.
    func signature() throws -> [String] {
        var lines: [String] = []
        let totals = try run(CountRoster.self, .init())
        lines.append("totals \(totals.students) \(totals.teachers) \(totals.guardians) \(totals.classes)")
        let users = try run(ListUsers.self, .init())
        lines += Dictionary(grouping: users, by: \.role).map { "accounts \($0.key.rawValue) \($0.value.count)" }.sorted()
        let emails = Dictionary(users.map { ($0.id, $0.email) }) { first, _ in first }
        lines += try run(ListClasses.self, .init()).map { "class \($0.code) \($0.yearLevel) \($0.enrolled) \($0.homeroomTeacherID.flatMap { emails[$0] } ?? "-")" }
        lines += try run(ListSubjects.self, .init()).map { "subject \($0.code)" }
        lines += try run(ListTerms.self, .init()).map { "term \($0.schoolYear) \($0.startsOn) \($0.endsOn)" }
        for student in try run(ListStudents.self, .init(sort: .name, pageSize: 100)).students {
            let detail = try run(ShowStudent.self, .init(grNumber: student.grNumber))
            lines.append("student \(student.grNumber) \(student.givenName)|\(student.surname) \(student.dateOfBirth ?? "-") \(student.gender?.rawValue ?? "-") "
                         + "\(student.classCode ?? "-") \(detail.accountEmail ?? "-") " + detail.guardians.map { "\($0.email ?? "-"):\($0.relation.rawValue)" }.sorted().joined(separator: ","))
        }
        for teacher in users where teacher.role == .teacher {
            let principal = Principal(userID: teacher.id, role: .teacher, schoolID: harness.school.id, displayName: teacher.displayName)
            for taught in try run(ListTeacherClasses.self, .init(), as: principal) {
                lines.append("teaches \(teacher.email) \(taught.classCode) \(taught.subjectName?.en ?? "homeroom")")
            }
        }
        return lines.sorted()
    }
}
