import Foundation

/// The two versions read; exports are always 1.2.
public enum OneRosterVersion: String, Codable, Sendable {
    case v1_1 = "1.1"
    case v1_2 = "1.2"
}

/// How the manifest says a file is given.
enum OneRosterMode: String {
    case bulk, delta, absent
}

/// The columns of each file the import reads, in the specification's order, with the
/// required ones marked (the CSV binding's tables; see `shared/reference/school-standards.md`).
enum OneRosterSpec {
    struct Column {
        let name: String
        let required: Bool
    }

    /// The files the import reads; any other OneRoster file is accepted and left aside.
    static let readFiles = ["orgs", "academicSessions", "courses", "classes", "users", "roles", "enrollments", "demographics"]
    /// Every file name the two versions define, so a set holding one we do not read is still valid.
    static let knownFiles: Set<String> = [
        "academicSessions", "categories", "classes", "classResources", "courses", "courseResources", "demographics", "enrollments",
        "lineItems", "orgs", "resources", "results", "users", "lineItemLearningObjectiveIds", "lineItemScoreScales",
        "resultLearningObjectiveIds", "resultScoreScales", "roles", "scoreScales", "userProfiles", "userResources",
    ]

    private static func columns(_ text: String) -> [Column] {
        ["sourcedId*", "status", "dateLastModified"].map(column) + text.split(separator: " ").map { column(String($0)) }
    }

    private static func column(_ text: String) -> Column {
        text.hasSuffix("*") ? Column(name: String(text.dropLast()), required: true) : Column(name: text, required: false)
    }

    static func columns(of file: String, _ version: OneRosterVersion) -> [Column]? {
        switch (file, version) {
        case ("orgs", _): columns("name* type* identifier parentSourcedId")
        case ("academicSessions", _): columns("title* type* startDate* endDate* parentSourcedId schoolYear*")
        case ("courses", _): columns("schoolYearSourcedId title* courseCode grades orgSourcedId* subjects subjectCodes")
        case ("classes", _): columns("title* grades courseSourcedId* classCode classType* location schoolSourcedId* termSourcedIds* subjects subjectCodes periods")
        case ("enrollments", _): columns("classSourcedId* schoolSourcedId* userSourcedId* role* primary beginDate endDate")
        // `username` is required by the tables, but the issue (and many real exports) accept an email instead: checked per row.
        case ("users", .v1_1): columns("enabledUser* orgSourcedIds* role* username userIds givenName* familyName* middleName identifier email sms phone agentSourcedIds grades password")
        case ("users", .v1_2): columns("enabledUser* username userIds givenName* familyName* middleName identifier email sms phone agentSourcedIds grades password userMasterIdentifier resourceSourcedIds preferredGivenName preferredMiddleName preferredFamilyName primaryOrgSourcedId pronouns")
        case ("roles", .v1_2): columns("userSourcedId* roleType* role* beginDate endDate orgSourcedId* userProfileSourcedId")
        case ("demographics", _): columns("birthDate sex americanIndianOrAlaskaNative asian blackOrAfricanAmerican nativeHawaiianOrOtherPacificIslander white demographicRaceTwoOrMoreRaces hispanicOrLatinoEthnicity countryOfBirthCode stateOfBirthAbbreviation cityOfBirth publicSchoolResidenceStatus")
        // Written by the export only (the gradebook stays in Hogwarts on import).
        case ("categories", .v1_2): columns("title* weight")
        case ("lineItems", .v1_2): columns("title* description assignDate* dueDate* classSourcedId* categorySourcedId* academicSessionSourcedId* resultValueMin resultValueMax schoolSourcedId*")
        case ("results", .v1_2): columns("lineItemSourcedId* studentSourcedId* scoreStatus* score scoreDate* comment textScore classSourcedId inProgress incomplete late missing")
        default: nil
        }
    }

    /// Extension columns are the exporter's own: kept out of the checks, never refused.
    static func isExtension(_ column: String) -> Bool {
        column.hasPrefix("metadata.") || column.hasPrefix("ext_")
    }

    static let orgTypes: Set<String> = ["department", "school", "district", "local", "state", "national"]
    static let sessionTypes: Set<String> = ["gradingPeriod", "semester", "schoolYear", "term"]
    static let classTypes: Set<String> = ["homeroom", "scheduled"]
    static let enrollmentRoles: Set<String> = ["administrator", "proctor", "student", "teacher"]
    static let userRoles11: Set<String> = ["administrator", "aide", "guardian", "parent", "proctor", "relative", "student", "teacher"]
    static let userRoles12: Set<String> = ["aide", "counselor", "districtAdministrator", "guardian", "parent", "principal", "proctor", "relative",
                                           "siteAdministrator", "student", "systemAdministrator", "teacher"]
    static let roleTypes: Set<String> = ["primary", "secondary"]
    static let sexes: Set<String> = ["male", "female", "unspecified", "other"]
    static let booleans: Set<String> = ["true", "false"]

    /// `YYYY-MM-DD`, a real calendar day.
    static func isDate(_ text: String) -> Bool {
        guard text.count == 10, let date = CivilDateText.parse(text) else { return false }
        return date.year >= 1900 && date.year <= 2199
    }

    /// ISO 8601 in UTC, with or without fractions of a second (`2012-04-23T18:25:43.511Z`).
    static func isDateTime(_ text: String) -> Bool {
        guard text.count >= 20, text.hasSuffix("Z"), isDate(String(text.prefix(10))) else { return false }
        let time = text.dropFirst(10).dropLast()
        return time.range(of: #"^T\d{2}:\d{2}:\d{2}(\.\d{1,9})?$"#, options: .regularExpression) != nil
    }

    /// A comma-separated list inside one cell (`"09,10"`), blanks dropped.
    static func list(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}

/// Dates without time zones: the pieces of `YYYY-MM-DD`.
enum CivilDateText {
    static func parse(_ text: String) -> (year: Int, month: Int, day: Int)? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]), (1...12).contains(month) else { return nil }
        let days = [31, year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        guard (1...days).contains(day) else { return nil }
        return (year, month, day)
    }

    /// The day after (or before) a date, for the 1.2 rule that an `endDate` is exclusive.
    static func adding(_ days: Int, to text: String) -> String {
        guard let date = parse(text) else { return text }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .gmt
        guard let day = calendar.date(from: DateComponents(year: date.year, month: date.month, day: date.day)),
              let moved = calendar.date(byAdding: .day, value: days, to: day) else { return text }
        let parts = calendar.dateComponents([.year, .month, .day], from: moved)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }
}
