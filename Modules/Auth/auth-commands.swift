import ArgumentParser
import Core
import Foundation

/// `hogwarts login --email E [--school S]`: the password comes from a prompt or stdin.
struct LoginCommand: ParsableCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "login", abstract: L("auth.cli.login")) }

    @OptionGroup var global: GlobalOptions
    @Option(name: .customLong("email"), help: ArgumentHelp(L("auth.option.email"))) var email: String
    @Option(name: .customLong("school"), help: ArgumentHelp(L("kernel.option.school"))) var school: String?

    func run() throws {
        let kernel = try global.openKernel()
        let target = try chooseSchool(kernel)
        let password = try PasswordInput.read(prompt: L("auth.prompt.password"))
        let result = try kernel.run(SignIn.self, .init(email: email, password: password), as: .anonymous, in: target.id)
        guard let token = result.token, let user = result.user else { throw AuthError.signInRefused }
        try SessionFile(variables: CommandEnvironment.current.variables)
            .save(.init(schoolID: target.id, email: user.email, token: token), for: kernel.databasePath)
        try global.output.emit(user) { user in
            L("auth.login.done", ["name": user.displayName, "role": user.role.rawValue, "school": target.slug])
        }
    }

    /// The named school, else the only school where the email has an account. With several,
    /// the person chooses (the web app silently picked one). With none, the sign-in goes on in
    /// the first school and is refused and audited exactly like a wrong password.
    private func chooseSchool(_ kernel: Kernel) throws -> School {
        if let school { return try kernel.school(school) }
        let all = try kernel.schools()
        let schools = all.filter { school in
            (try? kernel.run(FindAccount.self, .init(email: email), as: .anonymous, in: school.id)) == true
        }
        switch schools.count {
        case 1: return schools[0]
        case 0:
            // An unknown email goes on exactly like a known one (the prompt, then one sign-in with
            // its single bcrypt check, refused and audited in the first school), so neither the
            // prompt nor the time tells whether the email exists.
            guard let first = all.first else {
                try kernel.recordAudit(action: SignIn.id, principal: .anonymous, school: nil, outcome: .failed,
                                       detail: "refused (unknown-email): \(UserAccounts.normalize(TextInput.printable(email)))")
                throw AuthError.signInRefused
            }
            return first
        default: throw AuthError.chooseSchool(schools.map(\.slug))
        }
    }
}

struct LogoutCommand: ParsableCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "logout", abstract: L("auth.cli.logout")) }

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let kernel = try global.openKernel()
        let file = SessionFile(variables: CommandEnvironment.current.variables)
        guard let entry = file.entry(for: kernel.databasePath) else { throw AuthError.notSignedIn }
        let principal = Principal(userID: entry.email, role: .user, schoolID: entry.schoolID, displayName: entry.email)
        try kernel.run(SignOut.self, .init(token: entry.token), as: principal, in: entry.schoolID)
        try file.save(nil, for: kernel.databasePath)
        try global.output.emit(SignedOut(signedOut: entry.email)) { _ in L("auth.logout.done", ["email": entry.email]) }
    }

    struct SignedOut: Encodable {
        let signedOut: String
    }
}

struct WhoAmICommand: ParsableCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "whoami", abstract: L("auth.cli.whoami")) }

    @OptionGroup var global: GlobalOptions
    @OptionGroup var session: SessionOptions

    struct Identity: Encodable {
        let userID: String
        let name: String
        let role: Role
        let school: String
    }

    /// Shows the session's own school. A `--school` (or `HOGWARTS_SCHOOL`) naming another school
    /// is refused: echoing it back made a demo admin look like the admin of nile.
    func run() throws {
        let session = try CommandSession(global, self.session)
        guard let home = session.principal.schoolID else { throw AuthError.notSignedIn }
        let school = home == session.school.id ? session.school : try session.kernel.school(home)
        if let asked = self.session.school.school ?? CommandEnvironment.current.variables["HOGWARTS_SCHOOL"] {
            let requested = try session.kernel.school(asked)
            guard requested.id == school.id else { throw AuthError.otherSchool(signedIn: school.slug, requested: requested.slug) }
        }
        let identity = Identity(userID: session.principal.userID, name: session.principal.displayName, role: session.principal.role, school: school.slug)
        try global.output.emit(identity) { identity in
            TextTable(headers: [L("auth.heading.name"), L("auth.heading.role"), L("auth.heading.school")],
                      rows: [[identity.name, identity.role.rawValue, identity.school]])
        }
    }
}
