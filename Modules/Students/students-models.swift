import Core
import Foundation

public enum StudentStatus: String, Codable, Sendable, CaseIterable {
    case active = "ACTIVE"
    case inactive = "INACTIVE"
    case graduated = "GRADUATED"
    case transferred = "TRANSFERRED"
    case suspended = "SUSPENDED"
}

public enum Gender: String, Codable, Sendable, CaseIterable {
    case male = "MALE"
    case female = "FEMALE"
}

public enum GuardianRelation: String, Codable, Sendable, CaseIterable {
    case mother = "MOTHER"
    case father = "FATHER"
    case grandparent = "GRANDPARENT"
    case sibling = "SIBLING"
    case guardian = "GUARDIAN"
    case other = "OTHER"
}

/// A student as lists and detail views show it.
public struct Student: Codable, Sendable, Equatable {
    public let id: String
    public let grNumber: String
    public let givenName: String
    public let surname: String
    /// The language the name is written in.
    public let nameLanguage: Language
    /// `YYYY-MM-DD`; nil when not recorded (a set imported without demographics, say).
    public let dateOfBirth: String?
    /// Nil when not recorded.
    public let gender: Gender?
    public let status: StudentStatus
    /// `YYYY-MM-DD`.
    public let enrolledOn: String
    public let userID: String?
    /// The class this school year, if enrolled.
    public let classCode: String?
    public let yearLevel: String?
    public let archived: Bool
    /// The class's id (the API's `section_id`), its name and its year level's name; nil when not enrolled this year.
    public let classID: String?
    public let className: LocalizedText?
    public let yearLevelName: LocalizedText?

    public var fullName: String { "\(givenName) \(surname)" }

    /// From a row of `Roster.studentSelect`.
    public init(row: SQLRow) {
        id = row.string("id")
        grNumber = row.string("gr_number")
        givenName = row.string("given_name")
        surname = row.string("surname")
        nameLanguage = Language(rawValue: row.string("name_language")) ?? .ar
        // Stored as '' when not recorded: the columns predate optional details and stay NOT NULL.
        let birth = row.string("date_of_birth")
        dateOfBirth = birth.isEmpty ? nil : birth
        gender = Gender(rawValue: row.string("gender"))
        status = StudentStatus(rawValue: row.string("status")) ?? .active
        enrolledOn = row.string("enrolled_on")
        userID = row["user_id"]
        classCode = row["class_code"]
        yearLevel = row["year_level"]
        archived = (row["archived_at"] as String?) != nil
        classID = row["class_id"]
        className = Self.text(row, "class_name")
        yearLevelName = Self.text(row, "level_name")
    }

    private static func text(_ row: SQLRow, _ prefix: String) -> LocalizedText? {
        guard let ar: String = row[prefix + "_ar"], let en: String = row[prefix + "_en"] else { return nil }
        return LocalizedText(ar: ar, en: en)
    }
}

public struct Guardian: Codable, Sendable, Equatable {
    public let id: String
    public let givenName: String
    public let surname: String
    public let email: String?
    public let phone: String?
    public let userID: String?
    public let relation: GuardianRelation
    public let isPrimary: Bool

    init(row: SQLRow) {
        id = row.string("id")
        givenName = row.string("given_name")
        surname = row.string("surname")
        email = row["email"]
        phone = row["phone"]
        userID = row["user_id"]
        relation = GuardianRelation(rawValue: row.string("relation")) ?? .guardian
        isPrimary = row["is_primary"] ?? false
    }
}

public struct SchoolClass: Codable, Sendable, Equatable {
    public let id: String
    public let code: String
    public let name: LocalizedText
    public let yearLevel: String
    public let homeroomTeacherID: String?
    public let capacity: Int
    public let enrolled: Int

    /// How a class is offered in a list of choices: its code, then its name (`7A · Grade 7 A`).
    public func label(in language: Language) -> String { "\(code) · \(name.text(in: language))" }
}

public struct Subject: Codable, Sendable, Equatable {
    public let id: String
    public let code: String
    public let name: LocalizedText
    public let credits: Double
}

public struct Term: Codable, Sendable, Equatable {
    public let id: String
    public let schoolYear: String
    public let name: LocalizedText
    public let startsOn: String
    public let endsOn: String
}
