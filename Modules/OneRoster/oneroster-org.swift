import Core
import Foundation

/// A set with several schools (a district's export): the import takes one, chosen by its
/// `sourcedId` or `identifier`, and leaves out the rows that belong only to the others.
extension OneRosterSet {
    /// The schools the set holds.
    var schools: [OneRosterRecord] {
        records("orgs").filter { $0["type"].lowercased() == "school" && !$0.isDeleted }
    }

    static func choice(_ school: OneRosterRecord) -> OneRosterSchoolChoice {
        OneRosterSchoolChoice(sourcedId: school.sourcedId, identifier: school["identifier"], name: school["name"])
    }

    /// Keeps the chosen school's rows; throws the list of schools when none or an unknown one is chosen.
    mutating func choose(_ org: String?, _ context: ActionContext) throws {
        let schools = self.schools
        guard let org else {
            if schools.count > 1 { throw OneRosterError.severalSchools(schools.map(Self.choice)) }
            return
        }
        guard let chosen = schools.first(where: { $0.sourcedId == org || $0["identifier"] == org }) else {
            throw OneRosterError.severalSchools(schools.map(Self.choice))
        }
        let others = Set(schools.map(\.sourcedId)).subtracting([chosen.sourcedId])
        guard !others.isEmpty else { return }
        func elsewhere(_ ids: [String]) -> Bool { !ids.isEmpty && ids.allSatisfy(others.contains) }
        keep("courses", context) { !elsewhere([$0["orgSourcedId"]]) }
        keep("classes", context) { !elsewhere([$0["schoolSourcedId"]]) }
        let classes = Set(records("classes").map(\.sourcedId))
        keep("enrollments", context) { !elsewhere([$0["schoolSourcedId"]]) && classes.contains($0["classSourcedId"]) }
        // A user's schools from all their roles, read before the other schools' roles go.
        var orgsOf: [String: [String]] = [:]
        for role in records("roles") { orgsOf[role["userSourcedId"], default: []].append(role["orgSourcedId"]) }
        keep("roles", context) { !elsewhere([$0["orgSourcedId"]]) }
        keep("users", context) { user in
            let orgs = OneRosterSpec.list(user["orgSourcedIds"]) + [user["primaryOrgSourcedId"]].filter { !$0.isEmpty } + (orgsOf[user.sourcedId] ?? [])
            return orgs.isEmpty || !elsewhere(orgs)
        }
        let users = Set(records("users").map(\.sourcedId))
        keep("demographics", context) { users.contains($0.sourcedId) }
        warnings.append(OneRosterViolation(file: "orgs.csv", row: chosen.row, column: "sourcedId",
                                           reason: context.localizer("oneroster.warning.org-chosen", ["school": Self.choice(chosen).description])))
    }

    /// Leaves out a file's rows that fail `test`, with one warning saying how many.
    private mutating func keep(_ name: String, _ context: ActionContext, _ test: (OneRosterRecord) -> Bool) {
        guard var file = files[name] else { return }
        let before = file.records.count
        file.records = file.records.filter(test)
        files[name] = file
        if file.records.count < before {
            warnings.append(OneRosterViolation(file: file.fileName, row: 1, column: "-",
                                               reason: context.localizer("oneroster.warning.other-schools", ["count": String(before - file.records.count)])))
        }
    }
}
