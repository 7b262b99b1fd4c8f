import Core
import Foundation

/// The steps of a password reset shared by the API routes and the console, each synchronous
/// kernel work for a lane's thread: the address's limit, the mail, the check and the change.
/// An email can have an account in several schools: each school mails its own code, and a code
/// changes only the password of the school that made it.
enum PasswordResetFlow {
    /// nil when admitted, else the seconds to wait (the client address's 5 a minute).
    static func admit(address: String, _ kernel: Kernel) throws -> Int? {
        try kernel.admit(PasswordResetPolicy.addressKey(address), limit: PasswordResetPolicy.perAddress)
    }

    /// A code for the email's account in every school that has one, unless the address has had
    /// its codes for now. An unknown email does the same work in the first school, where no code
    /// is made. Callers run this after they have answered, so its time says nothing.
    static func mailCode(to email: String, _ kernel: Kernel) throws {
        guard try kernel.admit(PasswordResetPolicy.emailKey(email), limit: PasswordResetPolicy.perEmail) == nil else { return }
        for school in try schools(of: email, kernel) {
            _ = try kernel.run(RequestPasswordReset.self, .init(email: email), as: .anonymous, in: school)
        }
    }

    /// Whether the code is right for the email's account in one of its schools (not used up).
    static func verify(email: String, code: String, _ kernel: Kernel) throws -> Bool {
        try schools(of: email, kernel).contains { school in
            try kernel.run(VerifyResetCode.self, .init(email: email, code: code), as: .anonymous, in: school)
        }
    }

    /// Sets the new password in the school whose code it is; false when no school accepts the
    /// code. A weak password throws `AuthError.weakPassword` before any code is looked at.
    static func complete(email: String, code: String, newPassword: String, language: Language, _ kernel: Kernel) throws -> Bool {
        try PasswordRules.check(newPassword, email: UserAccounts.normalize(email))
        let input = CompletePasswordReset.Input(email: email, code: code, newPassword: newPassword)
        return try schools(of: email, kernel).contains { school in
            try kernel.run(CompletePasswordReset.self, input, as: .anonymous, in: school, language: language)
        }
    }

    /// The schools where the email has an account, else the first school (the same work, no code).
    static func schools(of email: String, _ kernel: Kernel) throws -> [SchoolID] {
        let all = try kernel.schools()
        let found = all.filter { school in (try? kernel.run(FindAccount.self, .init(email: email), as: .anonymous, in: school.id)) == true }
        return (found.isEmpty ? Array(all.prefix(1)) : found).map(\.id)
    }
}
