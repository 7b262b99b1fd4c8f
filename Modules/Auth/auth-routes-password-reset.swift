import Core
import Foundation

/// The contract's password reset (§1): `reset` mails a code, `verify-otp` checks it, and
/// `new-password` sets the password with it. Each counts against the client address's limit
/// (5 a minute, in the database, so every server counts together: 429 beyond it).
///
/// `reset` answers the same `{message}` at once whether or not the email has an account: the
/// look-up, the code's hash and the mail happen after the answer, so neither the words nor the
/// time say anything about the email.
enum PasswordResetRoutes {
    static var all: [APIRoute] { [request, verify, complete] }

    static let invalidCode = APIError(status: 401, code: "AUTH_RESET_CODE_INVALID", messageKey: "auth.error.reset-code-invalid")

    /// `{message}`, in the request's language.
    struct Message: Codable, Sendable {
        let message: String
    }

    struct EmailBody: Decodable {
        let email: String
    }

    struct CodeBody: Decodable {
        let email: String
        let otp: String
    }

    struct NewPasswordBody: Decodable {
        let email: String
        let otp: String
        let newPassword: String
    }

    static var request: APIRoute {
        APIRoute(.post, "/api/mobile/auth/reset", summary: "Mail a 6-digit password reset code; the same answer whether or not the email has an account",
                 access: .everyone, body: .object([("email", .string(maxLength: UserAccounts.maximumEmailLength))]), response: .of(Message.self)) { request in
            let body = try request.decode(EmailBody.self)
            try checkEmail(body.email)
            try await admit(request)
            let email = body.email
            // Not awaited: the answer leaves before anything about the email is known.
            Task {
                do {
                    try await request.offload(on: .passwords) { kernel in try PasswordResetFlow.mailCode(to: email, kernel) }
                } catch {
                    request.kernel.reportBackgroundFailure("password reset mail", error)
                }
            }
            return try .json(Message(message: request.localizer("auth.reset.sent")))
        }
    }

    static var verify: APIRoute {
        APIRoute(.post, "/api/mobile/auth/verify-otp", summary: "Check a password reset code without using it up (401 when wrong, used or expired)",
                 access: .everyone,
                 body: .object([("email", .string(maxLength: UserAccounts.maximumEmailLength)), ("otp", .string(maxLength: PasswordResetPolicy.codeLength))]),
                 response: .of(Message.self)) { request in
            let body = try request.decode(CodeBody.self)
            try checkEmail(body.email)
            try checkCode(body.otp)
            try await admit(request)
            let (email, code) = (body.email, body.otp)
            guard try await request.offload(on: .passwords, { kernel in try PasswordResetFlow.verify(email: email, code: code, kernel) }) else {
                throw invalidCode
            }
            return try .json(Message(message: request.localizer("auth.reset.code-accepted")))
        }
    }

    static var complete: APIRoute {
        APIRoute(.post, "/api/mobile/auth/new-password",
                 summary: "Set a new password with a reset code: the code is used up and every sign-in of the account ends",
                 access: .everyone,
                 body: .object([("email", .string(maxLength: UserAccounts.maximumEmailLength)), ("otp", .string(maxLength: PasswordResetPolicy.codeLength)),
                                ("new_password", .string(maxLength: AuthRoutes.maximumPasswordLength))]),
                 response: .of(Message.self)) { request in
            let body = try request.decode(NewPasswordBody.self)
            try checkEmail(body.email)
            try checkCode(body.otp)
            if body.newPassword.count > AuthRoutes.maximumPasswordLength {
                throw APIError.invalidField("new_password", reason: "longer than \(AuthRoutes.maximumPasswordLength) characters")
            }
            // The rules first: a weak password is refused before any code is looked at.
            try PasswordRules.check(body.newPassword, email: UserAccounts.normalize(body.email))
            try await admit(request)
            let (email, code, password, language) = (body.email, body.otp, body.newPassword, request.language)
            guard try await request.offload(on: .passwords, { kernel in
                try PasswordResetFlow.complete(email: email, code: code, newPassword: password, language: language, kernel)
            }) else { throw invalidCode }
            return try .json(Message(message: request.localizer("auth.reset.done")))
        }
    }

    static func checkEmail(_ email: String) throws {
        if email.trimmingCharacters(in: .whitespaces).isEmpty { throw APIError.invalidField("email", reason: "missing") }
        if email.count > UserAccounts.maximumEmailLength {
            throw APIError.invalidField("email", reason: "longer than \(UserAccounts.maximumEmailLength) characters")
        }
    }

    static func checkCode(_ code: String) throws {
        guard PasswordResetPolicy.isWellFormed(code) else { throw APIError.invalidField("otp", reason: "not 6 digits") }
    }

    /// The client address's limit: 429 with `Retry-After` beyond 5 a minute.
    static func admit(_ request: APIRequest) async throws {
        let address = request.clientAddress
        if let wait = try await request.offload(on: .writes, { kernel in try PasswordResetFlow.admit(address: address, kernel) }) {
            throw APIError.tooManyRequests(retryAfter: wait)
        }
    }
}
