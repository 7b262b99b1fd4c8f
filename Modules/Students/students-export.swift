import Core
import Foundation

/// Every visible student in the import's columns, so an export imports back. The CLI writes
/// them as CSV (`csv(_:)`), or as JSON rows with `--json`.
public struct ExportStudents: Action {
    public struct Input: Codable, Sendable { public init() {} }

    public static let id = "students.export"
    public static let permission = StudentsPermissions.read
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> [StudentFields] {
        try Roster.visibleStudents(context).map { student in
            StudentFields(grNumber: student.grNumber, givenName: student.givenName, surname: student.surname,
                          nameLanguage: student.nameLanguage.rawValue, dateOfBirth: student.dateOfBirth ?? "", gender: student.gender?.rawValue ?? "",
                          status: student.status.rawValue, enrolledOn: student.enrolledOn, classCode: student.classCode ?? "")
        }
    }

    /// The rows as CSV with a header. Every cell is neutralized, so a name such as
    /// `=HYPERLINK(...)` is text, not a formula, in the spreadsheet that opens the file.
    public static func csv(_ rows: [StudentFields]) -> String {
        var lines = [StudentFields.columns.joined(separator: ",")]
        for row in rows {
            let cells = [row.grNumber, row.givenName, row.surname, row.nameLanguage ?? "", row.dateOfBirth, row.gender,
                         row.status ?? "", row.enrolledOn ?? "", row.classCode ?? ""]
            lines.append(cells.map(CSVCell.field).joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
