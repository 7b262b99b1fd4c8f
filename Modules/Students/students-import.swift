import Core
import Foundation
import SwiftCSV

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
        let problems = try checked(input, context).1
        if !problems.isEmpty && !input.dryRun { throw StudentsError.invalidImport(problems) }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> ImportReport {
        let (rows, problems) = try checked(input, context)
        guard !input.dryRun else { return ImportReport(rows: rows.count, imported: 0, dryRun: true, problems: problems) }
        for fields in rows {
            try StudentWriter.insert(id: context.newID(), fields, userID: nil, context)
        }
        context.auditDetail = "\(rows.count) students"
        return ImportReport(rows: rows.count, imported: rows.count, dryRun: false, problems: [])
    }

    /// Every row checked once, shared by validation and the body.
    private func checked(_ input: Input, _ context: ActionContext) throws -> ([StudentFields], [ImportProblem]) {
        try context.remember("students.import-check") { try StudentCSV.check(input.csv, context) }
    }
}

/// Writes every visible student as CSV in the import format, so an export imports back.
public struct ExportStudents: Action {
    public struct Input: Codable, Sendable { public init() {} }

    public static let id = "students.export"
    public static let permission = StudentsPermissions.read
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> String {
        let rows = try Roster.visibleStudents(context)
        var lines = [StudentFields.columns.joined(separator: ",")]
        for student in rows {
            lines.append([student.grNumber, student.givenName, student.surname, student.nameLanguage.rawValue, student.dateOfBirth,
                          student.gender.rawValue, student.status.rawValue, student.enrolledOn, student.classCode ?? ""]
                .map(StudentCSV.quote).joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

enum StudentCSV {
    /// Parses and checks every row; problems carry the row number as a spreadsheet shows it.
    static func check(_ text: String, _ context: ActionContext) throws -> ([StudentFields], [ImportProblem]) {
        let csv: CSV<Enumerated>
        do {
            csv = try CSV<Enumerated>(string: text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text, delimiter: .comma, loadColumns: false)
        } catch {
            throw InputError("students.error.csv-unreadable", ["detail": String(describing: error)])
        }
        let header = csv.header.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let required = ["gr_number", "given_name", "surname", "date_of_birth", "gender"]
        let missing = required.filter { !header.contains($0) }
        guard missing.isEmpty else {
            return ([], missing.map { ImportProblem(row: 1, column: $0, reason: context.localizer("students.invalid.missing-column")) })
        }
        let today = Roster.today(context)
        var seatsLeft: [String: Int] = [:]
        for schoolClass in try ListClasses().perform(.init(), in: context) {
            seatsLeft[schoolClass.code] = schoolClass.capacity - schoolClass.enrolled
        }
        // One read of the school's GR numbers instead of one query per row.
        let taken = Set(try context.database.fetchAll("SELECT gr_number FROM students_students WHERE school_id = :school_id AND archived_at IS NULL")
            .map { $0.string("gr_number") })
        var seen: [String: Int] = [:]
        var rows: [StudentFields] = []
        var problems: [ImportProblem] = []
        for (index, cells) in csv.rows.enumerated() {
            let rowNumber = index + 2
            func cell(_ column: String) -> String {
                header.firstIndex(of: column).flatMap { $0 < cells.count ? cells[$0].trimmingCharacters(in: .whitespaces) : nil } ?? ""
            }
            if cells.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) { continue }
            let fields = StudentFields(
                grNumber: cell("gr_number"), givenName: cell("given_name"), surname: cell("surname"), nameLanguage: cell("name_language"),
                dateOfBirth: cell("date_of_birth"), gender: cell("gender"), status: cell("status"), enrolledOn: cell("enrolled_on"),
                classCode: cell("class"))
            for problem in StudentRules.problems(fields, today: today) {
                problems.append(ImportProblem(row: rowNumber, column: problem.column, reason: context.localizer(problem.key, problem.arguments)))
            }
            if let first = seen[fields.grNumber] {
                problems.append(ImportProblem(row: rowNumber, column: "gr_number", reason: context.localizer("students.invalid.duplicate-row", ["row": String(first)])))
            } else if !fields.grNumber.isEmpty {
                seen[fields.grNumber] = rowNumber
                if taken.contains(fields.grNumber) {
                    problems.append(ImportProblem(row: rowNumber, column: "gr_number", reason: context.localizer("students.invalid.gr-taken")))
                }
            }
            if let code = fields.classCode, !code.isEmpty {
                if let left = seatsLeft[code] {
                    if left <= 0 { problems.append(ImportProblem(row: rowNumber, column: "class", reason: context.localizer("students.invalid.class-full"))) }
                    seatsLeft[code] = left - 1
                } else {
                    problems.append(ImportProblem(row: rowNumber, column: "class", reason: context.localizer("students.invalid.unknown-class")))
                }
            }
            rows.append(fields)
        }
        return (rows, problems)
    }

    static func quote(_ value: String) -> String {
        value.contains(where: { ",\"\n\r".contains($0) }) ? "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : value
    }
}
