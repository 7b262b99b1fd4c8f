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
    public static let pageSize = 20
}

/// Lists the students the principal may see: search over given name and surname (Arabic-aware)
/// or GR number, filters by class, year level and status, sorted, 20 a page.
public struct ListStudents: Action {
    public struct Input: Codable, Sendable {
        public var search: String?
        public var classCode: String?
        public var yearLevel: String?
        public var status: StudentStatus?
        public var sort: StudentSort
        public var page: Int
        public var includeArchived: Bool

        public init(search: String? = nil, classCode: String? = nil, yearLevel: String? = nil, status: StudentStatus? = nil,
                    sort: StudentSort = .name, page: Int = 1, includeArchived: Bool = false) {
            self.search = search
            self.classCode = classCode
            self.yearLevel = yearLevel
            self.status = status
            self.sort = sort
            self.page = page
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
        if let search = input.search { try TextInput.check(search, field: "search", maxLength: TextLimit.name) }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> StudentPage {
        var conditions = ["s.school_id = :school_id", StudentVisibility.condition(for: context.scope)]
        var arguments = StudentVisibility.arguments(for: context)
        arguments["year"] = SQLValue(try Roster.currentSchoolYearID(context))
        if !input.includeArchived { conditions.append("s.archived_at IS NULL") }
        if let search = input.search?.trimmingCharacters(in: .whitespaces), !search.isEmpty {
            // `%` and `_` are letters here, not wildcards that match every student.
            conditions.append("(s.search_key LIKE :pattern \(LikePattern.escapeClause) OR s.gr_number = :search)")
            arguments["pattern"] = .text(LikePattern.contains(ArabicSearch.fold(search)))
            arguments["search"] = .text(search)
        }
        if let code = input.classCode {
            conditions.append("c.code = :class_code")
            arguments["class_code"] = .text(code)
        }
        if let level = input.yearLevel {
            conditions.append("y.code = :level")
            arguments["level"] = .text(level)
        }
        if let status = input.status {
            conditions.append("s.status = :status")
            arguments["status"] = .text(status.rawValue)
        }
        let filter = conditions.joined(separator: " AND ")
        let total: Int = try context.database.fetchValue(
            "SELECT COUNT(*) FROM (\(Roster.studentSelect) WHERE \(filter)) AS matched", arguments) ?? 0
        let order = switch input.sort {
        case .name: "s.surname, s.given_name, s.gr_number"
        case .class: "c.code IS NULL, c.code, s.surname, s.given_name"
        case .enrolled: "s.enrolled_on, s.surname, s.given_name"
        }
        arguments["limit"] = .integer(Int64(StudentPage.pageSize))
        arguments["offset"] = .integer(Int64((input.page - 1) * StudentPage.pageSize))
        let rows = try context.database.fetchAll("\(Roster.studentSelect) WHERE \(filter) ORDER BY \(order) LIMIT :limit OFFSET :offset", arguments)
        return StudentPage(
            students: rows.map(Student.init(row:)), total: total, page: input.page,
            pageCount: max(1, (total + StudentPage.pageSize - 1) / StudentPage.pageSize))
    }
}

/// A student's record with their guardians.
public struct StudentDetail: Codable, Sendable {
    public let student: Student
    public let guardians: [Guardian]
}

/// One student by GR number; refused, by name, to someone outside the student's scope
/// (the web app's student route forgot this check).
public struct ShowStudent: Action {
    public struct Input: Codable, Sendable {
        public var grNumber: String
        public init(grNumber: String) { self.grNumber = grNumber }
    }

    public static let id = "students.show"
    public static let permission = StudentsPermissions.read
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> StudentDetail {
        let student = try Roster.visibleStudent(gr: input.grNumber, context)
        let guardians = try context.database.fetchAll("""
            SELECT g.*, sg.relation, sg.is_primary FROM students_student_guardians sg
            JOIN students_guardians g ON g.school_id = sg.school_id AND g.id = sg.guardian_id
            WHERE sg.school_id = :school_id AND sg.student_id = :student ORDER BY sg.is_primary DESC, g.surname
            """, ["student": .text(student.id)]).map(Guardian.init(row:))
        return StudentDetail(student: student, guardians: guardians)
    }
}
