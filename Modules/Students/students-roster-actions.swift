import Core
import Foundation

/// Adds a school year (`2026-2027`, from, to); its terms come after.
public struct CreateSchoolYear: Action {
    public struct Input: Codable, Sendable {
        public var name: String
        public var startsOn: String
        public var endsOn: String
        public init(name: String, startsOn: String, endsOn: String) {
            self.name = name
            self.startsOn = startsOn
            self.endsOn = endsOn
        }
    }

    public static let id = "students.create-school-year"
    public static let permission = StudentsPermissions.manageRoster

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        try RosterRules.requireName(input.name, field: "name", max: TextLimit.code)
        try RosterRules.requireRange(input.startsOn, input.endsOn)
        let taken: Int = try context.database.fetchValue(
            "SELECT COUNT(*) FROM students_school_years WHERE school_id = :school_id AND name = :name", ["name": .text(input.name)]) ?? 0
        if taken > 0 { throw StudentsError.codeTaken(input.name) }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> String {
        let id = context.newID()
        try context.database.insert(into: "students_school_years", [
            "id": .text(id), "name": .text(input.name), "starts_on": .text(input.startsOn), "ends_on": .text(input.endsOn),
        ])
        return id
    }
}

/// Adds a term inside a school year.
public struct CreateTerm: Action {
    public struct Input: Codable, Sendable {
        public var schoolYear: String
        public var name: LocalizedText
        public var startsOn: String
        public var endsOn: String
        public init(schoolYear: String, name: LocalizedText, startsOn: String, endsOn: String) {
            self.schoolYear = schoolYear
            self.name = name
            self.startsOn = startsOn
            self.endsOn = endsOn
        }
    }

    public static let id = "students.create-term"
    public static let permission = StudentsPermissions.manageRoster

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        try RosterRules.requireName(input.name.ar, field: "name_ar")
        try RosterRules.requireName(input.name.en, field: "name_en")
        try RosterRules.requireRange(input.startsOn, input.endsOn)
        let year = try RosterRules.schoolYear(named: input.schoolYear, context)
        guard input.startsOn >= year.string("starts_on"), input.endsOn <= year.string("ends_on") else {
            throw InputError("students.error.term-outside-year", ["year": input.schoolYear])
        }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Term {
        let id = context.newID()
        try context.database.insert(into: "students_terms", [
            "id": .text(id), "school_year_id": .text(try RosterRules.schoolYear(named: input.schoolYear, context).string("id")),
            "name_ar": .text(input.name.ar), "name_en": .text(input.name.en),
            "starts_on": .text(input.startsOn), "ends_on": .text(input.endsOn),
        ])
        return Term(id: id, schoolYear: input.schoolYear, name: input.name, startsOn: input.startsOn, endsOn: input.endsOn)
    }
}

/// Adds a year level (grade), such as `G7` "Grade 7" / «الصف السابع».
public struct CreateYearLevel: Action {
    public struct Input: Codable, Sendable {
        public var code: String
        public var name: LocalizedText
        public var position: Int
        public init(code: String, name: LocalizedText, position: Int) {
            self.code = code
            self.name = name
            self.position = position
        }
    }

    public static let id = "students.create-year-level"
    public static let permission = StudentsPermissions.manageRoster

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        try RosterRules.requireName(input.code, field: "code", max: TextLimit.code)
        try RosterRules.requireName(input.name.ar, field: "name_ar")
        try RosterRules.requireName(input.name.en, field: "name_en")
        guard (0...100).contains(input.position) else { throw InputError("students.error.position") }
        if try RosterRules.yearLevelID(code: input.code, context) != nil { throw StudentsError.codeTaken(input.code) }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> String {
        let id = context.newID()
        try context.database.insert(into: "students_year_levels", [
            "id": .text(id), "code": .text(input.code), "name_ar": .text(input.name.ar), "name_en": .text(input.name.en),
            "position": .integer(Int64(input.position)),
        ])
        return id
    }
}

/// Adds a class (section) to the current school year, with its homeroom teacher and capacity.
public struct CreateClass: Action {
    public struct Input: Codable, Sendable {
        public var code: String
        public var name: LocalizedText
        public var yearLevel: String
        public var homeroomTeacherEmail: String?
        public var capacity: Int
        public init(code: String, name: LocalizedText, yearLevel: String, homeroomTeacherEmail: String? = nil, capacity: Int = 30) {
            self.code = code
            self.name = name
            self.yearLevel = yearLevel
            self.homeroomTeacherEmail = homeroomTeacherEmail
            self.capacity = capacity
        }
    }

    public static let id = "students.create-class"
    public static let permission = StudentsPermissions.manageRoster

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        try RosterRules.requireName(input.code, field: "code", max: TextLimit.code)
        try RosterRules.requireName(input.name.ar, field: "name_ar")
        try RosterRules.requireName(input.name.en, field: "name_en")
        guard (1...200).contains(input.capacity) else { throw InputError("students.error.capacity") }
        guard try RosterRules.yearLevelID(code: input.yearLevel, context) != nil else { throw StudentsError.unknownYearLevel(input.yearLevel) }
        if (try? Roster.classID(code: input.code, context)) != nil { throw StudentsError.codeTaken(input.code) }
        _ = try Roster.requireSchoolYear(context)
        if let email = input.homeroomTeacherEmail { _ = try RosterRules.teacherID(email: email, context) }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> String {
        let id = context.newID()
        try context.database.insert(into: "students_classes", [
            "id": .text(id), "school_year_id": .text(try Roster.requireSchoolYear(context)),
            "year_level_id": .text(try RosterRules.yearLevelID(code: input.yearLevel, context) ?? ""),
            "code": .text(input.code), "name_ar": .text(input.name.ar), "name_en": .text(input.name.en),
            "homeroom_teacher_id": SQLValue(try input.homeroomTeacherEmail.map { try RosterRules.teacherID(email: $0, context) }),
            "capacity": .integer(Int64(input.capacity)),
        ])
        return id
    }
}

