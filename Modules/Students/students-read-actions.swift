import Auth
import Core
import Foundation

public enum StudentSort: String, Codable, Sendable, CaseIterable {
    case name, `class`, enrolled
}

/// One page of a student list, with the totals a pager needs.
public struct StudentPage: Codable, Sendable {
    public let students: [Student]
    public let total: Int
    public let page: Int
    public let pageCount: Int
    /// The command line's page size (the API asks for its own, up to `maximumPageSize`).
    public static let pageSize = 20
    public static let maximumPageSize = 100
}

/// Lists the students the principal may see: search over given name and surname (Arabic-aware)
/// or GR number, filters by class (code or id), year level and status, sorted, 20 a page unless
/// asked for another page size.
///
/// Two statements whatever the page: the count and the page, the current school year folded
/// into each as a subquery. This is the API's busiest read (the student list of the phone apps).
public struct ListStudents: Action {
    public struct Input: Codable, Sendable, Hashable {
        public var search: String?
        public var classCode: String?
        /// A class by its id (the API's `section_id`).
        public var classID: String?
        public var yearLevel: String?
        public var status: StudentStatus?
        public var sort: StudentSort
        public var page: Int
        /// Rows a page, 1 to `StudentPage.maximumPageSize`; nil is the command line's 20.
        public var pageSize: Int?
        public var includeArchived: Bool

        public init(search: String? = nil, classCode: String? = nil, classID: String? = nil, yearLevel: String? = nil,
                    status: StudentStatus? = nil, sort: StudentSort = .name, page: Int = 1, pageSize: Int? = nil, includeArchived: Bool = false) {
            self.search = search
            self.classCode = classCode
            self.classID = classID
            self.yearLevel = yearLevel
            self.status = status
            self.sort = sort
            self.page = page
            self.pageSize = pageSize
            self.includeArchived = includeArchived
        }
    }

