import ArgumentParser
import Core

/// `hogwarts classes ...`: year levels, classes and who teaches what.
struct ClassesCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "classes", abstract: L("students.cli.classes"),
                             subcommands: [List.self, Add.self, AddLevel.self, AssignTeacher.self], defaultSubcommand: List.self)
    }

    struct List: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "list", abstract: L("students.cli.classes.list")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions

        func run() throws {
            let session = try CommandSession(global, self.session)
            let language = session.kernel.localizer.language
            try session.output.emit(try session.run(ListClasses.self, .init())) { classes in
                TextTable(headers: [L("students.heading.class"), L("students.heading.name"), L("students.heading.level"), L("students.heading.enrolment")],
                          rows: classes.map { [$0.code, $0.name.text(in: language), $0.yearLevel, "\($0.enrolled)/\($0.capacity)"] })
            }
        }
    }

    struct Add: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "add", abstract: L("students.cli.classes.add")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("students.argument.code"))) var code: String
        @Option(name: .customLong("name-ar"), help: ArgumentHelp(L("students.option.name-ar"))) var nameArabic: String
        @Option(name: .customLong("name-en"), help: ArgumentHelp(L("students.option.name-en"))) var nameEnglish: String
        @Option(name: .customLong("year-level"), help: ArgumentHelp(L("students.option.year-level"))) var yearLevel: String
        @Option(name: .customLong("homeroom"), help: ArgumentHelp(L("students.option.homeroom"))) var homeroom: String?
        @Option(name: .customLong("capacity"), parsing: .unconditional, help: ArgumentHelp(L("students.option.capacity"))) var capacity: String?

        func run() throws {
            let session = try CommandSession(global, self.session)
            let capacity = try capacity.map { try ArgumentValue.integer($0, option: "--capacity", in: 1...200) } ?? 30
            try session.run(CreateClass.self, .init(code: code, name: LocalizedText(ar: nameArabic, en: nameEnglish), yearLevel: yearLevel,
                                                    homeroomTeacherEmail: homeroom, capacity: capacity))
            try session.output.emit(["class": code]) { _ in L("students.class.added", ["code": code]) }
        }
    }

    struct AddLevel: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "add-level", abstract: L("students.cli.classes.add-level")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("students.argument.code"))) var code: String
        @Option(name: .customLong("name-ar"), help: ArgumentHelp(L("students.option.name-ar"))) var nameArabic: String
        @Option(name: .customLong("name-en"), help: ArgumentHelp(L("students.option.name-en"))) var nameEnglish: String
        @Option(name: .customLong("position"), parsing: .unconditional, help: ArgumentHelp(L("students.option.position"))) var position: String?

        func run() throws {
            let session = try CommandSession(global, self.session)
            let position = try position.map { try ArgumentValue.integer($0, option: "--position", in: 0...100) } ?? 1
            try session.run(CreateYearLevel.self, .init(code: code, name: LocalizedText(ar: nameArabic, en: nameEnglish), position: position))
            try session.output.emit(["year_level": code]) { _ in L("students.level.added", ["code": code]) }
        }
    }

    struct AssignTeacher: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "assign-teacher", abstract: L("students.cli.classes.assign-teacher")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Option(name: .customLong("teacher"), help: ArgumentHelp(L("students.option.teacher"))) var teacher: String
        @Option(name: .customLong("class"), help: ArgumentHelp(L("students.option.class"))) var classCode: String
        @Option(name: .customLong("subject"), help: ArgumentHelp(L("students.option.subject"))) var subject: String

        func run() throws {
            let session = try CommandSession(global, self.session)
            try session.run(Students.AssignTeacher.self, .init(teacherEmail: teacher, classCode: classCode, subjectCode: subject))
            try session.output.emit(["teacher": teacher, "class": classCode, "subject": subject]) { _ in
                L("students.teacher.assigned", ["teacher": teacher, "class": classCode, "subject": subject])
            }
        }
    }
}

/// `hogwarts subjects list|add`.
struct SubjectsCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "subjects", abstract: L("students.cli.subjects"), subcommands: [List.self, Add.self, Catalog.self, Show.self, Mine.self], defaultSubcommand: List.self)
    }

    struct List: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "list", abstract: L("students.cli.subjects.list")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions

        func run() throws {
            let session = try CommandSession(global, self.session)
            let language = session.kernel.localizer.language
            try session.output.emit(try session.run(ListSubjects.self, .init())) { subjects in
                TextTable(headers: [L("students.heading.code"), L("students.heading.name"), L("students.heading.credits")],
                          rows: subjects.map { [$0.code, $0.name.text(in: language), String($0.credits)] })
            }
        }
    }

    struct Add: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "add", abstract: L("students.cli.subjects.add")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("students.argument.code"))) var code: String
        @Option(name: .customLong("name-ar"), help: ArgumentHelp(L("students.option.name-ar"))) var nameArabic: String
        @Option(name: .customLong("name-en"), help: ArgumentHelp(L("students.option.name-en"))) var nameEnglish: String
        @Option(name: .customLong("credits"), parsing: .unconditional, help: ArgumentHelp(L("students.option.credits"))) var credits: String?

        func run() throws {
            let session = try CommandSession(global, self.session)
            let credits = try credits.map { try ArgumentValue.decimal($0, option: "--credits", in: 0...20) } ?? 1
            try session.run(CreateSubject.self, .init(code: code, name: LocalizedText(ar: nameArabic, en: nameEnglish), credits: credits))
            try session.output.emit(["subject": code]) { _ in L("students.subject.added", ["code": code]) }
        }
    }
}

