import Core
import Foundation

extension AuthModule {
    /// The console signs people in through Auth's own actions: the same lockout, refusal and audit.
    public var consoleIdentity: (any ConsoleIdentity)? { AuthConsoleIdentity() }
}

/// Sign-in for the web console: `SignIn` opens a 24-hour session (as `hogwarts login` does),
/// `ResolveSession` checks it on every page, `SignOut` ends it, and the profile keeps the language.
struct AuthConsoleIdentity: ConsoleIdentity {
    func schools(forEmail email: String, kernel: Kernel) throws -> [School] {
        try kernel.schools().filter { school in
            (try? kernel.run(FindAccount.self, .init(email: email), as: .anonymous, in: school.id)) == true
        }
    }

    func signIn(email: String, password: String, school: SchoolID, kernel: Kernel, language: Language) throws -> ConsoleSession? {
        let result = try kernel.run(SignIn.self, .init(email: email, password: password, opensSession: true), as: .anonymous, in: school, language: language)
        guard let token = result.token, let user = result.user else { return nil }
        return ConsoleSession(token: token, user: try Self.consoleUser(user, school: school, kernel: kernel))
    }

    func resolve(token: String, school: SchoolID, kernel: Kernel) throws -> ConsoleUser? {
        let session = try kernel.run(ResolveSession.self, .init(token: token), as: .anonymous, in: school)
        guard session.state == .valid, let user = session.user else { return nil }
        return try Self.consoleUser(user, school: school, kernel: kernel)
    }

    func signOut(token: String, school: SchoolID, kernel: Kernel) throws {
        try kernel.run(SignOut.self, .init(token: token), as: .anonymous, in: school)
    }

    func setLanguage(_ language: Language, for principal: Principal, kernel: Kernel) throws {
        guard let school = principal.schoolID else { return }
        try kernel.run(UpdateProfile.self, .init(language: language), as: principal, in: school)
    }

    var passwordReset: (any ConsolePasswordReset)? { AuthConsolePasswordReset() }
    var invitations: (any ConsoleInvitations)? { AuthConsoleInvitations() }
    var openID: (any ConsoleOpenID)? { AuthConsoleOpenID() }
    var schoolChoice: (any ConsoleSchoolChoice)? { AuthConsoleSchoolChoice() }

    /// The person with the language of their profile (their choice, else the school's).
    static func consoleUser(_ user: User, school: SchoolID, kernel: Kernel) throws -> ConsoleUser {
        let principal = Principal(userID: user.id, role: user.role, schoolID: school, displayName: user.displayName)
        let profile = try kernel.run(ShowProfile.self, .init(), as: principal, in: school)
        return ConsoleUser(principal: principal, language: profile.language)
    }
}

/// One password for an email in several schools (`CheckPassword`, then `SignInChosenSchool` in
/// the school chosen), and the other schools of a signed-in person for "Switch school".
struct AuthConsoleSchoolChoice: ConsoleSchoolChoice {
    func checkPassword(email: String, password: String, school: SchoolID, kernel: Kernel, language: Language) throws -> String? {
        try kernel.run(CheckPassword.self, .init(email: email, password: password), as: .anonymous, in: school, language: language).proof
    }

    func signIn(email: String, proof: String, school: SchoolID, kernel: Kernel, language: Language) throws -> ConsoleSession? {
        let result = try kernel.run(SignInChosenSchool.self, .init(email: email, proof: proof), as: .anonymous, in: school, language: language)
        guard let token = result.token, let user = result.user else { return nil }
        return ConsoleSession(token: token, user: try AuthConsoleIdentity.consoleUser(user, school: school, kernel: kernel))
    }

    func otherSchools(of principal: Principal, kernel: Kernel) throws -> ConsoleOtherSchools? {
        guard let school = principal.schoolID,
              let user = try kernel.run(CurrentUser.self, .init(userID: principal.userID), as: .anonymous, in: school) else { return nil }
        let others = try kernel.schools().filter { other in
            // A school where Auth is off (or that refuses the look-up) has no account to switch to.
            other.id != school && (try? kernel.run(FindActiveAccount.self, .init(email: user.email), as: .anonymous, in: other.id)) == true
        }
        return ConsoleOtherSchools(email: user.email, schools: others)
    }
}

/// The console's "Forgot your password?": the API's reset steps (`PasswordResetFlow`), the same
/// limits and actions.
struct AuthConsolePasswordReset: ConsolePasswordReset {
    func admit(address: String, kernel: Kernel) throws -> Int? {
        try PasswordResetFlow.admit(address: address, kernel)
    }

    func mailCode(to email: String, kernel: Kernel) throws {
        try PasswordResetFlow.mailCode(to: email, kernel)
    }

    func complete(email: String, code: String, newPassword: String, kernel: Kernel, language: Language) throws -> Bool {
        try PasswordResetFlow.complete(email: email, code: code, newPassword: newPassword, language: language, kernel)
    }
}

/// The console's invitation page: the link's token names the school, then Auth's own actions.
struct AuthConsoleInvitations: ConsoleInvitations {
    func email(invitedBy token: String, kernel: Kernel) throws -> String? {
        guard let (school, secret) = InvitationPolicy.parts(of: token), (try? kernel.school(school)) != nil else { return nil }
        return try kernel.run(ShowInvitation.self, .init(secret: secret), as: .anonymous, in: school)?.email
    }

    func accept(token: String, password: String, kernel: Kernel, language: Language) throws -> Bool {
        guard let (school, secret) = InvitationPolicy.parts(of: token), (try? kernel.school(school)) != nil else { return false }
        do {
            _ = try kernel.run(AcceptInvitation.self, .init(secret: secret, password: password), as: .anonymous, in: school, language: language)
            return true
        } catch AuthError.invitationInvalid {
            return false
        }
    }
}
