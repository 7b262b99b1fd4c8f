import Core
import Foundation

/// Named queries Auth answers for modules that do not depend on it. Their shapes are a contract:
/// a field is never renamed or removed under the same name.
enum AuthPublishedQueries {
    static let all: [NamedQueryProvider] = [
        NamedQueryProvider(StaffNames.self, permission: AuthPermissions.profile) { request, context in
            try StaffNames.answer(request, context)
        },
    ]
}

/// The names of the school's staff accounts (teachers, staff, administrators, accountants) among
/// some user ids: who took a register, as a page names them. Students' and guardians' names are
/// never given out here, and an id of another school or an unknown id is left out.
/// `AttendanceRegisterFactsTests` checks the shape against Attendance's own copy.
public enum StaffNames: NamedQuery {
    public static let name = "auth.staff-names"

    public struct Request: Codable, Sendable {
        public var userIDs: [String]
        public init(userIDs: [String]) { self.userIDs = userIDs }
    }

    public struct Answer: Codable, Sendable, Equatable {
        /// Display names by user id.
        public var names: [String: String]
    }

    static func answer(_ request: Request, _ context: ActionContext) throws -> Answer {
        var names: [String: String] = [:]
        for id in Set(request.userIDs.prefix(100)) {
            guard let row = try context.database.fetchOne(
                "SELECT display_name, role FROM auth_users WHERE school_id = :school_id AND id = :id", ["id": .text(id)]),
                  let role = Role(rawValue: row.string("role")), ![.student, .guardian, .user].contains(role) else { continue }
            names[id] = row.string("display_name")
        }
        return Answer(names: names)
    }
}
