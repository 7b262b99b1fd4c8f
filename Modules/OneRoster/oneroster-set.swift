import Core
import Foundation

/// One file of a set, parsed, with where each column is; its records are built once.
struct OneRosterFile {
    let name: String
    let mode: OneRosterMode
    /// The header as written, and how many rows the file had before any was left out.
    let table: OneRosterTable
    let rowCount: Int
    let columns: [String: Int]
    /// The header as read, each known column under the specification's spelling (`classcode` is `classCode`).
    let header: [String]
    var records: [OneRosterRecord]

    init(name: String, mode: OneRosterMode, table: OneRosterTable, known: [String] = []) {
        self.name = name
        self.mode = mode
        // The rows live on as records only: a large file's cells are not kept twice.
        self.table = OneRosterTable(header: table.header, rows: [])
        rowCount = table.rows.count
        let byLowercase = Dictionary(known.map { ($0.lowercased(), $0) }) { first, _ in first }
        let header = table.header.map { column in
            let column = column.trimmed
            return known.contains(column) ? column : byLowercase[column.lowercased()] ?? column
        }
        self.header = header
        let columns = Dictionary(header.enumerated().map { ($1, $0) }) { first, _ in first }
        self.columns = columns
        records = table.rows.enumerated().map { row in
            let cells = row.element.contains { $0.trimmed.utf8.count != $0.utf8.count } ? row.element.map(\.trimmed) : row.element
            return OneRosterRecord(fileName: name, mode: mode, columns: columns, row: OneRosterTable.rowNumber(row.offset), cells: cells)
        }
    }

    var fileName: String { name + ".csv" }
}

/// One record of a file: cells by column name, trimmed; a missing column reads as blank.
struct OneRosterRecord {
    let fileName: String
    let mode: OneRosterMode
    let columns: [String: Int]
    let row: Int
    var cells: [String]

    subscript(_ column: String) -> String {
        guard let index = columns[column], index < cells.count else { return "" }
        return cells[index]
    }

    var sourcedId: String { self["sourcedId"] }
    /// `tobedeleted` only in a delta file; a bulk row is active by definition.
    var isDeleted: Bool { mode == .delta && self["status"] == "tobedeleted" }
}

extension String {
    /// Without surrounding spaces or tabs; most cells have none, so that costs one look at each end.
    var trimmed: String {
        guard let first = unicodeScalars.first, let last = unicodeScalars.last else { return self }
        guard first == " " || first == "\t" || last == " " || last == "\t" else { return self }
        return trimmingCharacters(in: .whitespaces)
    }
}

/// A whole set as read: its version, each file's mode from the manifest, the parsed files and
/// the problems found while reading (a file that is not CSV, a manifest that lies).
struct OneRosterSet {
    var version: OneRosterVersion = .v1_2
    var files: [String: OneRosterFile] = [:]
    var violations: [OneRosterViolation] = []
    /// What was read leniently (a case difference, a date-only time, a bulk row marked deleted).
    var warnings: [OneRosterViolation] = []

    func file(_ name: String) -> OneRosterFile? { files[name] }
    func records(_ name: String) -> [OneRosterRecord] { files[name]?.records ?? [] }

    init(read readings: [String: OneRosterReading], strict: Bool = false, _ context: ActionContext) {
        func violation(_ file: String, _ row: Int, _ column: String, _ key: String, _ arguments: [String: String] = [:]) {
            violations.append(OneRosterViolation(file: file, row: row, column: column, reason: context.localizer(key, arguments)))
        }
        var tables: [String: OneRosterTable] = [:]
        for (name, reading) in readings {
            switch reading {
            case .table(let table): tables[name] = table
            case .unclosedQuote(let row): violation(name + ".csv", row, "-", "oneroster.invalid.unclosed-quote")
            }
        }
        var modes: [String: OneRosterMode] = [:]
        if let manifest = tables["manifest"] {
            var properties: [String: (value: String, row: Int)] = [:]
            for (index, cells) in manifest.rows.enumerated() where cells.count >= 2 {
                properties[cells[0].trimmingCharacters(in: .whitespaces)] = (cells[1].trimmingCharacters(in: .whitespaces), OneRosterTable.rowNumber(index))
            }
            switch properties["oneroster.version"]?.value {
            case "1.1": version = .v1_1
            case "1.2", "1.2.1": version = .v1_2
            case let other:
                violation("manifest.csv", properties["oneroster.version"]?.row ?? 1, "oneroster.version", "oneroster.invalid.version", ["value": other ?? ""])
            }
            for (key, entry) in properties where key.hasPrefix("file.") {
                let name = String(key.dropFirst(5))
                guard let mode = OneRosterMode(rawValue: entry.value) else {
                    violation("manifest.csv", entry.row, key, "oneroster.invalid.enum", ["value": entry.value, "allowed": "bulk|delta|absent"])
                    continue
                }
                modes[name] = mode
                if mode == .absent, tables[name] != nil {
                    violation("manifest.csv", entry.row, key, "oneroster.invalid.manifest-absent", ["file": name + ".csv"])
                } else if mode != .absent, tables[name] == nil {
                    violation("manifest.csv", entry.row, key, "oneroster.invalid.manifest-missing", ["file": name + ".csv"])
                }
            }
            for name in tables.keys.sorted() where name != "manifest" && modes[name] == nil {
                violation("manifest.csv", 1, "file." + name, "oneroster.invalid.manifest-unlisted", ["file": name + ".csv"])
            }
        } else {
            // No manifest: every file is a bulk file, and the users header tells the version.
            version = tables["users"]?.header.contains("role") == true && tables["roles"] == nil ? .v1_1 : .v1_2
        }
        for (name, table) in tables where name != "manifest" {
            // Strict reading keeps the header as written, so a case difference is an unknown column.
            let known = strict ? [] : OneRosterSpec.columns(of: name, version)?.map(\.name) ?? []
            files[name] = OneRosterFile(name: name, mode: modes[name] ?? .bulk, table: table, known: known)
        }
        if !strict { readLeniently(context) }
    }
}
