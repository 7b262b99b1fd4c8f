import Foundation
import HogwartsBase
import HogwartsKernel

/// How the console signs in a person whose email has accounts in several schools with one
/// password, and lets them switch school: provided by the module that owns accounts, through its
/// own actions (the same lockout, attempts and audit as a sign-in). Synchronous kernel work,
/// like `ConsoleIdentity`.
public protocol ConsoleSchoolChoice: Sendable {
    /// Checks the password in one school without opening a session, counted and audited as a
    /// sign-in. When right (and the account may sign in), a proof of the account as checked,
    /// which changes with its password; nil when refused, whatever the reason.
    func checkPassword(email: String, password: String, school: SchoolID, kernel: Kernel, language: Language) throws -> String?
    /// Opens a session in the school chosen after `checkPassword` accepted the password there
    /// (the console has checked its signed ticket); nil when the account changed since (a new
    /// password, suspended, locked).
    func signIn(email: String, proof: String, school: SchoolID, kernel: Kernel, language: Language) throws -> ConsoleSession?
    /// The signed-in person's email and the other schools where it has an active account.
    func otherSchools(of principal: Principal, kernel: Kernel) throws -> ConsoleOtherSchools?
}

/// A person's email and the other schools where it has an active account.
public struct ConsoleOtherSchools: Sendable {
    public let email: String
    public let schools: [School]

    public init(email: String, schools: [School]) {
        self.email = email
        self.schools = schools
    }
}
