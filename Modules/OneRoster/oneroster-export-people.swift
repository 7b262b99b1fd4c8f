import Auth
import Core
import Foundation
import Students

/// Users (with their roles and demographics) and enrolments, then the gradebook where Grades is on.
extension OneRosterExportBuilder {
    mutating func people(_ classes: [SchoolClass], _ teaching: [OneRosterExportReads.Teaching]) throws {
        let accounts = try OneRosterCall.run(ListUsers.self, .init(), context)
        let accountByID = Dictionary(accounts.map { ($0.id, $0) }) { first, _ in first }
        let links = try OneRosterExportReads.guardianLinks(context)
        let students = try Roster.visibleStudents(context)
        for student in students {
            studentSourced[student.id] = ids.sourcedId(OneRosterKind.student, of: student.id) ?? student.id
        }
        var guardianSourced: [String: String] = [:]
        for link in links where guardianSourced[link.guardianID] == nil {
            guardianSourced[link.guardianID] = ids.sourcedId(OneRosterKind.guardian, of: link.guardianID) ?? link.guardianID
        }
        let levelOf = Dictionary(classes.map { ($0.code, $0.yearLevel) }) { first, _ in first }
        // Staff accounts; students and guardians come with their records below. Developers,
        // accountants and plain users are no part of a school's roster in OneRoster.
        for account in accounts {
            guard let role = Self.role(account.role) else { continue }
            let id = ids.sourcedId(OneRosterKind.user, of: account.id) ?? account.id
            accountSourced[account.id] = id
            let (given, family) = Self.split(account.displayName)
            addUser(id, role: role, enabled: account.status == .active, username: account.email, email: account.email, given: given, family: family)
        }
        for student in students {
            let id = studentSourced[student.id] ?? student.id
            let email = student.userID.flatMap { accountByID[$0]?.email }
            let agents = links.filter { $0.studentID == student.id }.compactMap { guardianSourced[$0.guardianID] }
            addUser(id, role: "student", enabled: student.status == .active, username: email ?? student.grNumber, email: email ?? "",
                    given: student.givenName, family: student.surname, identifier: student.grNumber, agents: agents,
                    grades: student.classCode.flatMap { levelOf[$0] }.map(OneRosterGrades.grade(ofLevel:)) ?? "")
            // A student whose details the school never recorded has no demographics row (it is optional).
            if student.dateOfBirth != nil || student.gender != nil {
                add("demographics", ["sourcedId": id, "birthDate": student.dateOfBirth ?? "", "sex": student.gender?.rawValue.lowercased() ?? ""])
            }
        }
        var written: Set<String> = []
        for link in links where written.insert(link.guardianID).inserted {
            let id = guardianSourced[link.guardianID] ?? link.guardianID
            let children = links.filter { $0.guardianID == link.guardianID }.compactMap { studentSourced[$0.studentID] }
            let role = [.mother, .father].contains(link.relation) ? "parent" : link.relation == .guardian ? "guardian" : "relative"
            addUser(id, role: role, enabled: true, username: link.email ?? id, email: link.email ?? "", given: link.givenName,
                    family: link.surname, agents: children)
            if role == "parent" { add("demographics", ["sourcedId": id, "sex": link.relation == .mother ? "female" : "male"]) }
        }
        enrolments(classes, teaching, students)
    }

    private mutating func addUser(_ id: String, role: String, enabled: Bool, username: String, email: String, given: String, family: String,
                                  identifier: String = "", agents: [String] = [], grades: String = "") {
        add("users", ["sourcedId": id, "enabledUser": enabled ? "true" : "false", "username": username, "givenName": given, "familyName": family,
                      "identifier": identifier, "email": email, "agentSourcedIds": agents.joined(separator: ","), "grades": grades,
                      "primaryOrgSourcedId": school])
        add("roles", ["sourcedId": "role-" + id, "userSourcedId": id, "roleType": "primary", "role": role, "orgSourcedId": school])
    }

