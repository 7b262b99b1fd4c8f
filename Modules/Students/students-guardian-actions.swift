import Core
import Foundation

/// Links a guardian to a student. A guardian with the same email in this school is reused (a
/// parent of siblings is one person); if a GUARDIAN account has that email, the guardian is tied
/// to it, so that account sees exactly its linked children.
public struct LinkGuardian: Action {
    public struct Input: Codable, Sendable {
        public var grNumber: String
        public var givenName: String
        public var surname: String
        public var email: String?
        public var phone: String?
        public var relation: GuardianRelation
        public var isPrimary: Bool

        public init(grNumber: String, givenName: String, surname: String, email: String? = nil, phone: String? = nil,
                    relation: GuardianRelation, isPrimary: Bool = false) {
            self.grNumber = grNumber
            self.givenName = givenName
            self.surname = surname
            self.email = email
            self.phone = phone
            self.relation = relation
            self.isPrimary = isPrimary
        }
    }

    public static let id = "students.link-guardian"
    public static let permission = StudentsPermissions.manageRoster

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        _ = try Roster.student(gr: input.grNumber, context)
        try RosterRules.requireName(input.givenName, field: "given_name")
        try RosterRules.requireName(input.surname, field: "surname")
        if let phone = input.phone { try TextInput.check(phone, field: "phone", maxLength: TextLimit.code) }
        if let email = input.email { try TextInput.check(email, field: "email", maxLength: 254) }
        if let email = input.email, email.range(of: #"^[^@\s]+@[^@\s]+\.[^@\s]+$"#, options: .regularExpression) == nil {
            throw InputError("students.error.guardian-email", ["email": email])
        }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Guardian {
        let student = try Roster.student(gr: input.grNumber, context)
        let email = input.email?.trimmingCharacters(in: .whitespaces).lowercased()
        let guardianID = try GuardianWriter.findOrCreate(
            givenName: input.givenName, surname: input.surname, email: email, phone: input.phone, id: context.newID(), context)
        try GuardianWriter.link(guardianID: guardianID, studentID: student.id, relation: input.relation, isPrimary: input.isPrimary, context)
        context.auditDetail = "\(email ?? input.surname) -> \(input.grNumber)"
        let row = try context.database.fetchOne("""
            SELECT g.*, sg.relation, sg.is_primary FROM students_guardians g
            JOIN students_student_guardians sg ON sg.school_id = g.school_id AND sg.guardian_id = g.id AND sg.student_id = :student
            WHERE g.school_id = :school_id AND g.id = :id
            """, ["id": .text(guardianID), "student": .text(student.id)])
        guard let row else { throw StudentsError.unknownStudent(input.grNumber) }
        return Guardian(row: row)
    }
}

enum GuardianWriter {
    static func findOrCreate(givenName: String, surname: String, email: String?, phone: String?, id: String, _ context: ActionContext) throws -> String {
        let accountID: String? = try email.flatMap { email in
            try context.database.fetchValue(
                "SELECT id FROM auth_v1_people WHERE school_id = :school_id AND email = :email AND role = 'GUARDIAN'", ["email": .text(email)])
        }
        if let email, let existing: String = try context.database.fetchValue(
            "SELECT id FROM students_guardians WHERE school_id = :school_id AND email = :email", ["email": .text(email)]) {
            if let accountID {
                try context.database.execute("UPDATE students_guardians SET user_id = :user WHERE school_id = :school_id AND id = :id",
                                             ["user": .text(accountID), "id": .text(existing)])
            }
            return existing
        }
        try context.database.insert(into: "students_guardians", [
            "id": .text(id), "given_name": .text(givenName.trimmingCharacters(in: .whitespaces)),
            "surname": .text(surname.trimmingCharacters(in: .whitespaces)), "email": SQLValue(email), "phone": SQLValue(phone),
            "user_id": SQLValue(accountID),
        ])
        return id
    }

    static func link(guardianID: String, studentID: String, relation: GuardianRelation, isPrimary: Bool, _ context: ActionContext) throws {
        if isPrimary {
            try context.database.execute("UPDATE students_student_guardians SET is_primary = 0 WHERE school_id = :school_id AND student_id = :student",
                                         ["student": .text(studentID)])
        }
        try context.database.execute("""
            INSERT INTO students_student_guardians (school_id, student_id, guardian_id, relation, is_primary)
            VALUES (:school_id, :student, :guardian, :relation, :primary)
            ON CONFLICT (school_id, student_id, guardian_id) DO UPDATE SET relation = excluded.relation, is_primary = excluded.is_primary
            """, ["student": .text(studentID), "guardian": .text(guardianID), "relation": .text(relation.rawValue), "primary": .integer(isPrimary ? 1 : 0)])
    }
}

