import Core
import Foundation

/// Someone the caller may pick to write to: an account of the school, by id, name and role.
public struct Recipient: Codable, Sendable, Equatable {
    public let id: String
    public let name: String
    public let role: Role
}

/// The people a "new message" form offers the caller, so nobody has to know an email or an id:
/// administrators pick from every active account of the school; everyone else from the people a
/// student ties them to (a guardian: their children, their children's teachers and other
/// guardians; a teacher: the students and guardians of their classes; a student: their teachers
/// and guardians), plus the school's administrators, and for staff roles their colleagues.
/// `messages.start` still decides what may be started; this only narrows the choice to the
/// people the caller has a reason to write to.
public struct ListRecipients: Action {
    public struct Input: Codable, Sendable {
        /// Part of a name, any case.
        public var search: String?
        public var limit: Int
        public init(search: String? = nil, limit: Int = 200) {
            self.search = search
            self.limit = limit
        }
    }

    public static let id = "messages.recipients"
    public static let permission = MessagesPermissions.start
    public static let isReadOnly = true
    public static let maximumLimit = 500

    /// Roles that count as the school's staff: they may write to one another.
    static let staffRoles: [Role] = [.developer, .admin, .teacher, .staff, .accountant]

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        if let search = input.search { try TextInput.check(search, field: "search", maxLength: TextLimit.title) }
        guard (1...Self.maximumLimit).contains(input.limit) else { throw MessagesError.limit(Self.maximumLimit) }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> [Recipient] {
        let role = context.principal.role
        var arguments: SQLArguments = ["me": .text(context.principal.userID), "limit": .integer(Int64(input.limit))]
        var reach = "1 = 1"
        if ![.developer, .admin].contains(role) {
            // Through a student both are tied to (as teacher, homeroom teacher, guardian or the student themself).
            var parts = ["""
                u.id IN (SELECT o.viewer_user_id FROM students_v1_student_viewers o JOIN students_v1_student_viewers v
                    ON v.school_id = o.school_id AND v.student_id = o.student_id AND v.viewer_user_id = :me WHERE o.school_id = :school_id)
                """, "u.role = 'ADMIN'"]
            if Self.staffRoles.contains(role) && role != .accountant {
                parts.append("u.role IN (\(Self.staffRoles.map { "'\($0.rawValue)'" }.joined(separator: ", ")))")
            }
            reach = "(" + parts.joined(separator: " OR ") + ")"
        }
        var search = ""
        if let text = input.search?.trimmingCharacters(in: .whitespaces), !text.isEmpty {
            arguments["search"] = .text(LikePattern.contains(text.lowercased()))
            search = "AND lower(u.display_name) LIKE :search \(LikePattern.escapeClause)"
        }
        return try context.database.fetchAll("""
            SELECT u.id, u.display_name, u.role FROM auth_v1_people u
            WHERE u.school_id = :school_id AND u.status = 'ACTIVE' AND u.id != :me AND \(reach) \(search)
            ORDER BY u.display_name, u.id LIMIT :limit
            """, arguments).map { row in
            Recipient(id: row.string("id"), name: row.string("display_name"), role: Role(rawValue: row.string("role")) ?? .user)
        }
    }
}
