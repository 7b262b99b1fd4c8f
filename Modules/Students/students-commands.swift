import ArgumentParser
import Core
import Foundation

/// `hogwarts students ...`: the roster of students.
struct StudentsCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "students", abstract: L("students.cli.students"),
            subcommands: [List.self, Show.self, Add.self, Edit.self, Archive.self, Enrol.self, LinkAccount.self, Import.self, Export.self],
            defaultSubcommand: List.self)
    }

    static func table(_ students: [Student]) -> TextTable {
        TextTable(
            headers: [L("students.heading.gr"), L("students.heading.name"), L("students.heading.class"), L("students.heading.level"), L("students.heading.status")],
            rows: students.map { [$0.grNumber, $0.fullName, $0.classCode ?? "-", $0.yearLevel ?? "-", $0.status.rawValue] })
    }

    struct List: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "list", abstract: L("students.cli.list")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Option(name: .customLong("search"), help: ArgumentHelp(L("students.option.search"))) var search: String?
        @Option(name: .customLong("class"), help: ArgumentHelp(L("students.option.class"))) var classCode: String?
        @Option(name: .customLong("year-level"), help: ArgumentHelp(L("students.option.year-level"))) var yearLevel: String?
        @Option(name: .customLong("status"), help: ArgumentHelp(L("students.option.status"))) var status: String?
        @Option(name: .customLong("sort"), help: ArgumentHelp(L("students.option.sort"))) var sort = "name"
        // A string, so `--page -3` or a number past Int reaches ArgumentValue's localized refusal.
        @Option(name: .customLong("page"), parsing: .unconditional, help: ArgumentHelp(L("students.option.page"))) var page: String?
        @Flag(name: .customLong("archived"), help: ArgumentHelp(L("students.option.archived"))) var archived = false

        func run() throws {
            let page = try ArgumentValue.page(page)
            guard let sortOrder = StudentSort(rawValue: sort) else {
                throw CommandError.invalidArgument(name: "--sort", value: sort, expected: StudentSort.allCases.map(\.rawValue).joined(separator: "|"))
            }
            let statusFilter = try status.map { text in
                guard let value = StudentStatus(rawValue: text.uppercased()) else {
                    throw CommandError.invalidArgument(name: "--status", value: text, expected: StudentStatus.allCases.map(\.rawValue).joined(separator: "|"))
                }
                return value
            }
            let session = try CommandSession(global, self.session)
            let result = try session.run(ListStudents.self, .init(
                search: search, classCode: classCode, yearLevel: yearLevel, status: statusFilter, sort: sortOrder, page: page, includeArchived: archived))
            try session.output.emit(result) { result in
                var table = StudentsCommand.table(result.students)
                table.footer = L("students.list.footer", ["page": String(result.page), "pages": String(result.pageCount), "total": String(result.total)])
                return table
            }
        }
    }

    struct Show: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "show", abstract: L("students.cli.show")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("students.argument.gr"))) var grNumber: String

        func run() throws {
            let session = try CommandSession(global, self.session)
            let detail = try session.run(ShowStudent.self, .init(grNumber: grNumber))
            try session.output.emit(detail) { detail in
                let student = detail.student
                var rows = [
                    [L("students.heading.gr"), student.grNumber],
                    [L("students.heading.name"), student.fullName],
                    [L("students.heading.birth"), student.dateOfBirth ?? L("students.value.not-recorded")],
                    [L("students.heading.gender"), student.gender?.rawValue ?? L("students.value.not-recorded")],
                    [L("students.heading.class"), student.classCode ?? "-"],
                    [L("students.heading.status"), student.status.rawValue],
                    [L("students.heading.enrolled"), student.enrolledOn],
                ]
                rows += detail.guardians.map { [L("students.heading.guardian"), "\($0.givenName) \($0.surname) (\($0.relation.rawValue)\($0.isPrimary ? ", *" : ""))"] }
                return TextTable(headers: [L("students.heading.field"), L("students.heading.value")], rows: rows)
            }
        }
    }

    struct FieldOptions: ParsableArguments {
        @Option(name: .customLong("given-name"), help: ArgumentHelp(L("students.option.given-name"))) var givenName: String?
        @Option(name: .customLong("surname"), help: ArgumentHelp(L("students.option.surname"))) var surname: String?
        @Option(name: .customLong("birth"), help: ArgumentHelp(L("students.option.birth"))) var dateOfBirth: String?
        @Option(name: .customLong("gender"), help: ArgumentHelp(L("students.option.gender"))) var gender: String?
        @Option(name: .customLong("status"), help: ArgumentHelp(L("students.option.status"))) var status: String?
        @Option(name: .customLong("class"), help: ArgumentHelp(L("students.option.class"))) var classCode: String?
    }

    struct Add: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "add", abstract: L("students.cli.add")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("students.argument.gr"))) var grNumber: String
        @OptionGroup var fields: FieldOptions
        @Option(name: .customLong("name-language"), help: ArgumentHelp(L("students.option.name-language"))) var nameLanguage = "ar"
        @Option(name: .customLong("enrolled"), help: ArgumentHelp(L("students.option.enrolled"))) var enrolledOn: String?

        func run() throws {
            let session = try CommandSession(global, self.session)
            let student = try session.run(CreateStudent.self, StudentFields(
                grNumber: grNumber, givenName: fields.givenName ?? "", surname: fields.surname ?? "", nameLanguage: nameLanguage,
                dateOfBirth: fields.dateOfBirth ?? "", gender: fields.gender ?? "", status: fields.status, enrolledOn: enrolledOn,
                classCode: fields.classCode))
            try session.output.emit(student) { L("students.added", ["name": $0.fullName, "gr": $0.grNumber]) }
        }
    }

    struct Edit: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "edit", abstract: L("students.cli.edit")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("students.argument.gr"))) var grNumber: String
        @OptionGroup var fields: FieldOptions

        func run() throws {
            let session = try CommandSession(global, self.session)
            let student = try session.run(UpdateStudent.self, StudentChange(
                grNumber: grNumber, givenName: fields.givenName, surname: fields.surname, dateOfBirth: fields.dateOfBirth,
                gender: fields.gender, status: fields.status, classCode: fields.classCode))
            try session.output.emit(student) { L("students.updated", ["name": $0.fullName, "gr": $0.grNumber]) }
        }
    }

    struct Archive: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "archive", abstract: L("students.cli.archive")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("students.argument.gr"))) var grNumber: String

        func run() throws {
            let session = try CommandSession(global, self.session)
            let student = try session.run(ArchiveStudent.self, .init(grNumber: grNumber))
            try session.output.emit(student) { L("students.archived", ["name": $0.fullName, "gr": $0.grNumber]) }
        }
    }

    struct Enrol: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "enrol", abstract: L("students.cli.enrol")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("students.argument.gr"))) var grNumber: String
        @Option(name: .customLong("class"), help: ArgumentHelp(L("students.option.class"))) var classCode: String

        func run() throws {
            let session = try CommandSession(global, self.session)
            let student = try session.run(EnrolStudent.self, .init(grNumber: grNumber, classCode: classCode))
            try session.output.emit(student) { L("students.enrolled", ["name": $0.fullName, "class": $0.classCode ?? classCode]) }
        }
    }

    struct LinkAccount: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "link-account", abstract: L("students.cli.link-account")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("students.argument.gr"))) var grNumber: String
        @Option(name: .customLong("email"), help: ArgumentHelp(L("students.option.account-email"))) var email: String

        func run() throws {
            let session = try CommandSession(global, self.session)
            let student = try session.run(LinkStudentAccount.self, .init(grNumber: grNumber, email: email))
            try session.output.emit(student) { L("students.account.linked", ["name": $0.fullName, "email": email]) }
        }
    }

    struct Import: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "import", abstract: L("students.cli.import")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("students.argument.csv"))) var file: String
        @Flag(name: .customLong("dry-run"), help: ArgumentHelp(L("students.option.dry-run"))) var dryRun = false

        func run() throws {
            guard let data = FileManager.default.contents(atPath: file) else { throw KernelError.fileMissing(file) }
            let csv = try StudentsCSVText.decode(data)
            let session = try CommandSession(global, self.session)
            // One run: the action checks every row before writing anything, and a bad file comes
            // back with every problem, shown as a table before the one-line refusal.
            let report: ImportReport
            do {
                report = try session.run(ImportStudents.self, .init(csv: csv, dryRun: dryRun), progress: ProgressLine.reporter())
            } catch StudentsError.invalidImport(let problems) {
                try showProblems(ImportReport(rows: 0, imported: 0, dryRun: dryRun, problems: problems), session)
                throw StudentsError.invalidImport(problems)
            }
            if !report.problems.isEmpty {
                try showProblems(report, session)
                throw StudentsError.invalidImport(report.problems)
            }
            try session.output.emit(report) { report in
                report.dryRun ? L("students.import.checked", ["rows": String(report.rows)]) : L("students.import.done", ["rows": String(report.imported)])
            }
        }

        private func showProblems(_ report: ImportReport, _ session: CommandSession) throws {
            try session.output.emit(report) { report in
                TextTable(headers: [L("students.heading.row"), L("students.heading.column"), L("students.heading.reason")],
                          rows: report.problems.map { [String($0.row), $0.column, $0.reason] })
            }
        }
    }

    struct Export: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "export", abstract: L("students.cli.export")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Option(name: .customLong("to"), help: ArgumentHelp(L("students.option.export-to"))) var destination: String?

        func run() throws {
            let session = try CommandSession(global, self.session)
            let rows = try session.run(ExportStudents.self, .init())
            if let destination {
                guard !FileManager.default.fileExists(atPath: destination) else { throw KernelError.fileExists(destination) }
                // Children's records: created 0600 from the first byte, never readable by others.
                try FileSafety.writePrivateFile(Data(ExportStudents.csv(rows).utf8), to: destination)
                try session.output.emit(["exported": destination]) { _ in L("students.export.done", ["path": destination]) }
            } else if session.output.json {
                try session.output.emit(rows) { _ in TextTable(lines: []) }
            } else {
                print(ExportStudents.csv(rows), terminator: "")
            }
        }
    }
}
