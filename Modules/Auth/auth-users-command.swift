import ArgumentParser
import Core

/// `hogwarts users ...`: administrators manage their school's accounts.
struct UsersCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "users", abstract: L("auth.cli.users"),
            subcommands: [List.self, Create.self, Invite.self, Role.self, Suspend.self, Reinstate.self, ResetPassword.self, Unlock.self],
            defaultSubcommand: List.self)
    }

    static func table(_ users: [User]) -> TextTable {
        TextTable(
            headers: [L("auth.heading.email"), L("auth.heading.name"), L("auth.heading.role"), L("auth.heading.status")],
            rows: users.map { [$0.email, $0.displayName, $0.role.rawValue, $0.status.rawValue] })
    }

    /// Runs one of the single-account changes and confirms it with `messageKey`.
    static func change<A: Action>(_ action: A.Type, _ change: UserChange, _ global: GlobalOptions, _ options: SessionOptions, messageKey: String) throws
    where A.Input == UserChange, A.Output == User {
        let session = try CommandSession(global, options)
        let user = try session.run(action, change)
        try session.output.emit(user) { L(messageKey, ["email": $0.email, "role": $0.role.rawValue]) }
    }

    static func parseRole(_ text: String) throws -> Core.Role {
        guard let role = Core.Role(rawValue: text.uppercased()) else {
            throw CommandError.invalidArgument(name: "role", value: text, expected: Core.Role.allCases.map(\.rawValue).joined(separator: "|"))
        }
        return role
    }

    struct List: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "list", abstract: L("auth.cli.users.list")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Option(name: .customLong("role"), help: ArgumentHelp(L("auth.option.role"))) var role: String?

        func run() throws {
            let session = try CommandSession(global, self.session)
            let users = try session.run(ListUsers.self, .init(role: try role.map(UsersCommand.parseRole)))
            try session.output.emit(users, table: UsersCommand.table)
        }
    }

    struct Create: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "create", abstract: L("auth.cli.users.create")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Option(name: .customLong("email"), help: ArgumentHelp(L("auth.option.email"))) var email: String
        @Option(name: .customLong("name"), help: ArgumentHelp(L("auth.option.name"))) var name: String
        @Option(name: .customLong("role"), help: ArgumentHelp(L("auth.option.role"))) var role: String

        func run() throws {
            let role = try UsersCommand.parseRole(role)
            let session = try CommandSession(global, self.session)
            let password = try PasswordInput.read(prompt: L("auth.prompt.new-password"))
            let user = try session.run(CreateUser.self, .init(email: email, displayName: name, role: role, password: password))
            try session.output.emit(user) { L("auth.users.created", ["email": $0.email, "role": $0.role.rawValue]) }
        }
    }

    struct Invite: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "invite", abstract: L("auth.cli.users.invite")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Option(name: .customLong("email"), help: ArgumentHelp(L("auth.option.email"))) var email: String
        @Option(name: .customLong("name"), help: ArgumentHelp(L("auth.option.invite-name"))) var name: String?
        @Option(name: .customLong("role"), help: ArgumentHelp(L("auth.option.invite-role"))) var role: String?

        func run() throws {
            let role = try role.map(UsersCommand.parseRole)
            let session = try CommandSession(global, self.session)
            let invited = try session.run(InviteUser.self, .init(email: email, displayName: name, role: role))
            try session.output.emit(invited) {
                L("auth.users.invited", ["email": $0.user.email, "role": $0.user.role.rawValue, "until": $0.expiresAt.formatted(.iso8601)])
            }
        }
    }

    struct Role: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "role", abstract: L("auth.cli.users.role")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("auth.option.email"))) var email: String
        @Argument(help: ArgumentHelp(L("auth.option.role"))) var role: String

        func run() throws {
            let role = try UsersCommand.parseRole(role)
            try UsersCommand.change(ChangeRole.self, UserChange(email: email, role: role), global, session, messageKey: "auth.users.role-changed")
        }
    }

    struct Suspend: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "suspend", abstract: L("auth.cli.users.suspend")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("auth.option.email"))) var email: String

        func run() throws {
            try UsersCommand.change(SetSuspended.self, UserChange(email: email, suspended: true), global, session, messageKey: "auth.users.suspended")
        }
    }

    struct Reinstate: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "reinstate", abstract: L("auth.cli.users.reinstate")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("auth.option.email"))) var email: String

        func run() throws {
            try UsersCommand.change(SetSuspended.self, UserChange(email: email, suspended: false), global, session, messageKey: "auth.users.reinstated")
        }
    }

    struct ResetPassword: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "reset-password", abstract: L("auth.cli.users.reset-password")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("auth.option.email"))) var email: String

        func run() throws {
            let password = try PasswordInput.read(prompt: L("auth.prompt.new-password"))
            try UsersCommand.change(Auth.ResetPassword.self, UserChange(email: email, password: password), global, session, messageKey: "auth.users.password-reset")
        }
    }

    struct Unlock: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "unlock", abstract: L("auth.cli.users.unlock")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("auth.option.email"))) var email: String

        func run() throws {
            try UsersCommand.change(UnlockUser.self, UserChange(email: email), global, session, messageKey: "auth.users.unlocked")
        }
    }
}
