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
    /// The class by its id instead of its code (the API's `section_id`). Not a CSV column.
    public var classID: String?
    /// The email of a STUDENT account to tie the new student to (as `students link-account` does). Not a CSV column.
    public var accountEmail: String?

    public init(grNumber: String, givenName: String, surname: String, nameLanguage: String? = nil, dateOfBirth: String,
                gender: String, status: String? = nil, enrolledOn: String? = nil, classCode: String? = nil,
                classID: String? = nil, accountEmail: String? = nil) {
        self.grNumber = grNumber
        self.givenName = givenName
        self.surname = surname
        self.nameLanguage = nameLanguage
        self.dateOfBirth = dateOfBirth
        self.gender = gender
        self.status = status
        self.enrolledOn = enrolledOn
        self.classCode = classCode
        self.classID = classID
        self.accountEmail = accountEmail
    }

    /// The columns of the CSV format, in order.
    public static let columns = ["gr_number", "given_name", "surname", "name_language", "date_of_birth", "gender", "status", "enrolled_on", "class"]
}

/// Field rules shared by add, edit and import, so a CSV row and a command report the same problems.
enum StudentRules {
    /// Every problem with the fields, as (column, catalog key, arguments).
    static func problems(_ fields: StudentFields, today: String) -> [(column: String, key: String, arguments: [String: String])] {
        var problems: [(column: String, key: String, arguments: [String: String])] = []
        // Control characters, a NUL, invalid UTF-8 or an over-long value first: such a field is
        // reported once, for that, and not checked further.
        var unreadable: Set<String> = []
        let texts: [(String, String?, Int)] = [
            ("gr_number", fields.grNumber, 32), ("given_name", fields.givenName, TextLimit.name), ("surname", fields.surname, TextLimit.name),
            ("name_language", fields.nameLanguage, TextLimit.code), ("date_of_birth", fields.dateOfBirth, TextLimit.code),
            ("gender", fields.gender, TextLimit.code), ("status", fields.status, TextLimit.code), ("enrolled_on", fields.enrolledOn, TextLimit.code),
            ("class", fields.classCode, TextLimit.code),
        ]
        for (column, value, max) in texts {
            if let value, let key = TextInput.problem(in: value, maxLength: max) {
                problems.append((column, key, ["field": column, "max": String(max)]))
                unreadable.insert(column)
            }
        }
        func add(_ column: String, _ key: String, _ arguments: [String: String] = [:]) {
            if !unreadable.contains(column) { problems.append((column, key, arguments)) }
        }
        for (column, value) in [("gr_number", fields.grNumber), ("given_name", fields.givenName), ("surname", fields.surname)]
        where value.trimmingCharacters(in: .whitespaces).isEmpty {
            add(column, "students.invalid.required")
        }
        if let language = fields.nameLanguage, !language.isEmpty, Language(rawValue: language.lowercased()) == nil {
            add("name_language", "students.invalid.choice", ["allowed": "ar|en"])
        }
        // Birth date and sex may be left empty when the school does not know them (OneRoster's
        // demographics are optional); what is given must be right.
        if fields.dateOfBirth.isEmpty {
        } else if !isDate(fields.dateOfBirth) {
            add("date_of_birth", "students.invalid.date")
        } else if fields.dateOfBirth >= today {
            add("date_of_birth", "students.invalid.not-past")
        }
        if !fields.gender.isEmpty, Gender(rawValue: fields.gender.uppercased()) == nil {
            add("gender", "students.invalid.choice", ["allowed": Gender.allCases.map(\.rawValue).joined(separator: "|")])
        }
        if let status = fields.status, !status.isEmpty, StudentStatus(rawValue: status.uppercased()) == nil {
            add("status", "students.invalid.choice", ["allowed": StudentStatus.allCases.map(\.rawValue).joined(separator: "|")])
        }
        if let enrolled = fields.enrolledOn, !enrolled.isEmpty {
            if !isDate(enrolled) { add("enrolled_on", "students.invalid.date") }
            else if enrolled > today { add("enrolled_on", "students.invalid.future") }
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
            // Core's text rules carry their own message naming the field.
            if problem.key.hasPrefix("kernel.") { throw InputError(problem.key, problem.arguments.merging(["column": problem.column]) { $1 }) }
            throw InputError("students.error.field", ["column": problem.column, "reason": context.localizer(problem.key, problem.arguments)])
        }
    }
}
