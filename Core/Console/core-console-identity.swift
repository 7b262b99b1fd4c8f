import Foundation
import HogwartsBase
import HogwartsKernel

/// How the console signs people in and out: provided by the module that owns accounts (as
/// `IdentityProvider` is for the command line), through that module's own actions, so the
/// console gets the same lockout, the same single refusal and the same audit as the CLI and the API.
/// Every method is synchronous kernel work: the shell calls it on the kernel's thread pool.
public protocol ConsoleIdentity: Sendable {
    /// Schools where this email has an account, so the shell can ask which one (as the API's 409 does).
    func schools(forEmail email: String, kernel: Kernel) throws -> [School]
    /// Checks the password in one school and opens a session; nil when refused (whatever the reason).
    func signIn(email: String, password: String, school: SchoolID, kernel: Kernel, language: Language) throws -> ConsoleSession?
    /// Who a session token belongs to, while it is valid; nil otherwise.
    func resolve(token: String, school: SchoolID, kernel: Kernel) throws -> ConsoleUser?
    /// Ends the session at once.
    func signOut(token: String, school: SchoolID, kernel: Kernel) throws
    /// Keeps the person's language in their profile.
    func setLanguage(_ language: Language, for principal: Principal, kernel: Kernel) throws
    /// Resets a forgotten password by emailed code; nil (the default) when the module has none.
    var passwordReset: (any ConsolePasswordReset)? { get }
    /// Accepts invitations (a link to set one's password); nil (the default) when the module has none.
    var invitations: (any ConsoleInvitations)? { get }
    /// Signs in through schools' OpenID Connect providers; nil (the default) when the module has none.
    var openID: (any ConsoleOpenID)? { get }
    /// One password for an email in several schools, and "Switch school"; nil (the default) when
    /// the module has none (the console then asks which school before the password).
    var schoolChoice: (any ConsoleSchoolChoice)? { get }
}

/// A signed-in session: the secret token the cookie carries, and who it is.
public struct ConsoleSession: Sendable {
    public let token: String
    public let user: ConsoleUser

    public init(token: String, user: ConsoleUser) {
        self.token = token
        self.user = user
    }
}

/// The person behind a session, with the language they read the console in.
public struct ConsoleUser: Sendable {
    public let principal: Principal
    public let language: Language

    public init(principal: Principal, language: Language) {
        self.principal = principal
        self.language = language
    }
}

extension ConsoleIdentity {
    /// How the console resets a forgotten password: nil when the identity module has no reset
    /// (the sign-in page then offers no "Forgot your password?" link).
    public var passwordReset: (any ConsolePasswordReset)? { nil }
    public var invitations: (any ConsoleInvitations)? { nil }
    public var openID: (any ConsoleOpenID)? { nil }
    public var schoolChoice: (any ConsoleSchoolChoice)? { nil }
}

/// An invitation's page: who it is for, and setting the password it invites to choose. The token
/// is the link's whole `token`; the module reads it. Synchronous kernel work, like `ConsoleIdentity`.
public protocol ConsoleInvitations: Sendable {
    /// The invited email when the link is live (unused, unexpired); nil for any other link.
    func email(invitedBy token: String, kernel: Kernel) throws -> String?
    /// Sets the password: false when the link is not live. A password the rules refuse throws a
    /// `HogwartsError` saying which rule, and leaves the link working.
    func accept(token: String, password: String, kernel: Kernel, language: Language) throws -> Bool
}

/// Password reset by emailed code, provided by the module that owns accounts through its own
/// actions and limits, so the console's flow is the API's. Synchronous kernel work, like `ConsoleIdentity`.
public protocol ConsolePasswordReset: Sendable {
    /// nil when the client address may go on, else the seconds it must wait.
    func admit(address: String, kernel: Kernel) throws -> Int?
    /// Mails a code to the email's accounts, if it has any. The console calls it after it has
    /// answered, so the answer's time says nothing about the email.
    func mailCode(to email: String, kernel: Kernel) throws
    /// Sets the new password with the code: true when changed, false when the code is refused.
    /// A password the rules refuse throws a `HogwartsError` saying which rule.
    func complete(email: String, code: String, newPassword: String, kernel: Kernel, language: Language) throws -> Bool
}
