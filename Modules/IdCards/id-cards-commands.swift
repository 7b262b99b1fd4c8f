import ArgumentParser
import Core
import Foundation

/// `hogwarts id-cards show|verify`: one's own card, and checking someone's.
struct IdCardsCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "id-cards", abstract: L("id-cards.cli.abstract"), subcommands: [Show.self, Verify.self], defaultSubcommand: Show.self)
    }

    struct Show: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "show", abstract: L("id-cards.cli.show")) }

        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions

        func run() throws {
            let session = try CommandSession(global, self.session)
            let language = session.kernel.localizer.language
            try session.output.emit(try session.run(ShowIdCard.self, .init())) { card in
                TextTable(headers: [L("id-cards.heading.field"), L("id-cards.heading.value")], rows: [
                    [L("id-cards.heading.name"), "\(card.givenName) \(card.familyName)"],
                    [L("id-cards.heading.role"), card.role.rawValue],
                    [L("id-cards.heading.number"), card.idNumber ?? ""],
                    [L("id-cards.heading.class"), card.section?.text(in: language) ?? ""],
                    [L("id-cards.heading.school"), card.schoolName.text(in: language)],
                    [L("id-cards.heading.qr"), card.qrPayload],
                ])
            }
        }
    }

    struct Verify: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "verify", abstract: L("id-cards.cli.verify")) }

        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("id-cards.argument.payload"))) var payload: String

        func run() throws {
            let session = try CommandSession(global, self.session)
            let language = session.kernel.localizer.language
            try session.output.emit(try session.run(VerifyIdCard.self, .init(payload: payload))) { holder in
                L("id-cards.verified", ["name": holder.name, "role": holder.role.rawValue, "number": holder.idNumber ?? "-",
                                        "class": holder.section?.text(in: language) ?? "-"])
            }
        }
    }
}
