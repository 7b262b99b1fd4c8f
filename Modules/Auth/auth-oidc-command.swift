import ArgumentParser
import Core
import Foundation

/// `hogwarts auth oidc add|list|remove`: the OpenID Connect providers a school signs people in with.
struct AuthCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "auth", abstract: L("auth.cli.auth"), subcommands: [OIDC.self])
    }

    struct OIDC: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(commandName: "oidc", abstract: L("auth.cli.oidc"), subcommands: [List.self, Add.self, Remove.self], defaultSubcommand: List.self)
        }

        static func table(_ providers: [OpenIDProvider]) -> TextTable {
            TextTable(
                headers: [L("auth.heading.issuer"), L("auth.heading.client-id"), L("auth.heading.domain"), L("auth.heading.name")],
                rows: providers.map { [$0.issuer, $0.clientID, $0.domain.isEmpty ? "*" : $0.domain, "\($0.name.ar) / \($0.name.en)"] })
        }
    }

    struct List: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "list", abstract: L("auth.cli.oidc.list")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions

        func run() throws {
            let session = try CommandSession(global, self.session)
            try session.output.emit(try session.run(ListOpenIDProviders.self, .init()), table: OIDC.table)
        }
    }

    struct Add: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "add", abstract: L("auth.cli.oidc.add")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Option(name: .customLong("issuer"), help: ArgumentHelp(L("auth.option.issuer"))) var issuer: String
        @Option(name: .customLong("client-id"), help: ArgumentHelp(L("auth.option.client-id"))) var clientID: String
        @Option(name: .customLong("client-secret-file"), help: ArgumentHelp(L("auth.option.client-secret-file"))) var clientSecretFile: String?
        @Option(name: .customLong("domain"), help: ArgumentHelp(L("auth.option.domain"))) var domain: String?
        @Option(name: .customLong("name-ar"), help: ArgumentHelp(L("auth.option.provider-name-ar"))) var nameArabic: String?
        @Option(name: .customLong("name-en"), help: ArgumentHelp(L("auth.option.provider-name-en"))) var nameEnglish: String?

        func run() throws {
            // The secret stays in its file (kept 0600 by the operator); the database holds only where it is.
            let secretFile = try clientSecretFile.map { path in
                let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
                guard FileManager.default.isReadableFile(atPath: absolute) else { throw KernelError.fileMissing(path) }
                return absolute
            }
            let session = try CommandSession(global, self.session)
            let provider = try session.run(AddOpenIDProvider.self, .init(issuer: issuer, clientID: clientID, clientSecretFile: secretFile, domain: domain,
                                                                          nameAr: nameArabic, nameEn: nameEnglish))
            try session.output.emit(provider) { L("auth.oidc.added", ["issuer": $0.issuer, "client": $0.clientID]) }
        }
    }

    struct Remove: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "remove", abstract: L("auth.cli.oidc.remove")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Option(name: .customLong("issuer"), help: ArgumentHelp(L("auth.option.issuer"))) var issuer: String

        func run() throws {
            let session = try CommandSession(global, self.session)
            let removed = try session.run(RemoveOpenIDProvider.self, .init(issuer: issuer))
            try session.output.emit(removed) { _ in L("auth.oidc.removed", ["issuer": issuer]) }
        }
    }
}
