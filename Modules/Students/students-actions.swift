import Auth
import Core
import Foundation

/// Adds a student, optionally enrolled in a class of the current school year (named by code or
/// id) and tied to a STUDENT account. A blank GR number is allocated: the school's next free
/// `GR-<year>-<NNNN>` (the API's admission form has no GR number).
public struct CreateStudent: Action {
    public static let id = "students.create"
    public static let permission = StudentsPermissions.manage

    public init() {}

    public func validate(_ input: StudentFields, in context: ActionContext) throws {
        var school = NewStudentReads(context: context)
        try NewStudentChecks.check(input, &school, context)
    }

    public func perform(_ input: StudentFields, in context: ActionContext) throws -> Student {
        let fields = try StudentWriter.resolved(input, allocating: true, context)
        let id = context.newID()
        try StudentWriter.insert(id: id, fields, userID: try input.accountEmail.map { try StudentAccounts.id(email: $0, context) }, context)
        context.auditDetail = fields.grNumber
        return try Roster.student(reference: id, context)
    }
}

/// What an edit may change; nil leaves a field as it is.
public struct StudentChange: Codable, Sendable {
    /// The GR number, or the student's id.
    public var grNumber: String
    public var givenName: String?
    public var surname: String?
    public var dateOfBirth: String?
    public var gender: String?
    public var status: String?
    public var classCode: String?
    /// The new class by its id instead of its code (the API's `section_id`).
    public var classID: String?

    public init(grNumber: String, givenName: String? = nil, surname: String? = nil, dateOfBirth: String? = nil,
                gender: String? = nil, status: String? = nil, classCode: String? = nil, classID: String? = nil) {
        self.grNumber = grNumber
        self.givenName = givenName
        self.surname = surname
        self.dateOfBirth = dateOfBirth
        self.gender = gender
        self.status = status
        self.classCode = classCode
        self.classID = classID
    }

    func applied(to student: Student, _ context: ActionContext) throws -> StudentFields {
        StudentFields(
            grNumber: student.grNumber, givenName: givenName ?? student.givenName, surname: surname ?? student.surname,
            nameLanguage: student.nameLanguage.rawValue, dateOfBirth: dateOfBirth ?? student.dateOfBirth ?? "",
            gender: gender ?? student.gender?.rawValue ?? "", status: status ?? student.status.rawValue,
            enrolledOn: student.enrolledOn, classCode: try classID.map { try Roster.classCode(id: $0, context) } ?? classCode)
    }
}

/// Edits a student's details, status or class (a new class moves this year's enrolment).
public struct UpdateStudent: Action {
    public static let id = "students.update"
    public static let permission = StudentsPermissions.manage

    public init() {}

    public func validate(_ input: StudentChange, in context: ActionContext) throws {
        if let id = input.classID { try TextInput.check(id, field: "class", maxLength: TextLimit.name) }
        let student = try Roster.student(reference: input.grNumber, context)
        let fields = try input.applied(to: student, context)
        try StudentRules.check(fields, context)
        if let code = fields.classCode, code != student.classCode { try StudentWriter.checkSeat(code: code, context) }
    }

    public func perform(_ input: StudentChange, in context: ActionContext) throws -> Student {
        let student = try Roster.student(reference: input.grNumber, context)
        let fields = try input.applied(to: student, context)
        try context.database.execute("""
            UPDATE students_students SET given_name = :given, surname = :surname, date_of_birth = :dob, gender = :gender,
                status = :status, search_key = :key, updated_at = :now
            WHERE school_id = :school_id AND id = :id
            """, [
                "given": .text(fields.givenName.trimmingCharacters(in: .whitespaces)), "surname": .text(fields.surname.trimmingCharacters(in: .whitespaces)),
                "dob": .text(fields.dateOfBirth), "gender": .text(fields.gender.uppercased()),
                "status": .text((fields.status ?? student.status.rawValue).uppercased()),
                "key": .text(ArabicSearch.fold("\(fields.givenName) \(fields.surname)")), "now": SQLValue(context.now), "id": .text(student.id),
            ])
        if let code = fields.classCode, code != student.classCode {
            try StudentWriter.enrol(studentID: student.id, classCode: code, on: Roster.today(context), context)
        }
        context.auditDetail = student.grNumber
        return try Roster.student(reference: student.id, context)
    }
}

/// Archives a student: they leave lists and their GR number is free again, but every record
/// that refers to them stays. Students are never hard-deleted.
public struct ArchiveStudent: Action {
    public struct Input: Codable, Sendable {
        /// The GR number, or the student's id.
        public var grNumber: String
        public init(grNumber: String) { self.grNumber = grNumber }
    }

    public static let id = "students.archive"
    public static let permission = StudentsPermissions.manage

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        _ = try Roster.student(reference: input.grNumber, context)
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Student {
        let student = try Roster.student(reference: input.grNumber, context)
        try context.database.execute(
            "UPDATE students_students SET archived_at = :now, updated_at = :now WHERE school_id = :school_id AND id = :id",
            ["now": SQLValue(context.now), "id": .text(student.id)])
        context.auditDetail = student.grNumber
        return student
    }
}

/// Writes shared by create, update, import and the demo.
enum StudentWriter {
    /// The fields as they will be written: a class named by id becomes its code, and a blank GR
    /// number becomes the next free one (only reserved when `allocating`, in the action's body).
    static func resolved(_ input: StudentFields, allocating: Bool, _ context: ActionContext) throws -> StudentFields {
        var fields = input
        if let id = input.classID { fields.classCode = try Roster.classCode(id: id, context) }
        if input.grNumber.trimmingCharacters(in: .whitespaces).isEmpty {
            fields.grNumber = allocating ? try GRNumbers.take(context) : try GRNumbers.next(context).number
        }
        return fields
    }

