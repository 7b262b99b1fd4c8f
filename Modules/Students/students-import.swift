import Core
import Foundation

/// What an import found: the rows it read, the problems, and whether it wrote anything.
public struct ImportReport: Codable, Sendable {
    public let rows: Int
    public let imported: Int
    public let dryRun: Bool
    public let problems: [ImportProblem]
}

/// Imports students from CSV (columns as in `StudentFields.columns`; a header row first).
///
/// Every row is checked first (row number, column, reason, counting the header as row 1) and
/// nothing is written unless every row is valid; a dry run only reports.
public struct ImportStudents: Action {
    public struct Input: Codable, Sendable {
        public var csv: String
        public var dryRun: Bool
        public init(csv: String, dryRun: Bool) {
            self.csv = csv
            self.dryRun = dryRun
        }
    }

    public static let id = "students.import"
    public static let permission = StudentsPermissions.manage

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        let problems = try checked(input, context).problems
        if !problems.isEmpty && !input.dryRun { throw StudentsError.invalidImport(problems) }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> ImportReport {
        let checked = try checked(input, context)
        let rows = checked.rows
        guard !input.dryRun else { return ImportReport(rows: rows.count, imported: 0, dryRun: true, problems: checked.problems) }
        let progress = context.progress
        var writer = ImportWriter(context, classIDs: checked.classIDs)
        try writer.insert(rows, progress: progress, label: context.localizer("students.import.progress.write"))
        progress?(rows.count, rows.count, "")
        context.auditDetail = "\(rows.count) students"
        return ImportReport(rows: rows.count, imported: rows.count, dryRun: false, problems: [])
    }

    /// Every row checked once, shared by validation and the body.
    private func checked(_ input: Input, _ context: ActionContext) throws -> CheckedImport {
        try context.remember("students.import-check") { try StudentCSV.check(input.csv, context, progress: context.progress) }
    }
}

/// The rows of a file as checked, their problems, and the classes they may name (code to id),
/// read once for validation and reused by the writes.
struct CheckedImport {
    var rows: [StudentFields] = []
    var problems: [ImportProblem] = []
    var classIDs: [String: String] = [:]
}

enum StudentCSV {
    /// Parses and checks every row; problems carry the row number as a spreadsheet shows it.
    static func check(_ text: String, _ context: ActionContext, progress: ProgressReporter?) throws -> CheckedImport {
        let records: [[String]]
        do throws(CSVRecords.Failure) {
            records = try CSVRecords.parse(text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text)
        } catch {
            let column = error.header.map { columnName(error.field, Self.header(of: $0)) } ?? String(error.field + 1)
            return CheckedImport(problems: [ImportProblem(row: error.row, column: column, reason: context.localizer(error.key))])
        }
        guard let first = records.first else {
            return CheckedImport(problems: [ImportProblem(row: 1, column: "-", reason: context.localizer("students.csv.empty"))])
        }
        let header = Self.header(of: first)
        let headerProblems = Self.headerProblems(header, context)
        guard headerProblems.isEmpty else { return CheckedImport(problems: headerProblems) }
        let columns = Self.columnIndexes(header)
        var checker = try RowChecker(context)
        var rows: [StudentFields] = []
        var problems: [ImportProblem] = []
        let total = records.count - 1
        let label = context.localizer("students.import.progress.check")
        for (index, cells) in records.dropFirst().enumerated() {
            if index % 200 == 0 { progress?(index, total, label) }
            let rowNumber = index + 2
            if cells.allSatisfy(ImportTrim.isBlank) { continue }
            guard cells.count == header.count else {
                problems.append(ImportProblem(row: rowNumber, column: columnName(min(cells.count, header.count), header),
                                              reason: context.localizer("students.csv.field-count", ["found": String(cells.count), "expected": String(header.count)])))
                continue
            }
            let row = Self.fields(cells, columns)
            problems += checker.problems(row, row: rowNumber)
            rows.append(row)
        }
        progress?(total, total, "")
        return CheckedImport(rows: rows, problems: problems, classIDs: checker.classIDs)
    }

    static func header(of cells: [String]) -> [String] {
        cells.map { CSVCell.restored($0.trimmingCharacters(in: .whitespaces)).lowercased() }
    }

    /// A column by its header name, or by its number past the header's end.
    static func columnName(_ index: Int, _ header: [String]) -> String {
        index < header.count && !header[index].isEmpty ? header[index] : String(index + 1)
    }

    /// Where each known column is in the header, found once for the whole file.
    private static func columnIndexes(_ header: [String]) -> [String: Int] {
        Dictionary(header.enumerated().map { ($1, $0) }) { first, _ in first }
    }

    private static func fields(_ cells: [String], _ columns: [String: Int]) -> StudentFields {
        func cell(_ column: String) -> String {
            // Cells were neutralized against spreadsheet formulas on export: undo that here.
            columns[column].map { CSVCell.restored(ImportTrim.whitespace(cells[$0])) } ?? ""
        }
        return StudentFields(
            grNumber: cell("gr_number"), givenName: cell("given_name"), surname: cell("surname"), nameLanguage: cell("name_language"),
            dateOfBirth: cell("date_of_birth"), gender: cell("gender"), status: cell("status"), enrolledOn: cell("enrolled_on"),
            classCode: cell("class"))
    }

    /// A header names each known column once; unknown or repeated names would lose data silently.
    static func headerProblems(_ header: [String], _ context: ActionContext) -> [ImportProblem] {
        var problems: [ImportProblem] = []
        var firstAt: [String: Int] = [:]
        func add(_ column: String, _ key: String, _ arguments: [String: String] = [:]) {
            problems.append(ImportProblem(row: 1, column: column, reason: context.localizer(key, arguments)))
        }
        for (index, name) in header.enumerated() {
            let number = String(index + 1)
            if let key = TextInput.problem(in: name, maxLength: TextLimit.code) {
                add(number, key, ["field": context.localizer("students.csv.column-number", ["number": number]), "max": String(TextLimit.code)])
            } else if name.isEmpty {
                add(number, "students.csv.unnamed-column")
            } else if !StudentFields.columns.contains(name) {
                add(name, "students.csv.unknown-column", ["columns": StudentFields.columns.joined(separator: ",")])
            } else if let earlier = firstAt[name] {
                add(name, "students.csv.duplicate-column", ["first": String(earlier + 1), "second": number])
            } else {
                firstAt[name] = index
            }
        }
        guard problems.isEmpty else { return problems }
        let required = ["gr_number", "given_name", "surname", "date_of_birth", "gender"]
        for column in required where !header.contains(column) { add(column, "students.invalid.missing-column") }
        return problems
    }
}
