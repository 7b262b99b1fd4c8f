import Foundation

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
