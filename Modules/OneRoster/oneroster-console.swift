import Core
import Foundation

extension OneRosterModule: ConsoleModule {
    /// The administrator's roster import from a OneRoster zip.
    public var consolePages: [ConsolePage] { [OneRosterConsole.importPage] }
}

/// Importing a OneRoster zip in the console, the same two steps as the command's dry run and
/// import: choose the zip and *Check* (`oneroster.import` as a dry run: every violation by file,
/// row and column, nothing written); a set with none shows what it holds and an *Import* button,
/// which sends the same bytes again (carried in the page, base64) to the same action, which reads
/// and checks them again and writes all or nothing. A second press cannot add anything twice: the
/// module's id map makes a repeated import update what the first created. (No kernel request id
/// here: it would keep the new accounts' one-time codes in the kernel's table of answers.)
enum OneRosterConsole {
    static let importPage = ConsolePage("import", title: Words.title, permission: OneRosterPermissions.importRoster) { console in
        guard console.isPost else { return form(console, problem: "") }
        // "import" writes; "school" checks again for the school chosen from a set of several. Both
        // carry the file in the page; a first check ("check") reads it from the upload.
        let step = console.form.value("step")
        let carried = step == "import" || step == "school"
        let upload: ConsoleUpload
        if carried {
            guard let data = ConsoleFileCheck.carried(console.form.value("zip")) else { return form(console, problem: console.say(ConsoleFileCheck.Words.lost)) }
            upload = ConsoleUpload(field: "file", fileName: console.form.value("name") ?? "", contentType: "application/zip", data: data)
        } else {
            guard let chosen = console.uploads.first(where: { $0.field == "file" }) else { return form(console, problem: console.say(Words.noFile)) }
            upload = chosen
        }
        guard isZip(upload) else { return form(console, problem: console.say(Words.notZip)) }
        let name = ConsoleFileCheck.shown(upload.fileName)
        let org = carried ? console.form.value("org").flatMap { $0.isEmpty ? nil : $0 } : nil
        let files: [String: OneRosterReading]
        do {
            let limits = OneRosterLimits(try await console.offload { [school = console.school.id] kernel in try kernel.settings(for: school) })
            files = try await console.offload { _ in try OneRosterPackage.read(zip: upload.data, name: name, limits: limits) }
        } catch let error as OneRosterError {
            return form(console, problem: console.message(for: error))
        }
        do {
            let report = try await console.run(ImportOneRoster.self, .init(read: files, dryRun: step != "import", org: org))
            if !report.violations.isEmpty { return problems(report.violations, warnings: report.warnings, name: name, console) }
            return step == "import" ? OneRosterConsoleResult.done(report, console) : ready(files, report: report, upload: upload, name: name, org: org, console)
        } catch OneRosterError.invalidSet(let violations) {
            return problems(violations, warnings: [], name: name, console)
        } catch OneRosterError.severalSchools(let schools) {
            return choose(schools, upload: upload, name: name, console)
        } catch let error as OneRosterError {
            return form(console, problem: console.message(for: error))
        }
    }

    /// A `.zip` name and a zip's first bytes (a local file header, or an empty archive's end record).
    static func isZip(_ upload: ConsoleUpload) -> Bool {
        let head = [UInt8](upload.data.prefix(4))
        return upload.fileName.lowercased().hasSuffix(".zip") && (head == [0x50, 0x4B, 0x03, 0x04] || head == [0x50, 0x4B, 0x05, 0x06])
    }


    /// The set passed the check: its files and rows, what was read leniently, and the Import button.
    private static func ready(_ files: [String: OneRosterReading], report: OneRosterImportReport, upload: ConsoleUpload, name: String,
                              org: String?, _ console: ConsoleRequest) -> ConsoleResponse {
        let rows: [[String: Any]] = files.sorted { $0.key < $1.key }.map { file, reading in
            var count = 0
            if case .table(let table) = reading { count = table.rows.count }
            return ["file": file + ".csv", "rows": String(count)]
        }
        return .page(title: console.say(Words.title), body: Templates.ready.render(console.common.merging([
            "summary": console.say(Words.ready, ["version": report.version]),
            "fileLabel": console.say(ConsoleFileCheck.Words.file), "rowsLabel": console.say(Words.rows), "files": rows,
            "warnings": warningsTable(report.warnings, console),
            "action": console.pagePath("oneroster", "import"), "name": name, "carried": upload.data.base64EncodedString(), "org": org ?? "",
            "submit": console.say(Words.importButton), "again": console.pagePath("oneroster", "import"), "againText": console.say(ConsoleFileCheck.Words.other),
        ]) { $1 }))
    }

    /// A district's set with several schools: which one to import, each as `orgs.csv` names it;
    /// the choice checks the same file again for that school alone.
    private static func choose(_ schools: [OneRosterSchoolChoice], upload: ConsoleUpload, name: String, _ console: ConsoleRequest) -> ConsoleResponse {
        let options: [[String: Any]] = schools.enumerated().map { index, school in
            ["id": "org-\(index)", "value": school.sourcedId, "name": school.name.isEmpty ? school.sourcedId : school.name,
             "identifier": school.identifier.isEmpty ? school.sourcedId : school.identifier, "checked": index == 0]
        }
        return .page(title: console.say(Words.title), body: Templates.choose.render(console.common.merging([
            "legend": console.say(Words.severalSchools, ["count": String(schools.count), "file": name]), "schools": options,
            "action": console.pagePath("oneroster", "import"), "name": name, "carried": upload.data.base64EncodedString(),
            "submit": console.say(Words.checkSchool), "again": console.pagePath("oneroster", "import"), "againText": console.say(ConsoleFileCheck.Words.other),
        ]) { $1 }))
    }

    private static func problems(_ violations: [OneRosterViolation], warnings: [OneRosterViolation], name: String, _ console: ConsoleRequest) -> ConsoleResponse {
        let table = ConsoleFileCheck.findings(console, summary: console.say(Words.problems, ["count": String(violations.count), "file": name]),
                                              id: "import-problems", stopsImport: true, findings(violations))
        return form(console, problem: "", above: table)
    }

    static func findings(_ violations: [OneRosterViolation]) -> [ConsoleFileCheck.Finding] {
        violations.map { ConsoleFileCheck.Finding(file: $0.file, row: $0.row, column: $0.column, reason: $0.reason) }
    }

    static func warningsTable(_ warnings: [OneRosterViolation], _ console: ConsoleRequest) -> ConsoleHTML {
        guard !warnings.isEmpty else { return ConsoleHTML.text("") }
        return ConsoleFileCheck.findings(console, summary: console.say(Words.warnings, ["count": String(warnings.count)]),
                                         id: "import-warnings", stopsImport: false, findings(Array(warnings.prefix(200))))
    }

    static func form(_ console: ConsoleRequest, problem: String, above: ConsoleHTML? = nil) -> ConsoleResponse {
        let field = ConsoleFileCheck.Field(label: console.say(Words.zip), accept: ".zip,application/zip", hint: console.say(Words.hint))
        return .page(title: console.say(Words.title),
                     body: ConsoleFileCheck.form(console, action: console.pagePath("oneroster", "import"), intro: console.say(Words.intro),
                                                 field: field, problem: problem, above: above))
    }
}