    public static let id = "students.list"
    public static let permission = StudentsPermissions.read
    public static let isReadOnly = true

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        // Bounded here too, not only on the command line: the offset below must not overflow.
        guard (1...100_000).contains(input.page) else { throw InputError("students.error.page") }
        if let size = input.pageSize, !(1...StudentPage.maximumPageSize).contains(size) { throw InputError("students.error.page-size") }
        if let search = input.search { try TextInput.check(search, field: "search", maxLength: TextLimit.name) }
    }

    /// Pages kept between requests while the roster is unchanged: a class's phones page through
    /// the same lists all day, and the teacher's count alone reads every student they teach.
    private static let pages = ReadCache<PageKey, StudentPage>(capacity: 512)

    /// Everything a page depends on besides the roster's version: whose view (the scope the kernel
    /// granted and the viewer it is measured from), the question, and the day (the current school year).
    private struct PageKey: Hashable, Sendable {
        let school: String
        let viewer: String
        let scope: AccessScope
        let input: Input
        let today: String
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> StudentPage {
        let key = PageKey(school: context.school.id, viewer: context.principal.userID, scope: context.scope, input: input, today: Roster.today(context))
        return try Self.pages.value(for: key, at: try RosterVersion.current(context)) { try read(input, context) }
    }

    private func read(_ input: Input, _ context: ActionContext) throws -> StudentPage {
        var conditions = ["s.school_id = :school_id", StudentVisibility.condition(for: context.scope)]
        var arguments = StudentVisibility.arguments(for: context)
        arguments["today"] = .text(Roster.today(context))
        // Only a filter on the class's code or year level needs the joins to count.
        var filterNeedsJoins = false
        if !input.includeArchived { conditions.append("s.archived_at IS NULL") }
        if let search = input.search?.trimmingCharacters(in: .whitespaces), !search.isEmpty {
            // `%` and `_` are letters here, not wildcards that match every student.
            conditions.append("(s.search_key LIKE :pattern \(LikePattern.escapeClause) OR s.gr_number = :search)")
            arguments["pattern"] = .text(LikePattern.contains(ArabicSearch.fold(search)))
            arguments["search"] = .text(search)
        }
        if let id = input.classID {
            // A class belongs to one school year, so this is "enrolled in it", joins or not.
            conditions.append("s.id IN (SELECT student_id FROM students_enrolments WHERE school_id = :school_id AND class_id = :class_id)")
            arguments["class_id"] = .text(id)
        }
        if let code = input.classCode {
            conditions.append("c.code = :class_code")
            arguments["class_code"] = .text(code)
            filterNeedsJoins = true
        }
        if let level = input.yearLevel {
            conditions.append("y.code = :level")
            arguments["level"] = .text(level)
            filterNeedsJoins = true
        }
        if let status = input.status {
            conditions.append("s.status = :status")
            arguments["status"] = .text(status.rawValue)
        }
        let filter = conditions.joined(separator: " AND ")
        let select = Roster.studentSelect(year: Roster.currentYearSQL)
        let counted = filterNeedsJoins ? "(\(select) WHERE \(filter)) AS matched" : "students_students s WHERE \(filter)"
        let total: Int = try context.database.fetchValue("SELECT COUNT(*) FROM \(counted)", arguments) ?? 0
        let order = switch input.sort {
        case .name: "s.surname, s.given_name, s.gr_number"
        case .class: "c.code IS NULL, c.code, s.surname, s.given_name"
        case .enrolled: "s.enrolled_on, s.surname, s.given_name"
        }
        let size = input.pageSize ?? StudentPage.pageSize
        arguments["limit"] = .integer(Int64(size))
        arguments["offset"] = .integer(Int64((input.page - 1) * size))
        let page: String
        if filterNeedsJoins || input.sort == .class {
            page = "\(select) WHERE \(filter) ORDER BY \(order) LIMIT :limit OFFSET :offset"
        } else {
            // The page's students first, then their class and year level for those rows only
            // (not for every student the filter matches, before sorting).
            let picked = "(SELECT \(Roster.ownColumns) FROM students_students s WHERE \(filter) ORDER BY \(order) LIMIT :limit OFFSET :offset)"
            page = "\(Roster.studentSelect(year: Roster.currentYearSQL, from: picked)) ORDER BY \(order)"
        }
        let rows = try context.database.fetchAll(page, arguments)
        return StudentPage(students: rows.map(Student.init(row:)), total: total, page: input.page, pageCount: max(1, (total + size - 1) / size))
    }
}

/// A student's record with their guardians.
public struct StudentDetail: Codable, Sendable {
    public let student: Student
    public let guardians: [Guardian]
    /// The email of the sign-in account tied to the student, if any.
    public let accountEmail: String?

    public init(student: Student, guardians: [Guardian], accountEmail: String? = nil) {
        self.student = student
        self.guardians = guardians
        self.accountEmail = accountEmail
    }

    /// The record and guardians of a student the caller has already been allowed to see.
    static func load(_ student: Student, _ context: ActionContext) throws -> StudentDetail {
        let guardians = try context.database.fetchAll("""
            SELECT g.*, sg.relation, sg.is_primary FROM students_student_guardians sg
            JOIN students_guardians g ON g.school_id = sg.school_id AND g.id = sg.guardian_id
            WHERE sg.school_id = :school_id AND sg.student_id = :student ORDER BY sg.is_primary DESC, g.surname
            """, ["student": .text(student.id)]).map(Guardian.init(row:))
        let email = try student.userID.flatMap { try UserAccounts.find(id: $0, in: context)?.email }
        return StudentDetail(student: student, guardians: guardians, accountEmail: email)
    }
}

/// One student by GR number (or id, as the API names them); refused, by name, to someone outside
/// the student's scope (the web app's student route forgot this check).
public struct ShowStudent: Action {
    public struct Input: Codable, Sendable {
        /// The GR number, or the student's id.
        public var grNumber: String
        public init(grNumber: String) { self.grNumber = grNumber }
    }

    public static let id = "students.show"
    public static let permission = StudentsPermissions.read
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> StudentDetail {
        try StudentDetail.load(try Roster.visibleStudent(reference: input.grNumber, context), context)
    }
}
