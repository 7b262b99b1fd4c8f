import Core
import Foundation

/// The contract's provider sign-in (§1): `auth/google {id_token}` and `auth/apple {identity_token}`.
///
/// The token is never trusted as given: it is verified against the keys of a provider some
/// school has configured, picked by the token's `iss` and `aud`. `apple` takes only Apple's
/// issuer; `google` takes every other configured provider (Google, Microsoft Entra ID, any
/// standards-compliant one): the contract has no third route. The answer is a password
/// sign-in's AuthResponse, and an email with accounts in several schools gets the same 409
/// picker. The app sends no nonce of ours, so a token is good until its `exp`; a token that
/// carries a nonce signs in once (`auth_openid_nonces`).
enum OpenIDRoutes {
    static var all: [APIRoute] { [google, apple] }

    static let appleIssuer = "https://appleid.apple.com"
    static let refused = APIError(status: 401, code: "AUTH_IDENTITY_REFUSED", messageKey: "auth.error.openid-refused")
    /// Far more than any provider's ID token; only stops absurd bodies.
    static let maximumTokenLength = 16_000

    struct Body: Decodable {
        let idToken: String?
        let identityToken: String?
        let schoolId: String?
    }

    static var google: APIRoute {
        APIRoute(.post, "/api/mobile/auth/google",
                 summary: "Sign in with an ID token from a provider the school configured (Google, Microsoft, any OpenID Connect provider but Apple)",
                 access: .everyone, body: .object([("id_token", .string(maxLength: maximumTokenLength)), ("school_id", .optional(.id))]),
                 response: .of(AuthResponse.self), limitedPerAddress: true) { request in
            let body = try request.decode(Body.self)
            guard let token = body.idToken, !token.isEmpty else { throw APIError.invalidField("id_token", reason: "missing") }
            return try await signIn(token, school: body.schoolId, request) { $0.issuer != appleIssuer }
        }
    }

    static var apple: APIRoute {
        APIRoute(.post, "/api/mobile/auth/apple", summary: "Sign in with Sign in with Apple's identity token, where the school configured Apple",
                 access: .everyone, body: .object([("identity_token", .string(maxLength: maximumTokenLength)), ("school_id", .optional(.id))]),
                 response: .of(AuthResponse.self), limitedPerAddress: true) { request in
            let body = try request.decode(Body.self)
            guard let token = body.identityToken, !token.isEmpty else { throw APIError.invalidField("identity_token", reason: "missing") }
            return try await signIn(token, school: body.schoolId, request) { $0.issuer == appleIssuer }
        }
    }

    static func signIn(_ token: String, school reference: String?, _ request: APIRequest, accepts: @escaping @Sendable (OpenIDProvider) -> Bool) async throws -> APIResponse {
        if token.count > maximumTokenLength { throw APIError.invalidField("id_token", reason: "longer than \(maximumTokenLength) characters") }
        guard let (issuer, audiences) = IDTokenVerifier.unverifiedIssuerAndAudiences(of: token) else { throw refusal(request) }
        let chosen: School?
        if let reference {
            chosen = try await request.offload { kernel in try? kernel.school(reference) }
            guard chosen != nil else { throw APIError.invalidField("school_id", reason: "no such school") }
        } else {
            chosen = nil
        }
        // The schools that configured a provider this token could be from.
        let candidates: [(School, OpenIDProvider)] = try await request.offload { kernel in
            try (chosen.map { [$0] } ?? kernel.schools()).compactMap { school in
                let providers = (try? kernel.run(SignInProviders.self, .init(), as: .anonymous, in: school.id)) ?? []
                return providers.first { accepts($0) && $0.issuer == issuer && audiences.contains($0.clientID) }.map { (school, $0) }
            }
        }
        var verified: [(School, VerifiedIdentity)] = []
        var lastRefusal: OpenIDRefusal?
        for (school, provider) in candidates {
            do { verified.append((school, try await IDTokenVerifier.verify(token, provider: provider, expectedNonce: nil))) } catch let refusal as OpenIDRefusal {
                lastRefusal = refusal
            }
        }
        guard let first = verified.first else {
            let (school, reason) = (candidates.first?.0.id, lastRefusal?.rawValue ?? "no-provider")
            try await request.offload { kernel in
                try kernel.recordAudit(action: SignInWithOpenID.id, principal: .anonymous, school: school, outcome: .failed,
                                       detail: "refused (\(reason)): \(TextInput.printable(issuer))")
            }
            throw refusal(request)
        }
        let (email, schools) = (first.1.email, verified)
        let withAccount = try await request.offload { kernel in
            schools.filter { (try? kernel.run(FindAccount.self, .init(email: email), as: .anonymous, in: $0.0.id)) == true }
        }
        if withAccount.count > 1 { return try AuthRoutes.severalSchools(withAccount.map(\.0), request) }
        let (school, identity) = withAccount.first ?? first
        let input = SignInWithOpenID.Input(issuer: identity.issuer, clientID: identity.clientID, email: identity.email, subject: identity.subject,
                                           nonce: identity.nonce, opensSession: false, name: identity.name)
        let result = try await request.offload(on: .writes) { kernel in try kernel.run(SignInWithOpenID.self, input, as: .anonymous, in: school.id) }
        guard let user = result.user else { throw refusal(request) }
        let principal = Principal(userID: user.id, role: user.role, schoolID: school.id, displayName: user.displayName)
        let pair = try await request.tokens.issue(for: principal, email: user.email)
        return try .json(AuthResponse(pair: pair, user: user, school: school.id))
    }

    private static func refusal(_ request: APIRequest) -> APIError {
        request.metrics.recordSignInFailure()
        return refused
    }
}
