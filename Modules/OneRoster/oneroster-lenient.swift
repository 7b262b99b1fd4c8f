import Core
import Foundation

/// What real information systems write that the specification does not, read without changing
/// its meaning: each such cell is rewritten the specification's way and listed as a warning
/// (`--strict` skips this, so each stays a violation).
extension OneRosterSet {
    /// Enumerated columns by file: the values the specification spells, for a case-blind match.
    static func enumerations(_ version: OneRosterVersion) -> [String: [(column: String, allowed: Set<String>)]] {
        var result: [String: [(column: String, allowed: Set<String>)]] = [
            "orgs": [("type", OneRosterSpec.orgTypes)],
            "academicSessions": [("type", OneRosterSpec.sessionTypes)],
            "classes": [("classType", OneRosterSpec.classTypes)],
            "enrollments": [("role", OneRosterSpec.enrollmentRoles), ("primary", OneRosterSpec.booleans)],
            "users": [("enabledUser", OneRosterSpec.booleans)],
            "roles": [("roleType", OneRosterSpec.roleTypes), ("role", OneRosterSpec.userRoles12)],
            "demographics": [("sex", OneRosterSpec.sexes)],
        ]
        if version == .v1_1 { result["users", default: []].append(("role", OneRosterSpec.userRoles11)) }
        return result
    }

    mutating func readLeniently(_ context: ActionContext) {
        let enumerations = Self.enumerations(version)
        for name in files.keys.sorted() {
            guard var file = files[name] else { continue }
            var kept: [OneRosterRecord] = []
            kept.reserveCapacity(file.records.count)
            for var record in file.records {
                func warn(_ column: String, _ key: String, _ arguments: [String: String] = [:]) {
                    warnings.append(OneRosterViolation(file: file.fileName, row: record.row, column: column, reason: context.localizer(key, arguments)))
                }
                let status = record["status"]
                if file.mode == .bulk, status.lowercased() == "tobedeleted" {
                    warn("status", "oneroster.warning.bulk-deleted")
                    continue
                }
                let columns: [(column: String, allowed: Set<String>)] = [(column: "status", allowed: ["active", "tobedeleted"])] + (enumerations[name] ?? [])
                for (column, allowed) in columns {
                    let value = record[column]
                    guard !value.isEmpty, !allowed.contains(value), let canonical = allowed.first(where: { $0.lowercased() == value.lowercased() }),
                          let index = record.columns[column] else { continue }
                    record.cells[index] = canonical
                    warn(column, "oneroster.warning.enum-case", ["value": value, "canonical": canonical])
                }
                let modified = record["dateLastModified"]
                if let index = record.columns["dateLastModified"], let time = Self.dateTime(from: modified), time != modified {
                    record.cells[index] = time
                    warn("dateLastModified", "oneroster.warning.date-only", ["value": modified, "read": time])
                }
                kept.append(record)
            }
            file.records = kept
            files[name] = file
        }
    }

    /// A `dateLastModified` in a form that means one instant: the specification's own, a date
    /// alone (midnight UTC), or a time without its `Z` or with `+00:00`. Nil when unclear.
    static func dateTime(from text: String) -> String? {
        if OneRosterSpec.isDateTime(text) { return text }
        if OneRosterSpec.isDate(text) { return text + "T00:00:00Z" }
        for suffix in ["+00:00", "+0000", ""] where text.hasSuffix(suffix) {
            let candidate = String(text.dropLast(suffix.count)).replacingOccurrences(of: " ", with: "T") + "Z"
            if OneRosterSpec.isDateTime(candidate) { return candidate }
        }
        return nil
    }
}
