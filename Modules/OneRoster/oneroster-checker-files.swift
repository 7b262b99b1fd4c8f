import Auth
import Core
import Foundation

/// The checks of each file, and the plan they build.
extension OneRosterChecker {
    mutating func checkOrgs() {
        guard readable("orgs") else { return }
        var schools: [OneRosterRecord] = []
        for record in set.records("orgs") {
            checkEnum(record, "type", OneRosterSpec.orgTypes)
            checkReference(record, "parentSourcedId", to: "orgs", kind: OneRosterKind.org)
            if record["type"] == "school" && !record.isDeleted { schools.append(record) }
            plan.orgs.append((record.sourcedId, record.isDeleted))
        }
        // The school is the tenant: one school's set at a time.
        for extra in schools.dropFirst() where org == nil {
            add("orgs", extra.row, "type", "oneroster.invalid.several-schools", ["first": schools[0].sourcedId])
        }
    }

    mutating func checkSessions() {
        guard readable("academicSessions") else { return }
        for record in set.records("academicSessions") {
            checkEnum(record, "type", OneRosterSpec.sessionTypes)
            checkDate(record, "startDate")
            checkDate(record, "endDate")
            checkReference(record, "parentSourcedId", to: "academicSessions", kind: OneRosterKind.session)
            let start = record["startDate"], end = record["endDate"], year = record["schoolYear"]
            if OneRosterSpec.isDate(start), OneRosterSpec.isDate(end), end <= start {
                add("academicSessions", record.row, "endDate", "oneroster.invalid.date-order", ["start": start, "end": end])
            }
            guard year.count == 4, let ending = Int(year), (1901...2199).contains(ending) else {
                if !year.isEmpty { add("academicSessions", record.row, "schoolYear", "oneroster.invalid.year", ["value": year]) }
                continue
            }
            plan.sessions.append(.init(
                sourcedId: record.sourcedId, title: record["title"], type: record["type"], startsOn: start,
                endsOn: set.version == .v1_2 ? CivilDateText.adding(-1, to: end) : end, yearName: "\(ending - 1)-\(ending)",
                deleted: record.isDeleted, row: record.row))
        }
    }

    mutating func checkCourses() {
        guard readable("courses") else { return }
        for record in set.records("courses") {
            checkReference(record, "orgSourcedId", to: "orgs", kind: OneRosterKind.org)
            checkReference(record, "schoolYearSourcedId", to: "academicSessions", kind: OneRosterKind.session)
            let code = record["courseCode"].isEmpty ? record.sourcedId : record["courseCode"]
            if code.count > TextLimit.code {
                add("courses", record.row, record["courseCode"].isEmpty ? "sourcedId" : "courseCode", "oneroster.invalid.code-too-long",
                    ["value": code, "max": String(TextLimit.code)])
            }
            checkName(record, "title")
            plan.courses.append(.init(sourcedId: record.sourcedId, title: record["title"], code: code, deleted: record.isDeleted, row: record.row))
        }
    }

    /// 1.2 keeps roles apart: each user's role for the school, the primary one first.
    mutating func checkRoles() -> [String: String] {
        guard set.version == .v1_2, readable("roles") else { return [:] }
        var roles: [String: (role: String, primary: Bool)] = [:]
        for record in set.records("roles") where !record.isDeleted {
            checkEnum(record, "roleType", OneRosterSpec.roleTypes)
            checkEnum(record, "role", OneRosterSpec.userRoles12)
            checkDate(record, "beginDate")
            checkDate(record, "endDate")
            checkReference(record, "userSourcedId", to: "users", kind: OneRosterKind.user)
            checkReference(record, "orgSourcedId", to: "orgs", kind: OneRosterKind.org)
            let user = record["userSourcedId"], primary = record["roleType"] == "primary"
            if roles[user] == nil || (primary && roles[user]?.primary == false) { roles[user] = (record["role"], primary) }
        }
        return roles.mapValues(\.role)
    }

    mutating func checkDemographics() -> [String: OneRosterRecord] {
        guard readable("demographics") else { return [:] }
        var byUser: [String: OneRosterRecord] = [:]
        for record in set.records("demographics") {
            checkDate(record, "birthDate")
            checkEnum(record, "sex", OneRosterSpec.sexes)
            checkReference(record, "sourcedId", to: "users", kind: OneRosterKind.user)
            byUser[record.sourcedId] = record
        }
        return byUser
    }

    /// A name Hogwarts stores and prints: one line, no control characters, at most `TextLimit.name`.
    mutating func checkName(_ record: OneRosterRecord, _ column: String) {
        if let key = TextInput.problem(in: record[column], maxLength: TextLimit.name) {
            add(record.fileName, record.row, column, key, ["field": column, "max": String(TextLimit.name)])
        }
    }
}
