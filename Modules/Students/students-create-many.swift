import Auth
import Core
import Foundation

/// Adds many students at once, all or none: each row passes `CreateStudent`'s checks, in its
/// order and with its messages (a refusal names the row: `BatchRowError`), but the school is
/// read once for the whole batch (GR numbers, classes and their seats, accounts) instead of once
/// per row, and the rows are written with multi-row statements. For imports of a whole roster.
public struct CreateStudents: Action {
    public struct Input: Codable, Sendable {
        public var students: [StudentFields]
        public init(students: [StudentFields]) { self.students = students }
    }

    public static let id = "students.create-many"
    public static let permission = StudentsPermissions.manage

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        var school = try BatchStudentReads(context)
        for (index, fields) in input.students.enumerated() {
            try BatchRowError.at(index) { try NewStudentChecks.check(fields, &school, context) }
        }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> [CreatedStudent] {
        var school = try BatchStudentReads(context)
        // Numbers this batch names itself are not handed out to its blank rows.
        let named = Set(input.students.map { $0.grNumber.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
        var rows: [StudentFields] = []
        var userIDs: [String?] = []
        rows.reserveCapacity(input.students.count)
        userIDs.reserveCapacity(input.students.count)
        for input in input.students {
            var fields = input
            if let id = input.classID { fields.classCode = try school.classCode(id: id) }
            if fields.grNumber.trimmingCharacters(in: .whitespaces).isEmpty {
                repeat { fields.grNumber = try GRNumbers.take(context) } while named.contains(fields.grNumber)
            }
            rows.append(fields)
            userIDs.append(try input.accountEmail.map { try school.studentAccount(email: $0) })
        }
        var writer = ImportWriter(context, classIDs: school.classIDs)
        let ids = try writer.insert(rows, userIDs: userIDs, progress: nil, label: "")
        context.auditDetail = "\(rows.count) students"
        return zip(ids, rows).map { CreatedStudent(id: $0, grNumber: ImportTrim.whitespace($1.grNumber)) }
    }
}

/// A student `CreateStudents` added: enough to find them again without reading each one back.
public struct CreatedStudent: Codable, Sendable, Equatable {
    public let id: String
    public let grNumber: String
}

/// What checking a new student asks of the school: `NewStudentReads` reads once per question
/// (one student), `BatchStudentReads` answers from reads made once for a whole batch.
protocol NewStudentLookups {
    mutating func classCode(id: String) throws -> String
    /// The number a blank GR number would get, to check the row as it will be written.
    mutating func nextGRNumber() throws -> String
    /// Throws `grNumberTaken` when a student holds the number (a batch counts its own rows).
    mutating func requireFree(gr: String) throws
    /// Throws when the class is unknown or full (a batch counts the seats its rows take).
    mutating func takeSeat(code: String) throws
    /// The STUDENT account with this email.
    mutating func studentAccount(email: String) throws -> String
}

/// `CreateStudent`'s checks of one student, in order: shared by one and many.
enum NewStudentChecks {
    static func check(_ input: StudentFields, _ school: inout some NewStudentLookups, _ context: ActionContext) throws {
        if let id = input.classID { try TextInput.check(id, field: "class", maxLength: TextLimit.name) }
        if let email = input.accountEmail { try TextInput.check(email, field: "email", maxLength: UserAccounts.maximumEmailLength) }
        var fields = input
        if let id = input.classID { fields.classCode = try school.classCode(id: id) }
        // A blank number is allocated when written; the next free one is never taken.
        let allocated = input.grNumber.trimmingCharacters(in: .whitespaces).isEmpty
        if allocated { fields.grNumber = try school.nextGRNumber() }
        try StudentRules.check(fields, context)
        if !allocated { try school.requireFree(gr: fields.grNumber) }
        if let code = fields.classCode, !code.isEmpty { try school.takeSeat(code: code) }
        if let email = input.accountEmail { _ = try school.studentAccount(email: email) }
    }
}

/// One student's checks, each a read.
struct NewStudentReads: NewStudentLookups {
    let context: ActionContext

    func classCode(id: String) throws -> String { try Roster.classCode(id: id, context) }
    func nextGRNumber() throws -> String { try GRNumbers.next(context).number }
    func requireFree(gr: String) throws { try StudentWriter.checkUnique(gr: gr, excluding: nil, context) }
    func takeSeat(code: String) throws { try StudentWriter.checkSeat(code: code, context) }
    func studentAccount(email: String) throws -> String { try StudentAccounts.id(email: email, context) }
}

/// A batch's checks, from the school read once: the current year's classes with their seats,
/// the GR numbers in use, and (when a row names one) the accounts.
struct BatchStudentReads: NewStudentLookups {
    private let context: ActionContext
    private(set) var classIDs: [String: String] = [:]
    private var classCodes: [String: String] = [:]
    private var seats: [String: (capacity: Int, left: Int)] = [:]
    private var taken: Set<String> = []
    private var accounts: [String: User]?
    private var next: String?

    init(_ context: ActionContext) throws {
        self.context = context
        for schoolClass in try ListClasses().perform(.init(), in: context) {
            classIDs[schoolClass.code] = schoolClass.id
            classCodes[schoolClass.id] = schoolClass.code
            seats[schoolClass.code] = (schoolClass.capacity, schoolClass.capacity - schoolClass.enrolled)
        }
        try context.database.forEachRow("SELECT gr_number FROM students_students WHERE school_id = :school_id AND archived_at IS NULL") {
            taken.insert($0.string("gr_number"))
        }
    }

    func classCode(id: String) throws -> String {
        guard let code = classCodes[id] else { throw StudentsError.unknownClass(id) }
        return code
    }

    mutating func nextGRNumber() throws -> String {
        if let next { return next }
        let number = try GRNumbers.next(context).number
        next = number
        return number
    }

    mutating func requireFree(gr: String) throws {
        let number = gr.trimmingCharacters(in: .whitespaces)
        guard taken.insert(number).inserted else { throw StudentsError.grNumberTaken(gr) }
    }

    mutating func takeSeat(code: String) throws {
        guard let seat = seats[code] else {
            // As one student's check: without a current school year there is no class to join.
            _ = try Roster.requireSchoolYear(context)
            throw StudentsError.unknownClass(code)
        }
        if seat.left <= 0 { throw StudentsError.classFull(code, seat.capacity) }
        seats[code] = (seat.capacity, seat.left - 1)
    }

    mutating func studentAccount(email: String) throws -> String {
        if accounts == nil {
            // Auth's own action, run as Auth's code: its accounts table is not Students' to read.
            let users = try context.published(by: ListUsers.moduleID) { try ListUsers().perform(.init(), in: context) }
            accounts = Dictionary(users.map { ($0.email, $0) }) { first, _ in first }
        }
        guard let user = accounts?[UserAccounts.normalize(email)], user.role == .student else { throw StudentsError.unknownStudentAccount(email) }
        return user.id
    }
}
