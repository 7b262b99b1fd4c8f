import Core
import Foundation

/// The caller's profile (§2, PROF-001..003) and the administrators' staff list (§12).
enum AuthProfileRoutes {
    static var all: [APIRoute] { [showProfile, updateProfile, staff] }

    static let schoolSchema: APISchema = .object([("id", .id), ("name", .text), ("name_en", .text), ("domain", .text)])

    static var showProfile: APIRoute {
        APIRoute(.get, "/api/mobile/profile", summary: "The caller's profile: name, email, role, biography, language and school",
                 response: .object([
                    ("id", .id), ("email", .text), ("username", .text), ("avatar_url", .nullable(.text)), ("role", .values(of: Role.self)),
                    ("bio", .nullable(.text)), ("language", .values(of: Language.self)), ("school", schoolSchema),
                    ("student", .nullable(.anyObject)), ("teacher", .nullable(.anyObject)),
                 ])) { request in
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
                 response: .object([("id", .id), ("username", .text), ("email", .text), ("image", .nullable(.text)), ("bio", .nullable(.text)),
                                    ("language", .values(of: Language.self))])) { request in
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
                 response: .object([
                    ("data", .array(StaffMember.schema)), ("total", .integer(minimum: 0)), ("total_teachers", .integer(minimum: 0)),
                    ("total_staff", .integer(minimum: 0)), ("page", .integer(minimum: 1)), ("per_page", .integer(minimum: 1)),
                 ])) { request in
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
struct ProfileResponse: Encodable {
    struct SchoolSummary: Encodable {
        let id: String
        let name: String
        let nameEn: String
        let domain: String
    }

    let id: String
    let email: String
    let username: String
    let role: Role
    let bio: String?
    let language: Language
    let school: SchoolSummary

    init(_ profile: Profile) {
        id = profile.user.id
        email = profile.user.email
        username = profile.user.displayName
        role = profile.user.role
        bio = profile.bio
        language = profile.language
        school = SchoolSummary(id: profile.school.id, name: profile.school.name.ar, nameEn: profile.school.name.en, domain: profile.school.slug)
    }

    enum CodingKeys: String, CodingKey {
        case id, email, username, avatarUrl, role, bio, language, school, student, teacher
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(email, forKey: .email)
        try container.encode(username, forKey: .username)
        try container.encodeNil(forKey: .avatarUrl)
        try container.encode(role, forKey: .role)
        try container.encode(bio, forKey: .bio)
        try container.encode(language, forKey: .language)
        try container.encode(school, forKey: .school)
        // Student and teacher records live in Students, which Auth cannot see.
        try container.encodeNil(forKey: .student)
        try container.encodeNil(forKey: .teacher)
    }
}

/// `PUT /profile`: the web app answers its raw row, in camelCase.
struct ProfileRow: Encodable {
    let id: String
    let username: String
    let email: String
    let bio: String?
    let language: Language

    init(_ profile: Profile) {
        id = profile.user.id
        username = profile.user.displayName
        email = profile.user.email
        bio = profile.bio
        language = profile.language
    }

    enum CodingKeys: String, CodingKey {
        case id, username, email, image, bio, language
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(username, forKey: .username)
        try container.encode(email, forKey: .email)
        try container.encodeNil(forKey: .image)
        try container.encode(bio, forKey: .bio)
        try container.encode(language, forKey: .language)
    }
}

struct StaffPage: Encodable {
    let data: [StaffMember]
    let total: Int
    let totalTeachers: Int
    let totalStaff: Int
    let page: Int
    let perPage: Int
}

/// One person of `GET /admin/staff`. Accounts keep no photo, employee number, department or position.
struct StaffMember: Encodable {
    let id: String
    let givenName: String
    let familyName: String
    let email: String
    let role: Role
    let status: String

    init(_ user: User) {
        id = user.id
        (givenName, familyName) = PersonName.split(user.displayName)
        email = user.email
        role = user.role
        status = user.status.rawValue
    }

    static let schema: APISchema = .object([
        ("id", .id), ("given_name", .text), ("family_name", .text), ("email", .text), ("role", .values(["TEACHER", "STAFF"])),
        ("status", .values(["ACTIVE", "SUSPENDED"])), ("photo_url", .nullable(.text)), ("employee_id", .nullable(.text)),
        ("department", .nullable(.text)), ("position", .nullable(.text)),
    ])

    enum CodingKeys: String, CodingKey {
        case id, givenName, familyName, email, role, status, photoUrl, employeeId, department, position
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(givenName, forKey: .givenName)
        try container.encode(familyName, forKey: .familyName)
        try container.encode(email, forKey: .email)
        try container.encode(role, forKey: .role)
        try container.encode(status, forKey: .status)
        for key in [CodingKeys.photoUrl, .employeeId, .department, .position] { try container.encodeNil(forKey: key) }
    }
}
