import HogwartsBase

/// A permission a module defines, such as `attendance.mark`.
public struct Permission: Hashable, Sendable, Codable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let id: String

    public init(_ id: String) { self.id = id }
    public init(stringLiteral value: String) { self.init(value) }
    public var description: String { id }
}

/// How far a granted permission reaches. The kernel checks the grant; the action applies the
/// scope to its query (a guardian's "linked children", a teacher's "own classes", ...).
public enum AccessScope: String, Codable, Sendable, CaseIterable, Comparable {
    /// The student's own records.
    case ownRecord = "SELF"
    /// Students linked to the guardian.
    case linkedChildren = "LINKED_CHILDREN"
    /// Classes the teacher teaches.
    case ownClasses = "OWN_CLASSES"
    /// Everything in the school.
    case school = "SCHOOL"

    public static func < (lhs: AccessScope, rhs: AccessScope) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}

/// A permission with its description and the roles granted it by default (from the seeds'
/// permission matrices), each with a scope.
public struct PermissionDefinition: Sendable {
    public let permission: Permission
    public let summary: LocalizedText
    public let defaultGrants: [Role: AccessScope]

    public init(_ permission: Permission, summary: LocalizedText, grants: [Role: AccessScope]) {
        self.permission = permission
        self.summary = summary
        self.defaultGrants = grants
    }
}

/// The grants in force: role -> permission -> scope, assembled from every module's definitions.
public struct AccessPolicy: Sendable {
    private let grants: [Permission: [Role: AccessScope]]
    /// The modules' named queries and the permission each asks for; kept here because every
    /// context is made with the registry's policy (`ActionContext.ask`).
    var queries = NamedQueryDirectory()

    public init(definitions: [PermissionDefinition]) {
        var grants: [Permission: [Role: AccessScope]] = [:]
        for definition in definitions {
            grants[definition.permission, default: [:]].merge(definition.defaultGrants) { max($0, $1) }
        }
        self.grants = grants
    }

    /// The scope `role` holds for `permission`, or nil when the role lacks it.
    public func scope(of role: Role, for permission: Permission) -> AccessScope? {
        grants[permission]?[role]
    }

    public var permissions: [Permission] { grants.keys.sorted { $0.id < $1.id } }
}

/// Grant shorthands that read like the seeds' matrix rows.
extension [Role: AccessScope] {
    /// Developer and admin, school-wide: "Settings: School", "Students: Delete".
    public static let administrators: Self = [.developer: .school, .admin: .school]
}