    static func role(_ role: Role) -> String? {
        switch role {
        case .admin: "siteAdministrator"
        case .teacher: "teacher"
        case .staff: "aide"
        default: nil
        }
    }

    /// A display name as given and family names: the last word is the family name.
    static func split(_ name: String) -> (String, String) {
        let words = name.split(separator: " ").map(String.init)
        guard words.count > 1, let last = words.last else { return (name, name) }
        return (words.dropLast().joined(separator: " "), last)
    }

    private mutating func enrolments(_ classes: [SchoolClass], _ teaching: [OneRosterExportReads.Teaching], _ students: [Student]) {
        func enrol(_ classID: String, _ userID: String, role: String, primary: Bool) {
            let sourced = ids.sourcedId(OneRosterKind.enrollment, of: classID + "|" + userID)
                ?? (classID.count + userID.count < 250 ? classID + "-" + userID : Digest.sha256Hex(Data((classID + "|" + userID).utf8)))
            add("enrollments", ["sourcedId": sourced, "classSourcedId": classID, "schoolSourcedId": school, "userSourcedId": userID,
                                "role": role, "primary": role == "teacher" ? (primary ? "true" : "false") : ""])
        }
        let sectionsOf = Dictionary(grouping: teaching, by: \.classID)
        let byCode = Dictionary(classes.map { ($0.code, $0) }) { first, _ in first }
        for schoolClass in classes {
            if let teacher = schoolClass.homeroomTeacherID.flatMap({ accountSourced[$0] }), let id = classSourced[schoolClass.id] {
                enrol(id, teacher, role: "teacher", primary: true)
            }
            for row in sectionsOf[schoolClass.id] ?? [] {
                guard let teacher = accountSourced[row.teacherID] else { continue }
                enrol(sectionID(row), teacher, role: "teacher", primary: true)
            }
        }
        for student in students {
            guard let code = student.classCode, let schoolClass = byCode[code], let id = classSourced[schoolClass.id],
                  let user = studentSourced[student.id] else { continue }
            enrol(id, user, role: "student", primary: false)
            for row in sectionsOf[schoolClass.id] ?? [] { enrol(sectionID(row), user, role: "student", primary: false) }
        }
    }

    func sectionID(_ row: OneRosterExportReads.Teaching) -> String {
        sectionID(classID: row.classID, subjectID: row.subjectID)
    }

    func sectionID(classID: String, subjectID: String) -> String {
        ids.sourcedId(OneRosterKind.section, of: classID + "|" + subjectID) ?? classID + "-" + subjectID
    }

    /// Categories, line items and results: only where Grades is on for the school.
    mutating func grades() throws {
        let gradebook = try OneRosterExportReads.grades(context)
        var categories: Set<String> = []
        for assessment in gradebook.assessments {
            if categories.insert(assessment.category).inserted {
                add("categories", ["sourcedId": "category-" + assessment.category, "title": assessment.category])
            }
            add("lineItems", ["sourcedId": assessment.id, "title": assessment.title, "assignDate": assessment.date, "dueDate": assessment.date,
                              "classSourcedId": sectionID(classID: assessment.classID, subjectID: assessment.subjectID),
                              "categorySourcedId": "category-" + assessment.category,
                              "academicSessionSourcedId": termSourced[assessment.termID] ?? assessment.termID,
                              "resultValueMin": "0", "resultValueMax": Self.number(assessment.maxMarks), "schoolSourcedId": school])
        }
        for result in gradebook.results {
            let status = result.state == "EXEMPT" ? "exempt" : result.state == "ABSENT" ? "not submitted" : "fully graded"
            add("results", ["sourcedId": result.assessmentID + "-" + result.studentID, "lineItemSourcedId": result.assessmentID,
                            "studentSourcedId": studentSourced[result.studentID] ?? result.studentID, "scoreStatus": status,
                            "score": result.score.map(Self.number) ?? (result.state == "ABSENT" ? "0" : ""),
                            "scoreDate": String(result.enteredAt.prefix(10))])
        }
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
