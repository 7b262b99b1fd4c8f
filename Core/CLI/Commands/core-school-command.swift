import ArgumentParser

struct SchoolCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "school", abstract: L("kernel.cli.school"), subcommands: [Create.self, List.self], defaultSubcommand: List.self)
    }

    struct Create: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(commandName: "create", abstract: L("kernel.cli.school.create"))
        }

        @OptionGroup var global: GlobalOptions
        @Option(name: .customLong("slug"), help: ArgumentHelp(L("kernel.option.slug"))) var slug: String
        @Option(name: .customLong("name-ar"), help: ArgumentHelp(L("kernel.option.name-ar"))) var nameArabic: String
        @Option(name: .customLong("name-en"), help: ArgumentHelp(L("kernel.option.name-en"))) var nameEnglish: String
        @Option(name: .customLong("time-zone"), help: ArgumentHelp(L("kernel.option.time-zone"))) var timeZone = "Africa/Khartoum"
        @Option(name: .customLong("language"), help: ArgumentHelp(L("kernel.option.school-language"))) var language = "ar"
        @Option(name: .customLong("modules"), help: ArgumentHelp(L("kernel.option.modules"))) var modules: String?

        func run() throws {
            guard let schoolLanguage = Language(rawValue: language) else {
                throw CommandError.invalidArgument(name: "--language", value: language, expected: "ar|en")
            }
            let kernel = try global.openKernel()
            let school = try kernel.createSchool(NewSchool(
                slug: slug, name: LocalizedText(ar: nameArabic, en: nameEnglish), timeZone: timeZone, language: schoolLanguage,
                enabledModules: modules.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }))
            try global.output.emit(school) { L("kernel.school.created", ["school": $0.slug]) }
        }
    }

    struct List: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(commandName: "list", abstract: L("kernel.cli.school.list"))
        }

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let kernel = try global.openKernel()
            let language = kernel.localizer.language
            try global.output.emit(try kernel.schools()) { schools in
                TextTable(
                    headers: [L("kernel.heading.slug"), L("kernel.heading.name"), L("kernel.heading.time-zone"), L("kernel.heading.language")],
                    rows: schools.map { [$0.slug, $0.name.text(in: language), $0.timeZone, $0.language.rawValue] })
            }
        }
    }
}