/// The classes of the current school year with their enrolment.
public struct ListClasses: Action {
    public struct Input: Codable, Sendable { public init() {} }

    public static let id = "students.list-classes"
    public static let permission = StudentsPermissions.readRoster
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> [SchoolClass] {
        try context.database.fetchAll("""
            SELECT c.*, y.code AS level, y.position,
                (SELECT COUNT(*) FROM students_enrolments e WHERE e.school_id = c.school_id AND e.class_id = c.id) AS enrolled
            FROM students_classes c JOIN students_year_levels y ON y.school_id = c.school_id AND y.id = c.year_level_id
            WHERE c.school_id = :school_id AND c.school_year_id = :year ORDER BY y.position, c.code
            """, ["year": SQLValue(try Roster.currentSchoolYearID(context))]).map { row in
            SchoolClass(
                id: row.string("id"), code: row.string("code"), name: LocalizedText(ar: row.string("name_ar"), en: row.string("name_en")),
                yearLevel: row.string("level"), homeroomTeacherID: row["homeroom_teacher_id"], capacity: row.int("capacity"), enrolled: row.int("enrolled"))
        }
    }
}

public struct ListSubjects: Action {
    public struct Input: Codable, Sendable { public init() {} }

    public static let id = "students.list-subjects"
    public static let permission = StudentsPermissions.readRoster
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> [Subject] {
        try context.database.fetchAll("SELECT * FROM students_subjects WHERE school_id = :school_id ORDER BY code").map { row in
            Subject(id: row.string("id"), code: row.string("code"), name: LocalizedText(ar: row.string("name_ar"), en: row.string("name_en")),
                    credits: row["credits"] ?? 1)
        }
    }
}

public struct ListTerms: Action {
    public struct Input: Codable, Sendable { public init() {} }

    public static let id = "students.list-terms"
    public static let permission = StudentsPermissions.readRoster
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> [Term] {
        try context.database.fetchAll("""
            SELECT t.*, y.name AS year_name FROM students_terms t
            JOIN students_school_years y ON y.school_id = t.school_id AND y.id = t.school_year_id
            WHERE t.school_id = :school_id ORDER BY t.starts_on
            """).map { row in
            Term(id: row.string("id"), schoolYear: row.string("year_name"), name: LocalizedText(ar: row.string("name_ar"), en: row.string("name_en")),
                 startsOn: row.string("starts_on"), endsOn: row.string("ends_on"))
        }
    }
}

/// A guardian's child: the student and how the guardian is related to them.
public struct Child: Codable, Sendable, Equatable {
    public let student: Student
    public let relation: GuardianRelation
}

/// The signed-in guardian's linked children (not archived). Anyone else is refused: this is
/// the guardian's own list, not a student search.
public struct ListChildren: Action {
    public struct Input: Codable, Sendable { public init() {} }

    public static let id = "students.children"
    public static let permission = StudentsPermissions.read
    public static let isReadOnly = true

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        guard context.scope == .linkedChildren else { throw StudentsError.notAGuardian }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> [Child] {
        var arguments = StudentVisibility.arguments(for: context)
        arguments["today"] = .text(Roster.today(context))
        let relations = Dictionary(try context.database.fetchAll("""
            SELECT sg.student_id, sg.relation FROM students_student_guardians sg
            JOIN students_guardians g ON g.school_id = sg.school_id AND g.id = sg.guardian_id
            WHERE sg.school_id = :school_id AND g.user_id = :viewer
            """, arguments).map { ($0.string("student_id"), GuardianRelation(rawValue: $0.string("relation")) ?? .guardian) }) { first, _ in first }
        return try context.database.fetchAll("""
            \(Roster.studentSelect(year: Roster.currentYearSQL))
            WHERE s.school_id = :school_id AND s.archived_at IS NULL AND \(StudentVisibility.condition(for: .linkedChildren))
            ORDER BY s.date_of_birth, s.given_name
            """, arguments).map { row in
            let student = Student(row: row)
            return Child(student: student, relation: relations[student.id] ?? .guardian)
        }
    }
}

/// One of the signed-in guardian's children, by id or GR number: another family's child is
/// refused by name, and someone who is not a guardian is refused outright.
public struct ShowChild: Action {
    public struct Input: Codable, Sendable {
        /// The child's id, or GR number.
        public var child: String
        public init(child: String) { self.child = child }
    }

    public static let id = "students.show-child"
    public static let permission = StudentsPermissions.read
    public static let isReadOnly = true

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        guard context.scope == .linkedChildren else { throw StudentsError.notAGuardian }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> StudentDetail {
        try StudentDetail.load(try Roster.visibleStudent(reference: input.child, context), context)
    }
}
