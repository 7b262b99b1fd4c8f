import Auth
import Core
import Foundation

/// A guardian as the admission form gives them: `LinkGuardian`'s fields, the relation as typed.
public struct AdmissionGuardian: Codable, Sendable, Equatable {
    public var givenName: String
    public var surname: String
    public var email: String?
    public var phone: String?
    /// One of `GuardianRelation`'s values (`MOTHER`); anything else is a problem of this field.
    public var relation: String
    public var isPrimary: Bool

    public init(givenName: String, surname: String, email: String? = nil, phone: String? = nil, relation: String, isPrimary: Bool = false) {
        self.givenName = givenName
        self.surname = surname
        self.email = email
        self.phone = phone
        self.relation = relation
        self.isPrimary = isPrimary
    }
}

/// One problem of an admission, named by its field (`date_of_birth`, `guardian1.email`), in the caller's language.
public struct AdmissionProblem: Codable, Sendable, Equatable {
    public let field: String
    public let message: String
}

/// An admission with problems: every one of them, so a form can show each beside its field.
public struct AdmissionError: HogwartsError, Equatable {
    public let problems: [AdmissionProblem]
    public var messageKey: String { "students.error.invalid-admission" }
    public var messageArguments: [String: String] { ["count": String(problems.count)] }
    public var exitStatus: ExitStatus { .invalidData }
}

/// Adds a student with their guardians in one transaction: the student as `CreateStudent` adds
/// them (the same checks, a blank GR number allocated), each guardian as `LinkGuardian` links
/// them (one with the same email in the school is reused). Every problem of the student and of
/// each guardian is found before anything is written, and a refusal writes nothing. Needs
/// `students.manage` and, for the guardians, the roster's `students.roster.manage` at the school's reach.
public struct AdmitStudent: Action {
    public struct Input: Codable, Sendable {
        public var student: StudentFields
        public var guardians: [AdmissionGuardian]

        public init(student: StudentFields, guardians: [AdmissionGuardian]) {
            self.student = student
            self.guardians = guardians
        }
    }

    public static let id = "students.admit"
    public static let permission = StudentsPermissions.manage
    /// Guardians a form may bring with one student.
    public static let guardianLimit = 4

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        guard context.scope(for: StudentsPermissions.manageRoster) == .school else {
            throw KernelError.permissionDenied(permission: StudentsPermissions.manageRoster.id, role: context.principal.role)
        }
        let problems = try AdmissionChecks.problems(input, context)
        if !problems.isEmpty { throw AdmissionError(problems: problems) }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> StudentDetail {
        let student = try CreateStudent().perform(input.student, in: context)
        for guardian in input.guardians {
            let email = guardian.email.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.flatMap { $0.isEmpty ? nil : $0 }
            let phone = guardian.phone.map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
            let id = try GuardianWriter.findOrCreate(givenName: guardian.givenName, surname: guardian.surname, email: email, phone: phone,
                                                     id: context.newID(), context)
            try GuardianWriter.link(guardianID: id, studentID: student.id, relation: GuardianRelation(rawValue: guardian.relation) ?? .guardian,
                                    isPrimary: guardian.isPrimary, context)
        }
        context.auditDetail = "\(student.grNumber) with \(input.guardians.count) guardians"
        return try StudentDetail.load(student, context)
    }
}

/// The admission's checks, each problem kept with its field instead of stopping at the first.
enum AdmissionChecks {
    static func problems(_ input: Input, _ context: ActionContext) throws -> [AdmissionProblem] {
        var problems = try student(input.student, context)
        if input.guardians.isEmpty || input.guardians.count > AdmitStudent.guardianLimit {
            problems.append(.init(field: "guardians", message: context.localizer("students.error.admission-guardians", ["max": String(AdmitStudent.guardianLimit)])))
        }
        var emails: Set<String> = []
        for (index, guardian) in input.guardians.prefix(AdmitStudent.guardianLimit).enumerated() {
            let prefix = "guardian\(index + 1)."
            problems += self.guardian(guardian, prefix: prefix, context)
            // Two guardians with one email would be one person linked twice, the second link overwriting the first.
            if let email = guardian.email?.trimmingCharacters(in: .whitespaces).lowercased(), !email.isEmpty, !emails.insert(email).inserted,
               !problems.contains(where: { $0.field == prefix + "email" }) {
                problems.append(.init(field: prefix + "email", message: sameEmail.text(in: context.localizer.language)))
            }
        }
        return problems
    }

    static let sameEmail = LocalizedText(ar: "هذا البريد لوليّ أمر آخر في النموذج؛ لكل وليّ أمر بريده، أو اتركه فارغًا.",
                                         en: "Another guardian in this form has this email; give each guardian their own, or leave it empty.")

    typealias Input = AdmitStudent.Input

