import Core
import Foundation

/// A student's fields as typed on the command line or read from a CSV row.
public struct StudentFields: Codable, Sendable, Equatable {
    public var grNumber: String
    public var givenName: String
    public var surname: String
    public var nameLanguage: String?
    public var dateOfBirth: String
    public var gender: String
    public var status: String?
    public var enrolledOn: String?
    public var classCode: String?

    public init(grNumber: String, givenName: String, surname: String, nameLanguage: String? = nil, dateOfBirth: String,
                gender: String, status: String? = nil, enrolledOn: String? = nil, classCode: String? = nil) {
        self.grNumber = grNumber
        self.givenName = givenName
        self.surname = surname
        self.nameLanguage = nameLanguage
        self.dateOfBirth = dateOfBirth
        self.gender = gender
        self.status = status
        self.enrolledOn = enrolledOn
        self.classCode = classCode
    }

    /// The columns of the CSV format, in order.
    public static let columns = ["gr_number", "given_name", "surname", "name_language", "date_of_birth", "gender", "status", "enrolled_on", "class"]
}

/// Field rules shared by add, edit and import, so a CSV row and a command report the same problems.
enum StudentRules {
    /// Every problem with the fields, as (column, catalog key, arguments).
    static func problems(_ fields: StudentFields, today: String) -> [(column: String, key: String, arguments: [String: String])] {
        var problems: [(String, String, [String: String])] = []
        func required(_ value: String, _ column: String, max: Int) {
            let trimmed = value.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { problems.append((column, "students.invalid.required", [:])) }
            else if trimmed.count > max { problems.append((column, "students.invalid.too-long", ["max": String(max)])) }
        }
        required(fields.grNumber, "gr_number", max: 32)
        required(fields.givenName, "given_name", max: 100)
        required(fields.surname, "surname", max: 100)
        if let language = fields.nameLanguage, !language.isEmpty, Language(rawValue: language.lowercased()) == nil {
            problems.append(("name_language", "students.invalid.choice", ["allowed": "ar|en"]))
        }
        if !isDate(fields.dateOfBirth) {
            problems.append(("date_of_birth", "students.invalid.date", [:]))
        } else if fields.dateOfBirth >= today {
            problems.append(("date_of_birth", "students.invalid.not-past", [:]))
        }
        if Gender(rawValue: fields.gender.uppercased()) == nil {
            problems.append(("gender", "students.invalid.choice", ["allowed": Gender.allCases.map(\.rawValue).joined(separator: "|")]))
        }
        if let status = fields.status, !status.isEmpty, StudentStatus(rawValue: status.uppercased()) == nil {
            problems.append(("status", "students.invalid.choice", ["allowed": StudentStatus.allCases.map(\.rawValue).joined(separator: "|")]))
        }
        if let enrolled = fields.enrolledOn, !enrolled.isEmpty {
            if !isDate(enrolled) { problems.append(("enrolled_on", "students.invalid.date", [:])) }
            else if enrolled > today { problems.append(("enrolled_on", "students.invalid.future", [:])) }
        }
        return problems
    }

    /// A real calendar date written `YYYY-MM-DD`, after 1900.
    static func isDate(_ text: String) -> Bool {
        CivilDate(text) != nil && (Int(text.prefix(4)) ?? 0) > 1900
    }

    /// Throws the first problem, localized for the caller, for single-student commands.
    static func check(_ fields: StudentFields, _ context: ActionContext) throws {
        if let problem = problems(fields, today: Roster.today(context)).first {
            throw InputError("students.error.field", ["column": problem.column, "reason": context.localizer(problem.key, problem.arguments)])
        }
    }
}
