import Core
import Foundation

/// Auth's part of the mobile contract (§1, §2 profile, §12 staff): sign-in, token refresh and
/// sign-out here; the profile and the staff list in `auth-routes-profile.swift`.
enum AuthRoutes {
    static var all: [APIRoute] { [signIn, refresh, signOut] + PasswordResetRoutes.all + OpenIDRoutes.all + AuthProfileRoutes.all }

    /// The same refusal for every failure: unknown email, wrong password, locked or suspended.
    static let refused = APIError(status: 401, code: "AUTH_INVALID_CREDENTIALS", messageKey: "auth.error.sign-in-refused")

    /// `{identifier, password, school_id?}`. The identifier is an email; usernames do not exist
    /// here and get the same refusal as an unknown email.
    struct SignInBody: Decodable {
        let identifier: String
        let password: String
        let schoolId: String?
    }

    /// The most a password may be: bcrypt reads 72 bytes, this only stops absurd bodies.
    static let maximumPasswordLength = 1_000

    static var signIn: APIRoute {
        APIRoute(.post, "/api/mobile/auth", summary: "Sign in with an email and password; an email in several schools needs school_id (else 409)",
                 access: .everyone,
                 body: .object([("identifier", .string(maxLength: UserAccounts.maximumEmailLength)), ("password", .string(maxLength: maximumPasswordLength)),
                                ("school_id", .optional(.id))]),
                 response: .of(AuthResponse.self), limitedPerAddress: true) { request in
            let body = try request.decode(SignInBody.self)
            if body.identifier.trimmingCharacters(in: .whitespaces).isEmpty { throw APIError.invalidField("identifier", reason: "missing") }
            if body.identifier.count > UserAccounts.maximumEmailLength {
                throw APIError.invalidField("identifier", reason: "longer than \(UserAccounts.maximumEmailLength) characters")
            }
            if body.password.isEmpty { throw APIError.invalidField("password", reason: "missing") }
            if body.password.count > maximumPasswordLength { throw APIError.invalidField("password", reason: "longer than \(maximumPasswordLength) characters") }

            let school: SchoolID
            switch try await target(of: body, request) {
            case .school(let id): school = id
            case .several(let schools): return try severalSchools(schools, request)
            case .noSchools:
                request.metrics.recordSignInFailure()
                throw refused
            }
            // Run directly, not through `request.run`: an `Idempotency-Key` would store a digest
            // of the password with the request and replay a sign-in without checking it. On the
            // password lane, as `request.run` would: bcrypt never holds the threads reads run on.
            let input = SignIn.Input(email: body.identifier, password: body.password, opensSession: false)
            let language = request.language
            let result = try await request.offload(on: .passwords) { kernel in try kernel.run(SignIn.self, input, as: .anonymous, in: school, language: language) }
            guard let user = result.user else {
                request.metrics.recordSignInFailure()
                throw refused
            }
            let principal = Principal(userID: user.id, role: user.role, schoolID: school, displayName: user.displayName)
            let pair = try await request.tokens.issue(for: principal, email: user.email)
            return try .json(AuthResponse(pair: pair, user: user, school: school))
        }
    }

    enum Target {
        case school(SchoolID)
        case several([School])
        /// No school exists at all: the refusal is audited without a school.
        case noSchools
    }

    /// The named school; else the only school with an account for the email; else, for an
    /// unknown email, the first school, where the sign-in is refused and audited after the same
    /// bcrypt check as a wrong password, so the time says nothing about the email.
    static func target(of body: SignInBody, _ request: APIRequest) async throws -> Target {
        if let reference = body.schoolId {
            let school = try await request.offload { kernel in try? kernel.school(reference) }
            guard let school else { throw APIError.invalidField("school_id", reason: "no such school") }
            return .school(school.id)
        }
        let email = body.identifier
        let (all, found) = try await request.offload { kernel in
            let all = try kernel.schools()
            return (all, all.filter { school in (try? kernel.run(FindAccount.self, .init(email: email), as: .anonymous, in: school.id)) == true })
        }
        if found.count > 1 { return .several(found) }
        if let only = found.first ?? all.first { return .school(only.id) }
        try await request.offload { kernel in
            try kernel.recordAudit(action: SignIn.id, principal: .anonymous, school: nil, outcome: .failed,
                                   detail: "refused (unknown-email): \(UserAccounts.normalize(TextInput.printable(email)))")
        }
        return .noSchools
    }

