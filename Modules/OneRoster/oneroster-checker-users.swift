import Auth
import Core
import Foundation
import Students

/// Users, classes and enrolments: the checks that need the people.
extension OneRosterChecker {
    mutating func checkUsers(roles: [String: String], demographics: [String: OneRosterRecord]) {
        guard readable("users") else { return }
        plan.usersAreBulk = set.file("users")?.mode == .bulk
        for enrolment in set.records("enrollments") where !enrolment.isDeleted {
            let user = enrolment["userSourcedId"], role = enrolment["role"]
            if enrolledRoles[user] == nil || role == "teacher" { enrolledRoles[user] = role }
        }
        var emails: [String: Int] = [:]
        for record in set.records("users") {
            checkEnum(record, "enabledUser", OneRosterSpec.booleans)
            checkName(record, "givenName")
            checkName(record, "familyName")
            if set.version == .v1_1 {
                checkEnum(record, "role", OneRosterSpec.userRoles11)
                for org in OneRosterSpec.list(record["orgSourcedIds"]) { checkReference(record, "orgSourcedIds", to: "orgs", kind: OneRosterKind.org, value: org) }
            }
            for agent in OneRosterSpec.list(record["agentSourcedIds"]) { checkReference(record, "agentSourcedIds", to: "users", kind: OneRosterKind.user, value: agent) }
            guard let role = role(of: record, roles) else { continue }
            let email = accountEmail(record, role)
            if let email {
                if let first = emails[email] {
                    add("users", record.row, "email", "oneroster.invalid.duplicate-email", ["row": String(first)])
                } else {
                    emails[email] = record.row
                }
                checkExistingAccount(record, email: email, role: role)
            }
            let (birth, sex) = checkStudentDetails(record, role: role, demographics[record.sourcedId])
            if record["identifier"].count > 32, role == .student {
                add("users", record.row, "identifier", "oneroster.invalid.code-too-long", ["value": record["identifier"], "max": "32"])
            }
            let given = record["preferredGivenName"].isEmpty ? record["givenName"] : record["preferredGivenName"]
            let family = record["preferredFamilyName"].isEmpty ? record["familyName"] : record["preferredFamilyName"]
            plan.users.append(.init(
                sourcedId: record.sourcedId, role: role, sourceRole: roles[record.sourcedId] ?? record["role"], enabled: record["enabledUser"] != "false",
                email: email, givenName: given, familyName: family, identifier: record["identifier"],
                agents: OneRosterSpec.list(record["agentSourcedIds"]), birthDate: birth,
                sex: role == .student ? sex : demographics[record.sourcedId]?["sex"] ?? "", deleted: record.isDeleted, row: record.row))
        }
    }

    /// The user's Hogwarts role: from `role` (1.1) or roles.csv (1.2); a user imported before keeps theirs.
    private mutating func role(of record: OneRosterRecord, _ roles: [String: String]) -> Role? {
        let value = set.version == .v1_1 ? record["role"] : roles[record.sourcedId] ?? ""
        if let role = OneRosterRoles.role(value) { return role }
        if let known = ids.role(of: record.sourcedId) { return known }
        // Without a roles.csv row, the role the user is enrolled with (a teacher's before a student's).
        if value.isEmpty, set.version == .v1_2, !record.isDeleted, !strict, let enrolled = enrolledRoles[record.sourcedId],
           let role = OneRosterRoles.role(enrolled) {
            warn("users", record.row, "sourcedId", "oneroster.warning.role-from-enrollment", ["role": enrolled])
            return role
        }
        if value.isEmpty, set.version == .v1_2, !record.isDeleted {
            add("users", record.row, "sourcedId", "oneroster.invalid.no-role")
        }
        return record.isDeleted ? .user : nil
    }