    /// `CreateStudent`'s checks, every field's first problem.
    private static func student(_ input: StudentFields, _ context: ActionContext) throws -> [AdmissionProblem] {
        var problems: [AdmissionProblem] = []
        var fields = input
        func add(_ field: String, _ error: any Error) {
            if !problems.contains(where: { $0.field == field }) { problems.append(.init(field: field, message: context.localizer.message(for: error))) }
        }
        if let id = input.classID {
            do {
                try TextInput.check(id, field: words("class", context), maxLength: TextLimit.name)
                fields.classCode = try Roster.classCode(id: id, context)
            } catch let error as any HogwartsError { add("class", error) }
        }
        let allocated = input.grNumber.trimmingCharacters(in: .whitespaces).isEmpty
        if allocated { fields.grNumber = try GRNumbers.next(context).number }
        for problem in StudentRules.problems(fields, today: Roster.today(context)) where !problems.contains(where: { $0.field == problem.column }) {
            problems.append(.init(field: problem.column, message: sentence(problem.key, problem.arguments, field: problem.column, context)))
        }
        let named = Set(problems.map(\.field))
        if !allocated, !named.contains("gr_number") {
            do { try StudentWriter.checkUnique(gr: fields.grNumber, excluding: nil, context) } catch let error as any HogwartsError { add("gr_number", error) }
        }
        if let code = fields.classCode, !code.isEmpty, !named.contains("class") {
            do { try StudentWriter.checkSeat(code: code, context) } catch let error as any HogwartsError { add("class", error) }
        }
        if let email = input.accountEmail {
            do {
                try TextInput.check(email, field: words("email", context), maxLength: UserAccounts.maximumEmailLength)
                _ = try StudentAccounts.id(email: email, context)
            } catch let error as any HogwartsError { add("account_email", error) }
        }
        return problems
    }

    /// `LinkGuardian`'s checks of one guardian, and a relation the roster knows.
    private static func guardian(_ guardian: AdmissionGuardian, prefix: String, _ context: ActionContext) -> [AdmissionProblem] {
        var problems: [AdmissionProblem] = []
        func check(_ field: String, _ work: () throws -> Void) {
            do { try work() } catch { problems.append(.init(field: prefix + field, message: context.localizer.message(for: error))) }
        }
        for (field, value) in [("given_name", guardian.givenName), ("surname", guardian.surname)] {
            if let key = TextInput.problem(in: value, maxLength: TextLimit.name) {
                problems.append(.init(field: prefix + field, message: sentence(key, ["max": String(TextLimit.name)], field: field, context)))
            } else if value.trimmingCharacters(in: .whitespaces).isEmpty {
                problems.append(.init(field: prefix + field, message: sentence("students.invalid.required", [:], field: field, context)))
            }
        }
        if let email = guardian.email, !email.trimmingCharacters(in: .whitespaces).isEmpty {
            check("email") {
                try TextInput.check(email, field: words("email", context), maxLength: 254)
                let trimmed = email.trimmingCharacters(in: .whitespaces)
                if trimmed.range(of: #"^[^@\s]+@[^@\s]+\.[^@\s]+$"#, options: .regularExpression) == nil {
                    throw InputError("students.error.guardian-email", ["email": trimmed])
                }
            }
        }
        if let phone = guardian.phone { check("phone") { try TextInput.check(phone, field: words("phone", context), maxLength: TextLimit.code) } }
        if GuardianRelation(rawValue: guardian.relation) == nil {
            problems.append(.init(field: prefix + "relation", message: context.localizer("students.error.admission-relation")))
        }
        return problems
    }

    /// A field's problem as a sentence that names the field in words: "Date of birth: must be
    /// before today. Correct it and try again.", never its column name.
    private static func sentence(_ key: String, _ arguments: [String: String], field: String, _ context: ActionContext) -> String {
        let name = words(field, context)
        if key == "students.invalid.required" { return context.localizer("students.error.required", ["field": name]) }
        // Core's text rules carry their own sentence naming the field.
        if key.hasPrefix("kernel.") { return context.localizer(key, arguments.merging(["field": name]) { $1 }) }
        return context.localizer("students.error.field", ["column": name, "reason": context.localizer(key, arguments)])
    }

    /// The form's name for a field, in the caller's language.
    static func words(_ field: String, _ context: ActionContext) -> String {
        let text: LocalizedText = switch field {
        case "gr_number": LocalizedText(ar: "رقم القيد", en: "GR number")
        case "given_name": LocalizedText(ar: "الاسم الأول", en: "Given name")
        case "surname": LocalizedText(ar: "اسم العائلة", en: "Surname")
        case "name_language": LocalizedText(ar: "لغة كتابة الاسم", en: "The name's language")
        case "date_of_birth": LocalizedText(ar: "تاريخ الميلاد", en: "Date of birth")
        case "gender": LocalizedText(ar: "الجنس", en: "Sex")
        case "status": LocalizedText(ar: "الحالة", en: "Status")
        case "enrolled_on": LocalizedText(ar: "تاريخ القيد", en: "Enrolment date")
        case "class": LocalizedText(ar: "الفصل", en: "Class")
        case "email": LocalizedText(ar: "البريد الإلكتروني", en: "Email")
        case "phone": LocalizedText(ar: "الهاتف", en: "Phone")
        default: LocalizedText(ar: field, en: field)
        }
        return text.text(in: context.localizer.language)
    }
}
