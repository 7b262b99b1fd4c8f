import Auth
import Core
import Foundation

/// What a checked set asks for, in Hogwarts' terms. Built only when the set is valid.
struct OneRosterPlan {
    struct Session {
        let sourcedId: String
        let title: String
        let type: String
        let startsOn: String
        /// Inclusive, as Hogwarts keeps it (1.2's `endDate` is exclusive).
        let endsOn: String
        /// The Hogwarts school year's name, `2026-2027`.
        let yearName: String
        let deleted: Bool
        let row: Int
    }

    struct Course {
        let sourcedId: String
        let title: String
        let code: String
        let deleted: Bool
        let row: Int
    }

    struct SchoolClass {
        let sourcedId: String
        let title: String
        let code: String
        let isHomeroom: Bool
        let levelCode: String?
        let course: String
        /// A scheduled class's homeroom, from the `metadata.hogwarts.homeroom` column Hogwarts writes.
        let homeroomHint: String?
        let deleted: Bool
        let row: Int
    }

    struct User {
        let sourcedId: String
        let role: Role
        /// The OneRoster role, for a guardian's relation.
        let sourceRole: String
        let enabled: Bool
        /// The account's email; nil for a student or guardian given neither an email nor an email-like username.
        let email: String?
        let givenName: String
        let familyName: String
        let identifier: String
        let agents: [String]
        let birthDate: String
        let sex: String
        let deleted: Bool
        let row: Int
    }

    struct Enrollment {
        let sourcedId: String
        let classID: String
        let userID: String
        let role: String
        let primary: Bool
        let deleted: Bool
        let row: Int
    }

    var version: OneRosterVersion = .v1_2
    var sessions: [Session] = []
    var courses: [Course] = []
    var classes: [SchoolClass] = []
    var users: [User] = []
    var enrollments: [Enrollment] = []
    var orgs: [(sourcedId: String, deleted: Bool)] = []
    /// Year levels the classes name, by Hogwarts code.
    var levels: [String] = []
    /// Users of a bulk users file: those imported before and missing now are archived.
    var usersAreBulk = false
}

/// Grades (CEDS codes) and Hogwarts year levels: `07` is `G7`, as the demo names them.
enum OneRosterGrades {
    static let order = ["IT", "PR", "PK", "TK", "KG"] + (1...13).map { String(format: "%02d", $0) } + ["PS", "UG", "Other"]
    /// The year level of a class with no grade anywhere in the set: the admin sees it and moves the class.
    static let unassigned = "UNASSIGNED"

    static func levelCode(_ grade: String) -> String {
        if let number = Int(grade), (1...13).contains(number) { return "G\(number)" }
        return String(grade.prefix(40))
    }

    static func grade(ofLevel code: String) -> String {
        if code.hasPrefix("G"), let number = Int(code.dropFirst()), (1...13).contains(number) { return String(format: "%02d", number) }
        return code
    }

    static func position(_ code: String) -> Int {
        (order.firstIndex(of: grade(ofLevel: code)) ?? order.count) + 1
    }

    static func name(_ code: String) -> LocalizedText {
        let grade = grade(ofLevel: code)
        if let number = Int(grade) { return LocalizedText(ar: "الصف \(number)", en: "Grade \(number)") }
        switch grade {
        case "KG": return LocalizedText(ar: "الروضة", en: "Kindergarten")
        case "PK": return LocalizedText(ar: "ما قبل الروضة", en: "Pre-kindergarten")
        case unassigned: return LocalizedText(ar: "صف غير محدد", en: "Unassigned")
        default: return LocalizedText(ar: code, en: code)
        }
    }
}

/// OneRoster roles as Hogwarts roles.
enum OneRosterRoles {
    static func role(_ value: String) -> Role? {
        switch value {
        case "student": .student
        case "teacher": .teacher
        case "parent", "guardian", "relative": .guardian
        case "administrator", "siteAdministrator", "principal", "districtAdministrator", "systemAdministrator": .admin
        case "aide", "proctor", "counselor": .staff
        default: nil
        }
    }
}