    /// The email the account signs in with. Without an email, a username that is one; else
    /// staff get `<username>@<school>.invalid` (they need an account to teach), while students
    /// and guardians get their record without an account.
    private mutating func accountEmail(_ record: OneRosterRecord, _ role: Role) -> String? {
        let email = record["email"], username = record["username"]
        if email.isEmpty && username.isEmpty {
            if !record.isDeleted { add("users", record.row, "email", "oneroster.invalid.no-email-or-username") }
            return nil
        }
        var chosen: String?
        if !email.isEmpty { chosen = email } else if username.contains("@") { chosen = username }
        else if role != .student && role != .guardian { chosen = "\(username)@\(context.school.slug).invalid" }
        guard let chosen else { return nil }
        let normalized = UserAccounts.normalize(chosen)
        if normalized.count > UserAccounts.maximumEmailLength || !Self.looksLikeEmail(normalized) {
            add("users", record.row, email.isEmpty ? "username" : "email", "oneroster.invalid.email", ["value": chosen])
            return nil
        }
        return normalized
    }

    /// Auth's rule (`^[^@\s]+@[^@\s]+\.[^@\s]+$`) without a regular expression, which costs more
    /// than the rest of a row's checks; `CreateUser` applies the real one again before writing.
    static func looksLikeEmail(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !text.contains(where: \.isWhitespace) else { return false }
        let domain = parts[1]
        guard let dot = domain.dropFirst().firstIndex(of: ".") else { return false }
        return domain.index(after: dot) < domain.endIndex
    }

    /// An account this school already has with that email is taken over only with the same role:
    /// an import never changes who an existing person is.
    private mutating func checkExistingAccount(_ record: OneRosterRecord, email: String, role: Role) {
        guard ids.target(OneRosterKind.user, record.sourcedId) == nil, let existing = ids.accountRoles[email], existing != role else { return }
        add("users", record.row, "email", "oneroster.invalid.account-role", ["email": email, "role": existing.rawValue])
    }

    /// A new student's birth date and sex come from demographics.csv. Both are optional in
    /// OneRoster: without them the record is made with neither recorded, and a warning says so
    /// (`--strict` refuses, as before). A sex other than male or female (`unspecified`, `other`)
    /// is left unrecorded the same way. A student imported before keeps what they have.
    private mutating func checkStudentDetails(_ record: OneRosterRecord, role: Role, _ demographic: OneRosterRecord?) -> (String, String) {
        guard role == .student, !record.isDeleted else { return ("", "") }
        let birth = demographic?["birthDate"] ?? "", sex = demographic?["sex"] ?? ""
        let recordedSex = ["male", "female"].contains(sex) ? sex : ""
        if ids.target(OneRosterKind.student, record.sourcedId) != nil { return (birth, recordedSex) }
        guard let demographic else {
            warnOrAdd("users", record.row, "sourcedId", strict ? "oneroster.invalid.no-demographics" : "oneroster.warning.no-demographics")
            return ("", "")
        }
        if birth.isEmpty { warnOrAdd("demographics", demographic.row, "birthDate", strict ? "oneroster.invalid.student-birth" : "oneroster.warning.student-birth") }
        else if birth >= today { add("demographics", demographic.row, "birthDate", "oneroster.invalid.not-past") }
        if recordedSex.isEmpty {
            warnOrAdd("demographics", demographic.row, "sex", strict ? "oneroster.invalid.student-sex" : "oneroster.warning.student-sex", ["value": sex])
        }
        return (birth, recordedSex)
    }

