import Core
import Foundation
import Students

/// Checks a whole set before anything is written: the headers against the specification, every
/// row's required cells, enumerations, dates and references, and what Hogwarts itself needs (a
/// year level for a class, a birth date for a student). Every problem is listed; the plan is
/// only used when there are none.
struct OneRosterChecker {
    let context: ActionContext
    let set: OneRosterSet
    let ids: OneRosterIDs
    var violations: [OneRosterViolation]
    /// What was read leniently; with `strict` there are none (each is a violation instead).
    var warnings: [OneRosterViolation]
    let strict: Bool
    /// The one school imported, when the set holds several (`--org`).
    let org: String?
    var plan = OneRosterPlan()
    /// Files without a header or a `sourcedId` column: their rows cannot be told apart.
    private var unreadable: Set<String> = []
    /// Each user's role in enrollments.csv (a teacher's before a student's), for a user without a role.
    var enrolledRoles: [String: String] = [:]
    /// The sourcedIds each file defines, for references.
    var defined: [String: Set<String>] = [:]
    /// The school's today, read once (each reading works out the time zone's calendar).
    let today: String

    init(_ set: OneRosterSet, ids: OneRosterIDs, strict: Bool = false, org: String? = nil, _ context: ActionContext) {
        self.context = context
        self.set = set
        self.ids = ids
        self.strict = strict
        self.org = org
        violations = set.violations
        warnings = set.warnings
        plan.version = set.version
        today = Roster.today(context)
    }

    mutating func add(_ file: String, _ row: Int, _ column: String, _ key: String, _ arguments: [String: String] = [:]) {
        violations.append(OneRosterViolation(file: file.hasSuffix(".csv") ? file : file + ".csv", row: row, column: column,
                                             reason: context.localizer(key, arguments)))
    }

    mutating func check() -> (plan: OneRosterPlan, violations: [OneRosterViolation], warnings: [OneRosterViolation]) {
        for name in OneRosterSpec.readFiles {
            guard let file = set.file(name), let columns = OneRosterSpec.columns(of: name, set.version) else { continue }
            checkHeader(file, columns)
            if !unreadable.contains(name) { checkRows(file, columns) }
        }
        for name in OneRosterSpec.readFiles where !unreadable.contains(name) && set.file(name) != nil {
            defined[name] = Set(set.records(name).map(\.sourcedId).filter { !$0.isEmpty })
        }
        checkOrgs()
        checkSessions()
        checkCourses()
        let roles = checkRoles()
        let demographics = checkDemographics()
        checkUsers(roles: roles, demographics: demographics)
        checkClasses()
        checkEnrollments()
        return (plan, violations, warnings)
    }

    /// Known columns in the specification's order, each once, every required one present.
    /// Extension columns (`metadata.*`, `ext_*`) may stand anywhere and are never refused. Read
    /// leniently, a vendor's column, a case difference or another order is a warning. A file is
    /// left unread only without a header or a `sourcedId` column: a missing column is reported
    /// once and the rows are checked on the columns they have.
    private mutating func checkHeader(_ file: OneRosterFile, _ columns: [OneRosterSpec.Column]) {
        let names = columns.map(\.name)
        if file.table.header.isEmpty {
            add(file.name, 1, "-", "oneroster.invalid.no-header")
            unreadable.insert(file.name)
            return
        }
        var seen: [String: Int] = [:]
        var lastPosition = -1
        for (index, column) in file.header.enumerated() {
            if OneRosterSpec.isExtension(column) { continue }
            let written = file.table.header[index].trimmed
            guard let position = names.firstIndex(of: column) else {
                warnOrAdd(file.name, 1, column.isEmpty ? String(index + 1) : column, strict ? "oneroster.invalid.unknown-column" : "oneroster.warning.unknown-column",
                          ["version": set.version.rawValue, "columns": names.joined(separator: ",")])
                continue
            }
            if let first = seen[column] {
                add(file.name, 1, written, "oneroster.invalid.duplicate-column", ["first": String(first + 1), "second": String(index + 1)])
                continue
            }
            if written != column { warn(file.name, 1, written, "oneroster.warning.column-case", ["column": column]) }
            seen[column] = index
            if position < lastPosition {
                warnOrAdd(file.name, 1, column, strict ? "oneroster.invalid.column-order" : "oneroster.warning.column-order", ["columns": names.joined(separator: ",")])
            }
            lastPosition = max(lastPosition, position)
        }
        for column in columns where column.required && seen[column.name] == nil {
            add(file.name, 1, column.name, "oneroster.invalid.missing-column", ["version": set.version.rawValue])
        }
        if file.rowCount == 0 {
            warnOrAdd(file.name, 1, "-", strict ? "oneroster.invalid.no-rows" : "oneroster.warning.no-rows")
        }
        if seen["sourcedId"] == nil { unreadable.insert(file.name) }
    }

