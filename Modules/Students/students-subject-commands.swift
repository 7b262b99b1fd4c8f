import ArgumentParser
import Core
import Foundation

/// `hogwarts subjects catalog|show|mine`: the subjects catalog, as the app's subjects screens show it.
extension SubjectsCommand {
    /// One line per class a subject is taught in (a subject taught nowhere this year has one line with no class).
    static func rows(_ entries: [SubjectCatalogEntry], _ language: Language) -> [[String]] {
        entries.flatMap { entry -> [[String]] in
            let name = entry.subject.name.text(in: language)
            guard !entry.teaching.isEmpty else { return [[entry.subject.code, name, "", "", ""]] }
            return entry.teaching.map { [entry.subject.code, name, $0.yearLevelName.text(in: language), $0.classCode, $0.teacherName ?? ""] }
        }
    }

    static var headers: [String] {
        [L("students.heading.code"), L("students.heading.name"), L("students.heading.level"), L("students.heading.class"), L("students.heading.teacher")]
    }

    struct Catalog: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "catalog", abstract: L("students.cli.subjects.catalog")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Option(name: .customLong("search"), help: ArgumentHelp(L("students.option.subject-search"))) var search: String?

        func run() throws {
            let session = try CommandSession(global, self.session)
            let language = session.kernel.localizer.language
            try session.output.emit(try session.run(ListSubjectCatalog.self, .init(search: search))) { entries in
                TextTable(headers: SubjectsCommand.headers, rows: SubjectsCommand.rows(entries, language))
            }
        }
    }

    struct Show: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "show", abstract: L("students.cli.subjects.show")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("students.argument.subject"))) var subject: String

        func run() throws {
            let session = try CommandSession(global, self.session)
            let language = session.kernel.localizer.language
            try session.output.emit(try session.run(ShowSubject.self, .init(subject: subject))) { entry in
                TextTable(headers: SubjectsCommand.headers, rows: SubjectsCommand.rows([entry], language))
            }
        }
    }

    struct Mine: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "mine", abstract: L("students.cli.subjects.mine")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions

        func run() throws {
            let session = try CommandSession(global, self.session)
            let language = session.kernel.localizer.language
            try session.output.emit(try session.run(ListMySubjects.self, .init())) { entries in
                TextTable(headers: SubjectsCommand.headers, rows: SubjectsCommand.rows(entries, language))
            }
        }
    }
}
