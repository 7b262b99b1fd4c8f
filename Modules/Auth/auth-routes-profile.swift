import Core
import Foundation

/// The caller's profile (§2, PROF-001..003) and the administrators' staff list (§12).
enum AuthProfileRoutes {
    static var all: [APIRoute] { [showProfile, updateProfile, staff] }

    static var showProfile: APIRoute {
        APIRoute(.get, "/api/mobile/profile", summary: "The caller's profile: name, email, role, biography, language and school",
                 response: .of(ProfileResponse.self)) { request in
            let profile = try await request.run(ShowProfile.self, .init())
            return try .json(ProfileResponse(profile))
        }
    }

    /// `{username? (1-100), bio? (up to 500), language? (ar|en)}`; an empty bio removes it.
    struct ProfileBody: Decodable {
        let username: String?
        let bio: String?
        let language: Language?
    }

    static var updateProfile: APIRoute {
        APIRoute(.put, "/api/mobile/profile", summary: "Change the caller's name (username), biography or language; answers the camelCase row",
                 body: .object([("username", .optional(.string(maxLength: TextLimit.name))), ("bio", .optional(.string(maxLength: ProfileLimits.bio))),
                                ("language", .optional(.values(of: Language.self)))]),
                 response: .of(ProfileRow.self, keys: .camelCase)) { request in
            let body = try request.decode(ProfileBody.self)
            // The action checks the same limits; here they are named as the phone sent them.
            if let username = body.username {
                try check(username, field: "username", maxLength: TextLimit.name, multiline: false)
                if username.trimmingCharacters(in: .whitespaces).isEmpty { throw APIError.invalidField("username", reason: "empty") }
            }
            if let bio = body.bio { try check(bio, field: "bio", maxLength: ProfileLimits.bio, multiline: true) }
            let profile = try await request.run(UpdateProfile.self, .init(displayName: body.username, bio: body.bio, language: body.language))
            return try .json(ProfileRow(profile), keys: .camelCase)
        }
    }

    static func check(_ text: String, field: String, maxLength: Int, multiline: Bool) throws {
        switch TextInput.problem(in: text, maxLength: maxLength, multiline: multiline) {
        case nil: return
        case "kernel.error.text-too-long": throw APIError.invalidField(field, reason: "longer than \(maxLength) characters")
        case "kernel.error.text-invalid-utf8": throw APIError.invalidField(field, reason: "not valid UTF-8")
        default: throw APIError.invalidField(field, reason: "contains a control character")
        }
    }

    /// The web app lists Teacher and StaffMember rows, teachers first; here they are accounts with
    /// those roles (the contract's `role` is teacher or staff: accountants are not listed).
    enum StaffFilter: String, CaseIterable {
        case teacher, staff

        static let teacherRoles: [Role] = [.teacher]
        /// The web app's list: TEACHER and STAFF only (accountants are not on it).
        static let staffRoles: [Role] = [.staff]
    }

    static var staff: APIRoute {
        APIRoute(.get, "/api/mobile/admin/staff", summary: "Teachers and staff of the school, for administrators",
                 query: APIParameter.paging + [APIParameter("role", .values(of: StaffFilter.self)), APIParameter("search", .string(maxLength: TextLimit.title))],
                 response: .of(StaffPage.self)) { request in
            let paging = try request.paging(defaultPerPage: 30)
            let filter = try request.queryEnum("role", as: StaffFilter.self)
            let search = try request.queryText("search")
            let roles = switch filter {
            case .teacher: StaffFilter.teacherRoles
            case .staff: StaffFilter.staffRoles
            case nil: StaffFilter.teacherRoles + StaffFilter.staffRoles
            }
            let users = try await request.run(ListUsers.self, .init(roles: roles, search: search, offset: paging.offset, limit: paging.perPage, rolesInOrder: true))
            let counts = try await request.run(CountUsers.self, .init(roles: StaffFilter.teacherRoles + StaffFilter.staffRoles, search: search))
            func total(_ roles: [Role]) -> Int { counts.filter { roles.contains($0.role) }.reduce(0) { $0 + $1.count } }
            let teachers = total(StaffFilter.teacherRoles)
            let staff = total(StaffFilter.staffRoles)
            return try .json(StaffPage(
                data: users.map(StaffMember.init), total: filter == .teacher ? teachers : filter == .staff ? staff : teachers + staff,
                totalTeachers: teachers, totalStaff: staff, page: paging.page, perPage: paging.perPage))
        }
    }
}

/// `GET /profile`.
struct ProfileResponse: Codable, Sendable {
    struct SchoolSummary: Codable, Sendable {
        let id: String
        let name: String
        let nameEn: String
        let domain: String
    }

    let id: String
    let email: String
    let username: String
    /// Accounts have no picture yet: always null.
    let avatarUrl: Nullable<String>
    let role: Role
    let bio: Nullable<String>
    let language: Language
    let school: SchoolSummary
    /// Student and teacher records live in Students, which Auth cannot see: always null.
    let student: Nullable<APIValue>
    let teacher: Nullable<APIValue>

    init(_ profile: Profile) {
        id = profile.user.id
        email = profile.user.email
        username = profile.user.displayName
        avatarUrl = Nullable(nil)
        role = profile.user.role
        bio = Nullable(profile.bio)
        language = profile.language
        school = SchoolSummary(id: profile.school.id, name: profile.school.name.ar, nameEn: profile.school.name.en, domain: profile.school.slug)
        student = Nullable(nil)
        teacher = Nullable(nil)
    }
}

/// `PUT /profile`: the web app answers its raw row, in camelCase.
struct ProfileRow: Codable, Sendable {
    let id: String
    let username: String
    let email: String
    /// Accounts have no picture yet: always null.
    let image: Nullable<String>
    let bio: Nullable<String>
    let language: Language

    init(_ profile: Profile) {
        id = profile.user.id
        username = profile.user.displayName
        email = profile.user.email
        image = Nullable(nil)
        bio = Nullable(profile.bio)
        language = profile.language
    }
}

struct StaffPage: Codable, Sendable {
    let data: [StaffMember]
    let total: Int
    let totalTeachers: Int
    let totalStaff: Int
    let page: Int
    let perPage: Int
}

/// One person of `GET /admin/staff`. Accounts keep no photo, employee number, department or
/// position: those keys are always null.
struct StaffMember: Codable, Sendable {
    let id: String
    let givenName: String
    let familyName: String
    let email: String
    let role: Role
    let status: UserStatus
    let photoUrl: Nullable<String>
    let employeeId: Nullable<String>
    let department: Nullable<String>
    let position: Nullable<String>

    init(_ user: User) {
        id = user.id
        (givenName, familyName) = PersonName.split(user.displayName)
        email = user.email
        role = user.role
        status = user.status
        photoUrl = Nullable(nil)
        employeeId = Nullable(nil)
        department = Nullable(nil)
        position = Nullable(nil)
    }
}