    mutating func checkClasses() {
        guard readable("classes") else { return }
        let courseGrades = Dictionary(set.records("courses").map { ($0.sourcedId, OneRosterSpec.list($0["grades"])) }) { first, _ in first }
        let studentGrades = strict ? [:] : enrolledGrades()
        var levels: [String] = []
        for record in set.records("classes") {
            checkEnum(record, "classType", OneRosterSpec.classTypes)
            checkReference(record, "courseSourcedId", to: "courses", kind: OneRosterKind.course)
            checkReference(record, "schoolSourcedId", to: "orgs", kind: OneRosterKind.org)
            for term in OneRosterSpec.list(record["termSourcedIds"]) {
                checkReference(record, "termSourcedIds", to: "academicSessions", kind: OneRosterKind.session, value: term)
            }
            checkName(record, "title")
            let code = record["classCode"].isEmpty ? record["title"] : record["classCode"]
            if code.count > TextLimit.code {
                add("classes", record.row, record["classCode"].isEmpty ? "title" : "classCode", "oneroster.invalid.code-too-long",
                    ["value": code, "max": String(TextLimit.code)])
            }
            let grade = OneRosterSpec.list(record["grades"]).first ?? courseGrades[record["courseSourcedId"]]?.first
            var level = grade.map(OneRosterGrades.levelCode)
            if level == nil, !record.isDeleted, ids.target(OneRosterKind.classRecord, record.sourcedId) == nil {
                if strict {
                    add("classes", record.row, "grades", "oneroster.invalid.no-grade")
                } else if let common = studentGrades[record.sourcedId] {
                    level = OneRosterGrades.levelCode(common)
                    warn("classes", record.row, "grades", "oneroster.warning.grade-from-students", ["grade": common])
                } else {
                    level = OneRosterGrades.unassigned
                    warn("classes", record.row, "grades", "oneroster.warning.grade-unassigned", ["level": OneRosterGrades.unassigned])
                }
            }
            if let level, !levels.contains(level) { levels.append(level) }
            let hint = record["metadata.hogwarts.homeroom"]
            plan.classes.append(.init(
                sourcedId: record.sourcedId, title: record["title"], code: code, isHomeroom: record["classType"] == "homeroom",
                levelCode: level, course: record["courseSourcedId"], homeroomHint: hint.isEmpty ? nil : hint, deleted: record.isDeleted, row: record.row))
        }
        plan.levels = levels
    }

    /// Each class's most common grade among its enrolled students (`users.grades`), for a class without one.
    private func enrolledGrades() -> [String: String] {
        let gradeOf = Dictionary(set.records("users").compactMap { user in OneRosterSpec.list(user["grades"]).first.map { (user.sourcedId, $0) } }) { first, _ in first }
        var tally: [String: [String: Int]] = [:]
        for enrolment in set.records("enrollments") where enrolment["role"] == "student" && !enrolment.isDeleted {
            if let grade = gradeOf[enrolment["userSourcedId"]] { tally[enrolment["classSourcedId"], default: [:]][grade, default: 0] += 1 }
        }
        return tally.compactMapValues { counts in counts.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key }
    }

    mutating func checkEnrollments() {
        guard readable("enrollments") else { return }
        let roles = Dictionary(plan.users.map { ($0.sourcedId, $0.role) }) { first, _ in first }
        let homerooms = Set(plan.classes.filter(\.isHomeroom).map(\.sourcedId))
        var homeroomOf: [String: Int] = [:]
        for record in set.records("enrollments") {
            checkEnum(record, "role", OneRosterSpec.enrollmentRoles)
            checkEnum(record, "primary", OneRosterSpec.booleans)
            checkDate(record, "beginDate")
            checkDate(record, "endDate")
            checkReference(record, "classSourcedId", to: "classes", kind: OneRosterKind.classRecord)
            checkReference(record, "userSourcedId", to: "users", kind: OneRosterKind.user)
            checkReference(record, "schoolSourcedId", to: "orgs", kind: OneRosterKind.org)
            let user = record["userSourcedId"], role = record["role"]
            let userRole = roles[user] ?? ids.role(of: user)
            if !record.isDeleted, let userRole {
                if role == "student", userRole != .student {
                    add("enrollments", record.row, "role", "oneroster.invalid.enrolment-role", ["role": role, "user": userRole.rawValue])
                } else if role == "teacher", userRole != .teacher && userRole != .admin {
                    add("enrollments", record.row, "role", "oneroster.invalid.enrolment-role", ["role": role, "user": userRole.rawValue])
                }
            }
            if role == "student", !record.isDeleted, homerooms.contains(record["classSourcedId"]) {
                if let first = homeroomOf[user] {
                    add("enrollments", record.row, "classSourcedId", "oneroster.invalid.two-homerooms", ["row": String(first)])
                } else {
                    homeroomOf[user] = record.row
                }
            }
            plan.enrollments.append(.init(
                sourcedId: record.sourcedId, classID: record["classSourcedId"], userID: user, role: role,
                primary: record["primary"] == "true", deleted: record.isDeleted, row: record.row))
        }
    }
}
