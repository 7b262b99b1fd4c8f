import ArgumentParser
import Core
import Foundation

/// `hogwarts oneroster import|export|set-password`: thin commands that read or write the files,
/// run an action and print.
struct OneRosterCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "oneroster", abstract: L("oneroster.cli.abstract"), subcommands: [Import.self, Export.self, SetPassword.self])
    }

    struct Import: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "import", abstract: L("oneroster.cli.import")) }

        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("oneroster.argument.path"))) var path: String
        @Flag(name: .customLong("dry-run"), help: ArgumentHelp(L("oneroster.option.dry-run"))) var dryRun = false
        @Option(name: .customLong("codes"), help: ArgumentHelp(L("oneroster.option.codes"))) var codesFile: String?
        @Flag(name: .customLong("strict"), help: ArgumentHelp(L("oneroster.option.strict"))) var strict = false
        @Option(name: .customLong("org"), help: ArgumentHelp(L("oneroster.option.org"))) var org: String?
        @Flag(name: .customLong("invite"), help: ArgumentHelp(L("oneroster.option.invite"))) var invite = false

        func run() throws {
            let session = try CommandSession(global, self.session)
            if let codesFile, FileManager.default.fileExists(atPath: codesFile) { throw OneRosterError.targetExists(codesFile) }
            let limits = OneRosterLimits(try session.kernel.settings(for: session.school.id))
            let files = try OneRosterPackage.read(path, limits: limits)
            let report: OneRosterImportReport
            do {
                report = try session.run(ImportOneRoster.self, .init(read: files, dryRun: dryRun, strict: strict, org: org, invite: invite), progress: ProgressLine.reporter())
            } catch OneRosterError.invalidSet(let violations) {
                try show(violations, warnings: [], session)
                throw OneRosterError.invalidSet(violations)
            } catch OneRosterError.severalSchools(let schools) {
                // The command's own words: which option picks one.
                FileHandle.standardError.write(Data((L("oneroster.hint.org") + "\n").utf8))
                throw OneRosterError.severalSchools(schools)
            }
            if !report.violations.isEmpty {
                try show(report.violations, warnings: report.warnings, session)
                throw OneRosterError.invalidSet(report.violations)
            }
            if let codesFile { try writeCodes(report.codes, to: codesFile) }
            // Codes written to the file are not printed too, not even in JSON.
            var shown = codesFile == nil ? report : OneRosterImportReport(
                version: report.version, dryRun: report.dryRun, created: report.created, updated: report.updated, archived: report.archived,
                violations: report.violations, notImported: report.notImported, codes: [])
            shown.warnings = report.warnings
            shown.invited = report.invited
            try session.output.emit(shown) { shown in
                var lines = [report.dryRun ? L("oneroster.import.checked", ["version": report.version])
                                           : L("oneroster.import.done", ["version": report.version])]
                lines.append(L("oneroster.import.errors", ["count": "0"]))
                lines.append(L("oneroster.import.warnings", ["count": String(report.warnings.count)]))
                for warning in report.warnings.prefix(50) { lines.append("  \(warning.file):\(warning.row) \(warning.column): \(warning.reason)") }
                if report.warnings.count > 50 { lines.append(L("oneroster.import.more", ["count": String(report.warnings.count - 50)])) }
                for (kind, count) in report.created.sorted(by: { $0.key < $1.key }) { lines.append(L("oneroster.import.created", ["kind": kind, "count": String(count)])) }
                for (kind, count) in report.updated.sorted(by: { $0.key < $1.key }) { lines.append(L("oneroster.import.updated", ["kind": kind, "count": String(count)])) }
                for (kind, count) in report.archived.sorted(by: { $0.key < $1.key }) { lines.append(L("oneroster.import.archived", ["kind": kind, "count": String(count)])) }
                if !report.notImported.isEmpty { lines.append(L("oneroster.import.not-imported", ["count": String(report.notImported.count)])) }
                for note in report.notImported.prefix(20) { lines.append("  \(note.file):\(note.row) \(note.column): \(note.reason)") }
                if !report.invited.isEmpty { lines.append(L("oneroster.import.invited", ["count": String(report.invited.count)])) }
                if !report.codes.isEmpty {
                    if let codesFile, shown.codes.isEmpty {
                        lines.append(L("oneroster.import.codes-written", ["count": String(report.codes.count), "path": codesFile]))
                    } else {
                        lines.append(L("oneroster.import.codes", ["count": String(report.codes.count)]))
                        for code in report.codes { lines.append("  \(code.email)  \(code.code)  \(code.expiresOn)") }
                    }
                }
                return TextTable(lines: lines)
            }
        }

        /// Errors, then warnings, each under its own heading with its count (JSON: every row, each with its kind).
        private func show(_ violations: [OneRosterViolation], warnings: [OneRosterViolation], _ session: CommandSession) throws {
            let rows = violations.map { ("error", $0) } + warnings.map { ("warning", $0) }
            try session.output.emit(rows.map { ["kind": $0.0, "file": $0.1.file, "row": String($0.1.row), "column": $0.1.column, "reason": $0.1.reason] }) { _ in
                var lines = [L("oneroster.import.errors", ["count": String(violations.count)])]
                lines += violations.map { "  \($0.file):\($0.row) \($0.column): \($0.reason)" }
                lines.append(L("oneroster.import.warnings", ["count": String(warnings.count)]))
                lines += warnings.map { "  \($0.file):\($0.row) \($0.column): \($0.reason)" }
                return TextTable(lines: lines)
            }
        }

        /// The codes go to a file only its owner may read (0600), created new.
        private func writeCodes(_ codes: [SetPasswordCode], to path: String) throws {
            let text = OneRosterCSV.write(header: ["email", "code", "expires_on"], rows: codes.map { [$0.email, $0.code, $0.expiresOn] })
            try FileSafety.writePrivateFile(Data(text.utf8), to: path)
        }
    }

    struct Export: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "export", abstract: L("oneroster.cli.export")) }

        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Option(name: .customLong("to"), help: ArgumentHelp(L("oneroster.option.to"))) var target: String
        @Flag(name: .customLong("zip"), help: ArgumentHelp(L("oneroster.option.zip"))) var zip = false

        func run() throws {
            let session = try CommandSession(global, self.session)
            if FileManager.default.fileExists(atPath: target) { throw OneRosterError.targetExists(target) }
            let export = try session.run(ExportOneRoster.self, .init())
            try OneRosterPackage.write(export.files, to: target, zip: zip)
            try session.output.emit(export.rows) { rows in
                TextTable(lines: [L("oneroster.export.done", ["path": target])]
                          + rows.sorted { $0.key < $1.key }.map { "  \($0.key).csv: \($0.value)" })
            }
        }
    }

    struct SetPassword: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "set-password", abstract: L("oneroster.cli.set-password")) }

        @OptionGroup var global: GlobalOptions
        @OptionGroup var school: SchoolOption
        @Option(name: .customLong("email"), help: ArgumentHelp(L("oneroster.option.email"))) var email: String
        @Option(name: .customLong("code"), help: ArgumentHelp(L("oneroster.option.code"))) var code: String

        func run() throws {
            let kernel = try global.openKernel()
            let target = try school.resolve(in: kernel)
            let password = try Self.readPassword(prompt: L("oneroster.prompt.password"))
            let user = try kernel.run(RedeemSetPasswordCode.self, .init(email: email, code: code, password: password), as: .anonymous, in: target.id)
            try global.output.emit(["email": user.email]) { _ in L("oneroster.set-password.done", ["email": user.email]) }
        }

        /// Without echo from a terminal, else one line of standard input, so it stays out of the shell history.
        static func readPassword(prompt: String) throws -> String {
            if isatty(STDIN_FILENO) == 1, let typed = getpass(prompt + " ") { return String(cString: typed) }
            guard let line = readLine(strippingNewline: true) else { throw OneRosterError.badCode }
            return line
        }
    }
}