/// `hogwarts terms list|add|add-year`.
struct TermsCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "terms", abstract: L("students.cli.terms"), subcommands: [List.self, Add.self, AddYear.self], defaultSubcommand: List.self)
    }

    struct List: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "list", abstract: L("students.cli.terms.list")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions

        func run() throws {
            let session = try CommandSession(global, self.session)
            let language = session.kernel.localizer.language
            try session.output.emit(try session.run(ListTerms.self, .init())) { terms in
                TextTable(headers: [L("students.heading.year"), L("students.heading.name"), L("students.heading.from"), L("students.heading.to")],
                          rows: terms.map { [$0.schoolYear, $0.name.text(in: language), $0.startsOn, $0.endsOn] })
            }
        }
    }

    struct Add: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "add", abstract: L("students.cli.terms.add")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Option(name: .customLong("year"), help: ArgumentHelp(L("students.option.year"))) var year: String
        @Option(name: .customLong("name-ar"), help: ArgumentHelp(L("students.option.name-ar"))) var nameArabic: String
        @Option(name: .customLong("name-en"), help: ArgumentHelp(L("students.option.name-en"))) var nameEnglish: String
        @Option(name: .customLong("from"), help: ArgumentHelp(L("students.option.from"))) var from: String
        @Option(name: .customLong("to"), help: ArgumentHelp(L("students.option.to"))) var to: String

        func run() throws {
            let session = try CommandSession(global, self.session)
            let term = try session.run(CreateTerm.self, .init(schoolYear: year, name: LocalizedText(ar: nameArabic, en: nameEnglish), startsOn: from, endsOn: to))
            try session.output.emit(term) { L("students.term.added", ["name": $0.name.text(in: session.kernel.localizer.language)]) }
        }
    }

    struct AddYear: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "add-year", abstract: L("students.cli.terms.add-year")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("students.argument.year"))) var name: String
        @Option(name: .customLong("from"), help: ArgumentHelp(L("students.option.from"))) var from: String
        @Option(name: .customLong("to"), help: ArgumentHelp(L("students.option.to"))) var to: String

        func run() throws {
            let session = try CommandSession(global, self.session)
            try session.run(CreateSchoolYear.self, .init(name: name, startsOn: from, endsOn: to))
            try session.output.emit(["school_year": name]) { _ in L("students.year.added", ["name": name]) }
        }
    }
}

/// `hogwarts guardians link GR ...`.
struct GuardiansCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "guardians", abstract: L("students.cli.guardians"), subcommands: [Link.self], defaultSubcommand: Link.self)
    }

    struct Link: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "link", abstract: L("students.cli.guardians.link")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("students.argument.gr"))) var grNumber: String
        @Option(name: .customLong("given-name"), help: ArgumentHelp(L("students.option.given-name"))) var givenName: String
        @Option(name: .customLong("surname"), help: ArgumentHelp(L("students.option.surname"))) var surname: String
        @Option(name: .customLong("relation"), help: ArgumentHelp(L("students.option.relation"))) var relation: String
        @Option(name: .customLong("email"), help: ArgumentHelp(L("students.option.guardian-email"))) var email: String?
        @Option(name: .customLong("phone"), help: ArgumentHelp(L("students.option.phone"))) var phone: String?
        @Flag(name: .customLong("primary"), help: ArgumentHelp(L("students.option.primary"))) var primary = false

        func run() throws {
            guard let relation = GuardianRelation(rawValue: relation.uppercased()) else {
                throw CommandError.invalidArgument(name: "--relation", value: self.relation, expected: GuardianRelation.allCases.map(\.rawValue).joined(separator: "|"))
            }
            let session = try CommandSession(global, self.session)
            let guardian = try session.run(LinkGuardian.self, .init(grNumber: grNumber, givenName: givenName, surname: surname, email: email,
                                                                    phone: phone, relation: relation, isPrimary: primary))
            try session.output.emit(guardian) { L("students.guardian.linked", ["name": "\($0.givenName) \($0.surname)", "gr": grNumber]) }
        }
    }
}
