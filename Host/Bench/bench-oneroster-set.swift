import Foundation

/// The OneRoster benchmark's set, built deterministically in code: a school year with two
/// terms, 4 subject courses and 6 homeroom courses, homerooms of 25 students each with three
/// subject sections, their teachers, and one administrator. At full scale: 9,600 students,
/// 399 teachers and an admin (10,000 users) and exactly 40,000 enrollments.
struct BenchOneRosterSet {
    let students: Int
    let teachers: Int
    let homerooms: Int
    var files: [String: String] = [:]
    private(set) var enrollmentCount = 0

    static let sections = ["MATH", "SCI", "ENG"]

    init(students: Int) {
        self.students = students
        homerooms = students / 25
        teachers = max(4, students / 24 - 1)
        files["manifest"] = Self.csv(["propertyName", "value"], [["manifest.version", "1.0"], ["oneroster.version", "1.2"]]
            + ["orgs", "academicSessions", "courses", "classes", "users", "roles", "demographics", "enrollments"].map { ["file." + $0, "bulk"] })
        files["orgs"] = Self.csv(["sourcedId", "status", "dateLastModified", "name", "type", "identifier", "parentSourcedId"],
                                 [["org", "", "", "مدرسة القياس", "school", "BENCH", ""]])
        files["academicSessions"] = Self.csv(["sourcedId", "status", "dateLastModified", "title", "type", "startDate", "endDate", "parentSourcedId", "schoolYear"],
                                             [["y", "", "", "2026-2027", "schoolYear", "2026-08-01", "2027-07-01", "", "2027"],
                                              ["t1", "", "", "Term 1", "term", "2026-08-01", "2026-12-21", "y", "2027"],
                                              ["t2", "", "", "Term 2", "term", "2026-12-21", "2027-07-01", "y", "2027"]])
        files["courses"] = Self.csv(["sourcedId", "status", "dateLastModified", "schoolYearSourcedId", "title", "courseCode", "grades", "orgSourcedId", "subjects", "subjectCodes"],
                                    (Self.sections + ["ART"]).map { ["c-\($0)", "", "", "y", $0, $0, "", "org", "", ""] }
                                    + (7...12).map { ["hr-\($0)", "", "", "y", "Homeroom \($0)", "HR\($0)", String(format: "%02d", $0), "org", "", ""] })
        build()
    }

    private mutating func build() {
        var classes: [[String]] = []
        var users: [[String]] = []
        var roles: [[String]] = []
        var demographics: [[String]] = []
        var enrollments: [[String]] = []
        let given = ["أحمد", "محمد", "فاطمة", "آمنة", "عمر", "مريم", "يوسف", "سارة", "Emma", "Noah"]
        let surnames = ["عثمان", "الأمين", "إبراهيم", "الطيب", "محجوب", "Hall", "Green"]
        func user(_ id: String, _ role: String, _ given: String, _ family: String, email: String, identifier: String = "") {
            users.append([id, "", "", "true", email, "", given, family, "", identifier, email, "", "", "", "", "", "", "", "", "", "", "", ""])
            roles.append(["r-" + id, "", "", id, "primary", role, "", "", "org", ""])
        }
        user("admin", "principal", "Bench", "Admin", email: "admin@bench.org")
        for index in 0..<teachers { user("t\(index)", "teacher", "Teacher", "No \(index)", email: "t\(index)@bench.org") }
        var teacher = 0
        func nextTeacher() -> String {
            defer { teacher = (teacher + 1) % teachers }
            return "t\(teacher)"
        }
        for room in 0..<homerooms {
            let grade = 7 + room % 6
            let code = "H\(room)"
            classes.append(["k\(room)", "", "", code, String(format: "%02d", grade), "hr-\(grade)", code, "homeroom", "", "org", "t1,t2", "", "", ""])
            enrollments.append(["e-k\(room)", "", "", "k\(room)", "org", nextTeacher(), "teacher", "true", "", ""])
            for subject in Self.sections {
                classes.append(["k\(room)-\(subject)", "", "", "\(code) \(subject)", String(format: "%02d", grade), "c-\(subject)", "\(code)-\(subject)", "scheduled", "", "org", "t1,t2", "", "", ""])
                enrollments.append(["e-k\(room)-\(subject)", "", "", "k\(room)-\(subject)", "org", nextTeacher(), "teacher", "true", "", ""])
            }
            for seat in 0..<25 {
                let number = room * 25 + seat
                let id = "s\(number)"
                user(id, "student", given[number % given.count], surnames[number % surnames.count], email: "s\(number)@bench.org",
                     identifier: "GR-\(number)")
                demographics.append([id, "", "", String(format: "2012-%02d-%02d", number % 12 + 1, number % 28 + 1), number % 2 == 0 ? "male" : "female"]
                                    + Array(repeating: "", count: 11))
                for klass in ["k\(room)"] + Self.sections.map({ "k\(room)-\($0)" }) {
                    enrollments.append(["e-\(id)-\(klass)", "", "", klass, "org", id, "student", "false", "", ""])
                }
            }
        }
        // Co-teachers (secondary) until exactly 40,000 at full scale: counted, noted, not imported.
        var extra = 0
        while enrollments.count < students * 40_000 / 9_600 {
            enrollments.append(["e-co\(extra)", "", "", "k\(extra % homerooms)-SCI", "org", nextTeacher(), "teacher", "false", "", ""])
            extra += 1
        }
        enrollmentCount = enrollments.count
        files["classes"] = Self.csv(["sourcedId", "status", "dateLastModified", "title", "grades", "courseSourcedId", "classCode", "classType", "location",
                                     "schoolSourcedId", "termSourcedIds", "subjects", "subjectCodes", "periods"], classes)
        files["users"] = Self.csv(["sourcedId", "status", "dateLastModified", "enabledUser", "username", "userIds", "givenName", "familyName", "middleName",
                                   "identifier", "email", "sms", "phone", "agentSourcedIds", "grades", "password", "userMasterIdentifier",
                                   "resourceSourcedIds", "preferredGivenName", "preferredMiddleName", "preferredFamilyName", "primaryOrgSourcedId", "pronouns"], users)
        files["roles"] = Self.csv(["sourcedId", "status", "dateLastModified", "userSourcedId", "roleType", "role", "beginDate", "endDate", "orgSourcedId",
                                   "userProfileSourcedId"], roles)
        files["demographics"] = Self.csv(["sourcedId", "status", "dateLastModified", "birthDate", "sex", "americanIndianOrAlaskaNative", "asian",
                                          "blackOrAfricanAmerican", "nativeHawaiianOrOtherPacificIslander", "white", "demographicRaceTwoOrMoreRaces",
                                          "hispanicOrLatinoEthnicity", "countryOfBirthCode", "stateOfBirthAbbreviation", "cityOfBirth",
                                          "publicSchoolResidenceStatus"], demographics)
        files["enrollments"] = Self.csv(["sourcedId", "status", "dateLastModified", "classSourcedId", "schoolSourcedId", "userSourcedId", "role", "primary",
                                         "beginDate", "endDate"], enrollments)
    }

    var userCount: Int { students + teachers + 1 }

    static func csv(_ header: [String], _ rows: [[String]]) -> String {
        ([header] + rows).map { $0.map { $0.contains(",") ? "\"\($0)\"" : $0 }.joined(separator: ",") }.joined(separator: "\r\n") + "\r\n"
    }
}
