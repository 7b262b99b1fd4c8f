import ArgumentParser
import Core
import Foundation

/// `hogwarts school create|list|show`. Creating a school is an operator's job on the local
/// database file: no sign-in, and the school gets its first administrator in the same step.
struct SchoolCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "school", abstract: L("auth.cli.school"), subcommands: [Create.self, List.self, Show.self], defaultSubcommand: List.self)
    }

    struct Create: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "create", abstract: L("auth.cli.school.create")) }

        @OptionGroup var global: GlobalOptions
        @Option(name: .customLong("slug"), help: ArgumentHelp(L("auth.option.slug"))) var slug: String
        @Option(name: .customLong("name-ar"), help: ArgumentHelp(L("auth.option.name-ar"))) var nameArabic: String
        @Option(name: .customLong("name-en"), help: ArgumentHelp(L("auth.option.name-en"))) var nameEnglish: String
        @Option(name: .customLong("time-zone"), help: ArgumentHelp(L("auth.option.time-zone"))) var timeZone = "Africa/Khartoum"
        @Option(name: .customLong("language"), help: ArgumentHelp(L("auth.option.school-language"))) var language = "ar"
        @Option(name: .customLong("modules"), help: ArgumentHelp(L("auth.option.modules"))) var modules: String?
        @Option(name: .customLong("admin-email"), help: ArgumentHelp(L("auth.option.admin-email"))) var adminEmail: String
        @Option(name: .customLong("admin-name"), help: ArgumentHelp(L("auth.option.admin-name"))) var adminName: String?

        func run() throws {
            guard let schoolLanguage = Language(rawValue: language) else {
                throw CommandError.invalidArgument(name: "--language", value: language, expected: "ar|en")
            }
            try checkText()
            // The one command besides migrate and demo that may start a new database (migrated here).
            let school = try global.withNewOrCurrentDatabase { kernel in
                let password = try PasswordInput.read(prompt: L("auth.prompt.new-password"))
                let admin = CreateUser.Input(email: adminEmail, displayName: adminName ?? adminEmail, role: .admin, password: password)
                return try kernel.createSchool(NewSchool(
                    slug: slug, name: LocalizedText(ar: nameArabic, en: nameEnglish), timeZone: timeZone, language: schoolLanguage,
                    enabledModules: modules.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } })
                ) { context in
                    try CreateUser().validate(admin, in: context)
                    _ = try CreateUser().perform(admin, in: context)
                }
            }
            try global.output.emit(school) { L("auth.school.created", ["school": $0.slug, "email": UserAccounts.normalize(adminEmail)]) }
        }

        /// The names and the admin's email, checked before the password is asked for: no control
        /// characters, no invalid UTF-8, not blank, not over-long. (`CreateUser` checks the admin again.)
        private func checkText() throws {
            for (value, fieldKey) in [(nameArabic, "auth.field.name-ar"), (nameEnglish, "auth.field.name-en")] {
                try TextInput.check(value, field: L(fieldKey), maxLength: TextLimit.title)
                guard !value.trimmingCharacters(in: .whitespaces).isEmpty else { throw InputError("auth.error.text-required", ["field": L(fieldKey)]) }
            }
            try TextInput.check(adminEmail, field: L("auth.field.admin-email"), maxLength: UserAccounts.maximumEmailLength)
            if let adminName { try TextInput.check(adminName, field: L("auth.field.admin-name"), maxLength: TextLimit.name) }
        }
    }

    struct List: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "list", abstract: L("auth.cli.school.list")) }

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let kernel = try global.openKernel()
            let language = kernel.localizer.language
            try global.output.emit(try kernel.schools()) { schools in
                TextTable(
                    headers: [L("auth.heading.slug"), L("auth.heading.name"), L("auth.heading.time-zone"), L("auth.heading.language")],
                    rows: schools.map { [$0.slug, $0.name.text(in: language), $0.timeZone, $0.language.rawValue] })
            }
        }
    }

    struct Show: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "show", abstract: L("auth.cli.school.show")) }

        @OptionGroup var global: GlobalOptions
        @Argument(help: ArgumentHelp(L("kernel.option.school"))) var school: String

        func run() throws {
            let kernel = try global.openKernel()
            let found = try kernel.school(school)
            let details = Details(school: found, modules: try kernel.enabledModules(for: found.id).sorted())
            try global.output.emit(details) { details in
                let school = details.school
                return TextTable(headers: [L("auth.heading.field"), L("auth.heading.value")], rows: [
                    [L("auth.heading.slug"), school.slug],
                    [L("auth.heading.name-ar"), school.name.ar],
                    [L("auth.heading.name-en"), school.name.en],
                    [L("auth.heading.time-zone"), school.timeZone],
                    [L("auth.heading.language"), school.language.rawValue],
                    [L("auth.heading.modules"), details.modules.joined(separator: ", ")],
                ])
            }
        }

        /// The school's fields at the top level of the JSON, with the modules that are on.
        struct Details: Encodable {
            let school: School
            let modules: [String]

            func encode(to encoder: any Encoder) throws {
                try school.encode(to: encoder)
                var container = encoder.container(keyedBy: Keys.self)
                try container.encode(modules, forKey: .modules)
            }

            enum Keys: String, CodingKey { case modules }
        }
    }
}