/// Adds a subject with its credits (for GPA weighting; 1 when unsure).
public struct CreateSubject: Action {
    public struct Input: Codable, Sendable {
        public var code: String
        public var name: LocalizedText
        public var credits: Double
        public init(code: String, name: LocalizedText, credits: Double = 1) {
            self.code = code
            self.name = name
            self.credits = credits
        }
    }

    public static let id = "students.create-subject"
    public static let permission = StudentsPermissions.manageRoster

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        try RosterRules.requireName(input.code, field: "code", max: TextLimit.code)
        try RosterRules.requireName(input.name.ar, field: "name_ar")
        try RosterRules.requireName(input.name.en, field: "name_en")
        guard input.credits.isFinite, input.credits > 0, input.credits <= 20 else { throw InputError("students.error.credits") }
        if try Roster.subjectID(code: input.code, context) != nil { throw StudentsError.codeTaken(input.code) }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> String {
        let id = context.newID()
        try context.database.insert(into: "students_subjects", [
            "id": .text(id), "code": .text(input.code), "name_ar": .text(input.name.ar), "name_en": .text(input.name.en),
            "credits": .real(input.credits),
        ])
        return id
    }
}

/// Gives a teacher a subject in a class (one teacher per class and subject).
public struct AssignTeacher: Action {
    public struct Input: Codable, Sendable {
        public var teacherEmail: String
        public var classCode: String
        public var subjectCode: String
        public init(teacherEmail: String, classCode: String, subjectCode: String) {
            self.teacherEmail = teacherEmail
            self.classCode = classCode
            self.subjectCode = subjectCode
        }
    }

    public static let id = "students.assign-teacher"
    public static let permission = StudentsPermissions.manageRoster

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        _ = try RosterRules.teacherID(email: input.teacherEmail, context)
        _ = try Roster.classID(code: input.classCode, context)
        guard try Roster.subjectID(code: input.subjectCode, context) != nil else { throw StudentsError.unknownSubject(input.subjectCode) }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Bool {
        try context.database.execute("""
            INSERT INTO students_teaching (school_id, teacher_user_id, class_id, subject_id) VALUES (:school_id, :teacher, :class, :subject)
            ON CONFLICT (school_id, class_id, subject_id) DO UPDATE SET teacher_user_id = excluded.teacher_user_id
            """, [
                "teacher": .text(try RosterRules.teacherID(email: input.teacherEmail, context)),
                "class": .text(try Roster.classID(code: input.classCode, context)),
                "subject": .text(try Roster.subjectID(code: input.subjectCode, context) ?? ""),
            ])
        return true
    }
}

/// Puts a student in a class of the current school year (moving them if already in one).
public struct EnrolStudent: Action {
    public struct Input: Codable, Sendable {
        public var grNumber: String
        public var classCode: String
        public init(grNumber: String, classCode: String) {
            self.grNumber = grNumber
            self.classCode = classCode
        }
    }

    public static let id = "students.enrol"
    public static let permission = StudentsPermissions.manageRoster

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        let student = try Roster.student(gr: input.grNumber, context)
        if student.classCode != input.classCode { try StudentWriter.checkSeat(code: input.classCode, context) }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Student {
        let student = try Roster.student(gr: input.grNumber, context)
        try StudentWriter.enrol(studentID: student.id, classCode: input.classCode, on: Roster.today(context), context)
        return try Roster.student(gr: input.grNumber, context)
    }
}

/// Lookups and checks for roster input.
enum RosterRules {
    /// A name or code: no control characters or invalid UTF-8, at most `max` characters, not blank.
    static func requireName(_ text: String, field: String, max: Int = TextLimit.name) throws {
        try TextInput.check(text, field: field, maxLength: max)
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { throw InputError("students.error.required", ["field": field]) }
    }

    static func requireRange(_ start: String, _ end: String) throws {
        guard StudentRules.isDate(start), StudentRules.isDate(end) else { throw InputError("students.error.date-range") }
        guard start < end else { throw InputError("students.error.date-range") }
    }

    static func schoolYear(named name: String, _ context: ActionContext) throws -> SQLRow {
        guard let row = try context.database.fetchOne(
            "SELECT * FROM students_school_years WHERE school_id = :school_id AND name = :name", ["name": .text(name)])
        else { throw InputError("students.error.unknown-school-year", ["year": name]) }
        return row
    }

    static func yearLevelID(code: String, _ context: ActionContext) throws -> String? {
        try context.database.fetchValue("SELECT id FROM students_year_levels WHERE school_id = :school_id AND code = :code", ["code": .text(code)])
    }

    /// The account id of a teacher (or admin who teaches) in this school, by email.
    static func teacherID(email: String, _ context: ActionContext) throws -> String {
        guard let id = try Roster.teacherID(email: email, context) else { throw StudentsError.unknownTeacher(email) }
        return id
    }
}