    /// A warning, or with `--strict` a violation.
    mutating func warnOrAdd(_ file: String, _ row: Int, _ column: String, _ key: String, _ arguments: [String: String] = [:]) {
        if strict { add(file, row, column, key, arguments) } else { warn(file, row, column, key, arguments) }
    }

    mutating func warn(_ file: String, _ row: Int, _ column: String, _ key: String, _ arguments: [String: String] = [:]) {
        warnings.append(OneRosterViolation(file: file.hasSuffix(".csv") ? file : file + ".csv", row: row, column: column,
                                           reason: context.localizer(key, arguments)))
    }

    /// What every row of every file shares: its shape, sourcedId, status and dateLastModified,
    /// the required cells, and text Hogwarts can store.
    private mutating func checkRows(_ file: OneRosterFile, _ columns: [OneRosterSpec.Column]) {
        var firstRow: [String: Int] = [:]
        for record in file.records {
            let row = record.row
            if record.cells.count != file.header.count {
                add(file.name, row, "-", "oneroster.invalid.field-count", ["found": String(record.cells.count), "expected": String(file.header.count)])
                continue
            }
            let id = record.sourcedId
            if id.isEmpty {
                add(file.name, row, "sourcedId", "oneroster.invalid.required")
            } else if let first = firstRow[id] {
                add(file.name, row, "sourcedId", "oneroster.invalid.duplicate-id", ["row": String(first)])
            } else {
                firstRow[id] = row
                if let key = TextInput.problem(in: id, maxLength: 255) { add(file.name, row, "sourcedId", key, ["field": "sourcedId", "max": "255"]) }
            }
            checkStatus(record)
            for column in columns where column.required && column.name != "sourcedId" && file.columns[column.name] != nil && record[column.name].isEmpty {
                add(file.name, row, column.name, "oneroster.invalid.required")
            }
            for (index, column) in file.header.enumerated() where !OneRosterSpec.isExtension(column) && index < record.cells.count {
                // Line breaks are fine in cells Hogwarts does not store as names (`checkName` is stricter).
                if let key = TextInput.problem(in: record.cells[index], maxLength: 2000, multiline: true) {
                    add(file.name, row, column, key, ["field": column, "max": "2000"])
                }
            }
        }
    }

    /// Bulk rows are active (their status may only be blank or `active`); delta rows say
    /// `active` or `tobedeleted` and when they changed.
    private mutating func checkStatus(_ record: OneRosterRecord) {
        let status = record["status"]
        let modified = record["dateLastModified"]
        if record.mode == .delta {
            if !["active", "tobedeleted"].contains(status) {
                add(record.fileName, record.row, "status", "oneroster.invalid.enum", ["value": status, "allowed": "active|tobedeleted"])
            }
            if !OneRosterSpec.isDateTime(modified) {
                add(record.fileName, record.row, "dateLastModified", "oneroster.invalid.datetime", ["value": modified])
            }
        } else {
            if !status.isEmpty && status != "active" {
                add(record.fileName, record.row, "status", "oneroster.invalid.bulk-status", ["value": status])
            }
            if !modified.isEmpty && !OneRosterSpec.isDateTime(modified) {
                add(record.fileName, record.row, "dateLastModified", "oneroster.invalid.datetime", ["value": modified])
            }
        }
    }

    /// An enumerated cell: blank is fine when the column is optional (checked as required elsewhere).
    mutating func checkEnum(_ record: OneRosterRecord, _ column: String, _ allowed: Set<String>) {
        let value = record[column]
        if !value.isEmpty && !allowed.contains(value) {
            add(record.fileName, record.row, column, "oneroster.invalid.enum", ["value": value, "allowed": allowed.sorted().joined(separator: "|")])
        }
    }

    mutating func checkDate(_ record: OneRosterRecord, _ column: String) {
        let value = record[column]
        if !value.isEmpty && !OneRosterSpec.isDate(value) {
            add(record.fileName, record.row, column, "oneroster.invalid.date", ["value": value])
        }
    }

    /// A reference to a record of `file`: defined in this set, or imported before (a delta).
    mutating func checkReference(_ record: OneRosterRecord, _ column: String, to file: String, kind: String, value: String? = nil) {
        let value = value ?? record[column]
        guard !value.isEmpty else { return }
        // A file that could not be read defines nothing we know of: no false "unknown" errors.
        if unreadable.contains(file) || defined[file]?.contains(value) == true || ids.target(kind, value) != nil { return }
        add(record.fileName, record.row, column, "oneroster.invalid.unknown-reference", ["value": value, "file": file + ".csv"])
    }

    /// Whether a file could be read, so its records count.
    func readable(_ name: String) -> Bool { set.file(name) != nil && !unreadable.contains(name) }
}
