import Core
import Foundation

/// Importing students from a CSV file in the console: choose the file and *Check* (the
/// `students.import` dry run: every problem listed by row and column, nothing written); a file
/// with no problems shows who will be added and an *Import* button, which sends the same bytes
/// again (carried in the page, base64) to the same action, which checks them again and writes
/// them all in one transaction or nothing. The import carries a one-time id made at the check, the
/// kernel's request id: a second press or a reload returns the first import's result and writes
/// nothing again.
extension StudentsConsole {
    static let importPage = ConsolePage("import", title: ImportWords.title, permission: StudentsPermissions.manage, inMenu: false) { console in
        guard console.isPost else { return importForm(console, problem: "") }
        if console.form.value("step") == "import" { return try await importCarried(console) }
        guard let upload = console.uploads.first(where: { $0.field == "file" }) else { return importForm(console, problem: console.say(ImportWords.noFile)) }
        guard ImportUpload.looksLikeCSV(upload) else { return importForm(console, problem: console.say(ImportWords.notCSV)) }
        return try await check(upload.data, name: upload.fileName, console)
    }

    /// The dry run: the problems, or what will be added and the button that adds it.
    private static func check(_ data: Data, name: String, _ console: ConsoleRequest) async throws -> ConsoleResponse {
        let csv: String
        do { csv = try StudentsCSVText.decode(data) } catch let error as InputError { return importForm(console, problem: console.message(for: error)) }
        let report = try await console.run(ImportStudents.self, .init(csv: csv, dryRun: true))
        if !report.problems.isEmpty { return problemsPage(report.problems, name: ConsoleFileCheck.shown(name), console) }
        guard report.rows > 0 else { return importForm(console, problem: console.say(ImportWords.empty)) }
        let preview = ImportUpload.preview(csv)
        return .page(title: console.say(ImportWords.title), body: ImportTemplates.ready.render(console.common.merging([
            "action": console.pagePath("students", "import"), "file": ConsoleFileCheck.shown(name),
            "summary": console.say(ImportWords.ready, ["count": String(report.rows)]),
            "rows": preview.map { ["gr": $0.gr, "name": $0.name, "class": $0.schoolClass.isEmpty ? console.say(Names.noClass) : $0.schoolClass] },
            "more": report.rows > preview.count ? console.say(ImportWords.more, ["count": String(report.rows - preview.count)]) : "",
            "grLabel": console.say(ListWords.gr), "nameLabel": console.say(ListWords.name), "classLabel": console.say(ListWords.schoolClass),
            "carried": data.base64EncodedString(), "request": UUID().uuidString.lowercased(),
            "submit": console.say(ImportWords.importButton, ["count": String(report.rows)]),
            "again": console.pagePath("students", "import"), "againText": console.say(ConsoleFileCheck.Words.other),
        ]) { $1 }))
    }

    /// The Import button: the bytes the check showed, checked again by the action and written once.
    private static func importCarried(_ console: ConsoleRequest) async throws -> ConsoleResponse {
        guard let request = console.form.value("request"), UUID(uuidString: request) != nil,
              let data = ConsoleFileCheck.carried(console.form.value("csv")) else {
            return importForm(console, problem: console.say(ConsoleFileCheck.Words.lost))
        }
        let name = ConsoleFileCheck.shown(console.form.value("name") ?? "")
        let csv: String
        do { csv = try StudentsCSVText.decode(data) } catch let error as InputError { return importForm(console, problem: console.message(for: error)) }
        let report: ImportReport
        do {
            report = try await console.run(ImportStudents.self, .init(csv: csv, dryRun: false), requestID: "students.console-import.\(request.lowercased())")
        } catch StudentsError.invalidImport(let problems) {
            // Something changed since the check (a GR number taken meanwhile): nothing was written.
            return problemsPage(problems, name: name, console)
        }
        return .page(title: console.say(ImportWords.title), body: ImportTemplates.done.render(console.common.merging([
            "done": console.say(ImportWords.done, ["count": String(report.imported)]),
            "list": console.pagePath("students", "students"), "listText": console.say(ImportWords.toList),
        ]) { $1 }))
    }

    private static func problemsPage(_ problems: [ImportProblem], name: String, _ console: ConsoleRequest) -> ConsoleResponse {
        let table = ConsoleFileCheck.findings(console, summary: console.say(ImportWords.problems, ["count": String(problems.count), "file": name]),
                                              id: "import-problems", stopsImport: true,
                                              problems.map { ConsoleFileCheck.Finding(row: $0.row, column: $0.column, reason: $0.reason) })
        return importForm(console, problem: "", above: table)
    }

    static func importForm(_ console: ConsoleRequest, problem: String, above: ConsoleHTML? = nil) -> ConsoleResponse {
        let field = ConsoleFileCheck.Field(label: console.say(ImportWords.file), accept: ".csv,text/csv",
                                           hint: console.say(ImportWords.hint, ["columns": StudentFields.columns.joined(separator: ", ")]),
                                           cancel: (console.pagePath("students", "students"), console.say(ImportWords.cancel)))
        return .page(title: console.say(ImportWords.title),
                     body: ConsoleFileCheck.form(console, action: console.pagePath("students", "import"), intro: console.say(ImportWords.intro),
                                                 field: field, problem: problem, above: above))
    }
}

/// What the page checks of a file before the action reads it, and the rows it shows before importing.
enum ImportUpload {
    /// A `.csv` (or `.txt`) name, and bytes that are not a zip, a PDF or an image.
    static func looksLikeCSV(_ upload: ConsoleUpload) -> Bool {
        let name = upload.fileName.lowercased()
        guard name.hasSuffix(".csv") || name.hasSuffix(".txt") else { return false }
        let head = [UInt8](upload.data.prefix(4))
        let binary: [[UInt8]] = [[0x50, 0x4B, 0x03, 0x04], [0x25, 0x50, 0x44, 0x46], [0x89, 0x50, 0x4E, 0x47], [0xFF, 0xD8, 0xFF], [0xD0, 0xCF, 0x11, 0xE0]]
        return !binary.contains { head.starts(with: $0) }
    }

    /// The first rows to be added, as the check read them (the action's own check already passed).
    static func preview(_ csv: String, limit: Int = 50) -> [(gr: String, name: String, schoolClass: String)] {
        let text = csv.hasPrefix("\u{FEFF}") ? String(csv.dropFirst()) : csv
        guard let records = try? CSVRecords.parse(text), let first = records.first else { return [] }
        let header = StudentCSV.header(of: first)
        func cell(_ cells: [String], _ column: String) -> String {
            guard let index = header.firstIndex(of: column), index < cells.count else { return "" }
            return CSVCell.restored(ImportTrim.whitespace(cells[index]))
        }
        return records.dropFirst().filter { !$0.allSatisfy(ImportTrim.isBlank) }.prefix(limit).map {
            (gr: cell($0, "gr_number"), name: "\(cell($0, "given_name")) \(cell($0, "surname"))", schoolClass: cell($0, "class"))
        }
    }
}
