import Foundation

/// The eight roles of the Hogwarts web app (`UserRole` in its auth schema).
public enum Role: String, CaseIterable, Codable, Sendable, Comparable {
    /// Platform-wide operator: not tied to one school.
    case developer = "DEVELOPER"
    case admin = "ADMIN"
    case teacher = "TEACHER"
    case student = "STUDENT"
    case guardian = "GUARDIAN"
    case accountant = "ACCOUNTANT"
    case staff = "STAFF"
    /// Signed up but not yet a member of any school.
    case user = "USER"

    public static func < (lhs: Role, rhs: Role) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}

/// Who is acting: a user with a role, in a school (nil only for the platform-wide developer role).
public struct Principal: Codable, Sendable, Hashable {
    public let userID: String
    public let role: Role
    public let schoolID: SchoolID?
    public let displayName: String

    public init(userID: String, role: Role, schoolID: SchoolID?, displayName: String) {
        self.userID = userID
        self.role = role
        self.schoolID = schoolID
        self.displayName = displayName
    }

    /// The person running `hogwarts` directly against the local database file. Whoever can write
    /// that file already controls every school in it, so the operator acts as a developer. The
    /// operating-system account is part of the id, so the audit log says who it was
    /// (`operator:amina`), not just "operator".
    public static let localOperator = Principal(userID: "operator:\(OperatingSystemUser.name)", role: .developer, schoolID: nil,
                                                displayName: "operator (\(OperatingSystemUser.name))")

    /// Someone not signed in yet: may only do what is granted to the USER role (signing in).
    public static let anonymous = Principal(userID: "anonymous", role: .user, schoolID: nil, displayName: "anonymous")

    /// The kernel itself, delivering events to handlers.
    public static func system(in school: SchoolID) -> Principal {
        Principal(userID: "system", role: .developer, schoolID: school, displayName: "system")
    }
}

/// The account this process runs as, from the password database (not `$USER`, which anyone can set).
package enum OperatingSystemUser {
    package static let name: String = {
        let uid = geteuid()
        if let entry = getpwuid(uid), let name = entry.pointee.pw_name {
            return String(cString: name)
        }
        return "uid-\(uid)"
    }()
}