    static func checkUnique(gr: String, excluding id: String?, _ context: ActionContext) throws {
        let taken: Int = try context.database.fetchValue(
            "SELECT COUNT(*) FROM students_students WHERE school_id = :school_id AND gr_number = :gr AND archived_at IS NULL AND id != :id",
            ["gr": .text(gr.trimmingCharacters(in: .whitespaces)), "id": .text(id ?? "")]) ?? 0
        if taken > 0 { throw StudentsError.grNumberTaken(gr) }
    }

    static func checkSeat(code: String, _ context: ActionContext) throws {
        let seats = try Roster.seatsLeft(classID: try Roster.classID(code: code, context), context)
        if seats.left <= 0 { throw StudentsError.classFull(seats.code, seats.capacity) }
    }

    static func insert(id: String, _ fields: StudentFields, userID: String?, _ context: ActionContext) throws {
        let given = fields.givenName.trimmingCharacters(in: .whitespaces)
        let surname = fields.surname.trimmingCharacters(in: .whitespaces)
        let enrolledOn = fields.enrolledOn.flatMap { $0.isEmpty ? nil : $0 } ?? Roster.today(context)
        try context.database.insert(into: "students_students", [
            "id": .text(id), "gr_number": .text(fields.grNumber.trimmingCharacters(in: .whitespaces)),
            "given_name": .text(given), "surname": .text(surname),
            "name_language": .text((fields.nameLanguage.flatMap { $0.isEmpty ? nil : $0 } ?? "ar").lowercased()),
            "date_of_birth": .text(fields.dateOfBirth), "gender": .text(fields.gender.uppercased()),
            "status": .text((fields.status.flatMap { $0.isEmpty ? nil : $0 } ?? StudentStatus.active.rawValue).uppercased()),
            "enrolled_on": .text(enrolledOn), "user_id": SQLValue(userID), "search_key": .text(ArabicSearch.fold("\(given) \(surname)")),
            "created_at": SQLValue(context.now), "updated_at": SQLValue(context.now),
        ])
        if let code = fields.classCode, !code.isEmpty {
            try enrol(studentID: id, classCode: code, on: enrolledOn, context)
        }
    }

    /// Puts the student in a class for the current school year, replacing any earlier class that year.
    static func enrol(studentID: String, classCode: String, on day: String, _ context: ActionContext) throws {
        let year = try Roster.requireSchoolYear(context)
        let classID = try Roster.classID(code: classCode, context)
        try context.database.execute("""
            INSERT INTO students_enrolments (school_id, student_id, school_year_id, class_id, enrolled_on)
            VALUES (:school_id, :student, :year, :class, :day)
            ON CONFLICT (school_id, student_id, school_year_id) DO UPDATE SET class_id = excluded.class_id, enrolled_on = excluded.enrolled_on
            """, ["student": .text(studentID), "year": .text(year), "class": .text(classID), "day": .text(day)])
    }
}

/// Ties a student to their STUDENT sign-in account, so that account sees exactly this record.
public struct LinkStudentAccount: Action {
    public struct Input: Codable, Sendable {
        public var grNumber: String
        public var email: String
        public init(grNumber: String, email: String) {
            self.grNumber = grNumber
            self.email = email
        }
    }

    public static let id = "students.link-account"
    public static let permission = StudentsPermissions.manage

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        _ = try Roster.student(gr: input.grNumber, context)
        _ = try StudentAccounts.id(email: input.email, context)
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Student {
        let student = try Roster.student(gr: input.grNumber, context)
        try context.database.execute(
            "UPDATE students_students SET user_id = :user, updated_at = :now WHERE school_id = :school_id AND id = :id",
            ["user": .text(try StudentAccounts.id(email: input.email, context)), "now": SQLValue(context.now), "id": .text(student.id)])
        context.auditDetail = "\(input.email) -> \(input.grNumber)"
        return try Roster.student(gr: input.grNumber, context)
    }
}

/// STUDENT sign-in accounts, found by email.
enum StudentAccounts {
    static func id(email: String, _ context: ActionContext) throws -> String {
        guard let user = try UserAccounts.find(email: email, in: context), user.role == .student else {
            throw StudentsError.unknownStudentAccount(email)
        }
        return user.id
    }
}

/// GR numbers the school hands out itself, `GR-<year>-<NNNN>`, from a per-school counter (never
/// `MAX()+1`), skipping any number a student already has.
enum GRNumbers {
    /// The number the next admission gets, and the counter value that reserves it; reads only.
    static func next(_ context: ActionContext) throws -> (number: String, counter: Int) {
        var counter: Int = try context.database.fetchValue(
            "SELECT value FROM students_counters WHERE school_id = :school_id AND name = 'gr-number'") ?? 0
        let year = Roster.today(context).prefix(4)
        while true {
            counter += 1
            let number = "GR-\(year)-" + String(format: "%04d", counter)
            let taken: Int = try context.database.fetchValue(
                "SELECT COUNT(*) FROM students_students WHERE school_id = :school_id AND gr_number = :gr", ["gr": .text(number)]) ?? 0
            if taken == 0 { return (number, counter) }
        }
    }

    /// Reserves the next number: the counter moves past it in the same transaction.
    static func take(_ context: ActionContext) throws -> String {
        let (number, counter) = try next(context)
        try context.database.execute("""
            INSERT INTO students_counters (school_id, name, value) VALUES (:school_id, 'gr-number', :value)
            ON CONFLICT (school_id, name) DO UPDATE SET value = excluded.value
            """, ["value": .integer(Int64(counter))])
        return number
    }
}