    /// 409 `AUTH_SEVERAL_SCHOOLS` in the one error shape, plus the schools to choose from.
    static func severalSchools(_ schools: [School], _ request: APIRequest) throws -> APIResponse {
        struct Choice: Encodable {
            let id: String
            let name: String
            let nameEn: String
        }
        struct Body: Encodable {
            let error: String
            let code: String
            let details: [APIErrorDetail]
            let schools: [Choice]
        }
        var response = try APIResponse.json(Body(
            error: request.localizer("auth.error.several-schools"), code: "AUTH_SEVERAL_SCHOOLS",
            details: [APIErrorDetail(field: "school_id", reason: "missing")],
            schools: schools.map { Choice(id: $0.id, name: $0.name.ar, nameEn: $0.name.en) }), status: 409)
        response.headers["Content-Language"] = request.language.rawValue
        return response
    }

    /// `PUT /auth` with `X-Refresh-Token`: a new pair. An old refresh token of the family ends it.
    static var refresh: APIRoute {
        APIRoute(.put, "/api/mobile/auth", summary: "Exchange the refresh token in the X-Refresh-Token header for a new pair of tokens",
                 access: .everyone, headers: [APIParameter("X-Refresh-Token", .text, required: true)], response: .of(AuthResponse.self)) { request in
            guard let token = request.header("X-Refresh-Token"), !token.isEmpty else { throw APIError.unauthenticated }
            let pair = try await request.tokens.refresh(token)
            guard let school = pair.principal.schoolID,
                  let user = try await request.run(CurrentUser.self, .init(userID: pair.principal.userID), as: .anonymous, in: school) else {
                throw APIError.invalidToken
            }
            return try .json(AuthResponse(pair: pair, user: user, school: school))
        }
    }

    /// Ends this sign-in's token family: its access and refresh tokens stop working at once.
    static var signOut: APIRoute {
        APIRoute(.post, "/api/mobile/auth/logout", summary: "Sign out: this sign-in's tokens stop working", response: .success) { request in
            guard let access = request.access else { throw APIError.unauthenticated }
            try await request.tokens.revoke(access)
            return try .success()
        }
    }
}

/// The contract's AuthResponse: `{access_token, refresh_token, expires_at (ms), user}`, the answer
/// of the password, refresh and OpenID sign-ins alike.
struct AuthResponse: Codable, Sendable {
    let accessToken: String
    let refreshToken: String
    let expiresAt: Int64
    let user: AuthUser

    init(pair: TokenPair, user: User, school: SchoolID) {
        accessToken = pair.accessToken
        refreshToken = pair.refreshToken
        expiresAt = Int64((pair.accessExpiresAt.timeIntervalSince1970 * 1000).rounded())
        self.user = AuthUser(user: user, school: school)
    }
}

struct AuthUser: Codable, Sendable {
    let id: String
    let email: String
    let schoolId: String
    let role: Role
    let givenName: String
    let familyName: String
    /// Accounts have no picture yet: always null.
    let avatarUrl: Nullable<String>
    /// A student's grade level lives in Students, which Auth cannot see (it depends on Auth): always null.
    let grade: Nullable<Int>

    init(user: User, school: SchoolID) {
        id = user.id
        email = user.email
        schoolId = school
        role = user.role
        (givenName, familyName) = PersonName.split(user.displayName)
        avatarUrl = Nullable(nil)
        grade = Nullable(nil)
    }
}

/// The web app's names: the display name split at its first space.
enum PersonName {
    static func split(_ name: String) -> (given: String, family: String) {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard let space = trimmed.firstIndex(of: " ") else { return (trimmed, "") }
        return (String(trimmed[..<space]), trimmed[trimmed.index(after: space)...].trimmingCharacters(in: .whitespaces))
    }
}
