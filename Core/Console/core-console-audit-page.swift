import Foundation
import HogwartsBase
import HogwartsKernel

/// Which audit lines to show: who (part of a user id), which action (part of its id), how it
/// ended, and between which days (the school's days, both included). Empty means any.
struct AuditFilter: Sendable, Equatable {
    var who = ""
    var action = ""
    var outcome: AuditOutcome?
    var from: CivilDate?
    var to: CivilDate?
}

/// One page of the school's audit log and how many lines match in all.
struct AuditPage: Sendable {
    let entries: [AuditEntry]
    let total: Int
}

extension Kernel {
    /// A page of the school's audit log, newest first, narrowed by `filter`. Only this school's
    /// lines: lines of no school (platform sign-ins) and of other schools never show.
    func auditPage(for school: School, filter: AuditFilter, offset: Int, limit: Int) throws -> AuditPage {
        var conditions = ["school_id = ?"]
        var arguments: [(any SQLValueConvertible)?] = [school.id]
        if !filter.who.isEmpty {
            conditions.append("lower(user_id) LIKE ? \(LikePattern.escapeClause)")
            arguments.append(LikePattern.contains(filter.who.lowercased()))
        }
        if !filter.action.isEmpty {
            conditions.append("lower(action) LIKE ? \(LikePattern.escapeClause)")
            arguments.append(LikePattern.contains(filter.action.lowercased()))
        }
        if let outcome = filter.outcome {
            conditions.append("outcome = ?")
            arguments.append(outcome.rawValue)
        }
        // Times are stored as UTC text that sorts as it reads; a school's day is turned into its instants.
        let zone = TimeZone(identifier: school.timeZone) ?? .gmt
        if let from = filter.from {
            conditions.append("at >= ?")
            arguments.append(SQLDateFormat.string(from: from.start(in: zone)))
        }
        if let to = filter.to {
            conditions.append("at < ?")
            arguments.append(SQLDateFormat.string(from: to.adding(days: 1).start(in: zone)))
        }
        let clause = conditions.joined(separator: " AND ")
        return try store.read { db in
            try requireMigrated(db)
            let total = try db.fetchValue(Int.self, sql: "SELECT COUNT(*) FROM kernel_audit WHERE \(clause)", arguments: arguments) ?? 0
            let rows = try db.fetchAll(sql: "SELECT * FROM kernel_audit WHERE \(clause) ORDER BY id DESC LIMIT ? OFFSET ?",
                                       arguments: arguments + [limit, offset])
            return AuditPage(entries: rows.map(AuditEntry.init(row:)), total: total)
        }
    }
}

extension CivilDate {
    /// The first instant of this day in `zone`.
    func start(in zone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = description.split(separator: "-").compactMap { Int($0) }
        let components = DateComponents(year: parts.first, month: parts.dropFirst().first, day: parts.dropFirst(2).first)
        return calendar.date(from: components) ?? Date(timeIntervalSince1970: Double(dayNumber) * 86_400)
    }
}

/// The school's audit log for its administrators: who did what, when, and how it ended, with
/// filters and pages. It reads the kernel's own records; nothing here writes.
struct ConsoleAuditPage {
    let shell: ConsoleShell
    static let pageSize = 25

    func page(_ console: ConsoleRequest) async throws -> ConsoleResponse {
        guard console.may(KernelPermissions.manageModules) else { throw ConsoleProblem.forbidden }
        let localizer = console.localizer
        let query = console.query
        var filter = AuditFilter(who: clean(query["who"]), action: clean(query["action"]))
        var problems: [String] = []
        if let text = query["outcome"], !text.isEmpty {
            filter.outcome = AuditOutcome(rawValue: text)
            if filter.outcome == nil { problems.append(localizer("console.audit.bad-outcome")) }
        }
        func day(_ name: String) -> CivilDate? {
            guard let text = query[name], !text.isEmpty else { return nil }
            guard let date = CivilDate(text) else {
                problems.append(localizer("console.audit.bad-date", ["value": TextInput.printable(text)]))
                return nil
            }
            return date
        }
        filter.from = day("from")
        filter.to = day("to")
        if let from = filter.from, let to = filter.to, from > to { problems.append(localizer("console.audit.backwards")) }
        let offset = max(0, Int(query["offset"] ?? "") ?? 0)
        let school = console.school
        let limit = Self.pageSize
        let chosen = filter
        let found = problems.isEmpty
            ? try await console.offload { kernel in try kernel.auditPage(for: school, filter: chosen, offset: offset, limit: limit) }
            : AuditPage(entries: [], total: 0)
        let body = ConsoleTemplates.audit.render(console.common.merging(values(found, filter: filter, offset: offset, console)) { $1 }
            .merging(["error": problems.joined(separator: " ")]) { $1 })
        return .page(title: localizer("console.audit.title"), body: body)
    }

    private func values(_ found: AuditPage, filter: AuditFilter, offset: Int, _ console: ConsoleRequest) -> [String: Any] {
        let localizer = console.localizer
        let zone = TimeZone(identifier: console.school.timeZone) ?? .gmt
        let outcomes: [AuditOutcome] = [.succeeded, .failed, .denied, .replayed]
        let kept: [(String, String)] = [("who", filter.who), ("action", filter.action), ("outcome", filter.outcome?.rawValue ?? ""),
                                        ("from", filter.from?.description ?? ""), ("to", filter.to?.description ?? "")].filter { !$0.1.isEmpty }
        let newer = offset > 0 ? ConsoleForm.path("/admin/audit", query: kept + [("offset", String(max(0, offset - Self.pageSize)))]) : ""
        let older = offset + Self.pageSize < found.total ? ConsoleForm.path("/admin/audit", query: kept + [("offset", String(offset + Self.pageSize))]) : ""
        return [
            "intro": localizer("console.audit.intro"), "action": "/admin/audit",
            "whoLabel": localizer("console.audit.who"), "who": filter.who, "actionLabel": localizer("console.audit.action"), "actionValue": filter.action,
            "outcomeLabel": localizer("console.audit.outcome"), "fromLabel": localizer("console.audit.from"), "toLabel": localizer("console.audit.to"),
            "from": filter.from?.description ?? "", "to": filter.to?.description ?? "", "show": localizer("console.audit.show"),
            "outcomes": [["value": "", "label": localizer("console.audit.any"), "selected": filter.outcome == nil]]
                + outcomes.map { ["value": $0.rawValue, "label": localizer("console.audit.outcome.\($0.rawValue)"), "selected": $0 == filter.outcome] },
            "timeLabel": localizer("console.audit.time"), "roleLabel": localizer("console.audit.role"), "detailLabel": localizer("console.audit.detail"),
            "entries": found.entries.map { entry in
                ["time": Self.time(entry.at, zone), "who": entry.userID, "role": localizer("console.role.\(entry.role.rawValue)"),
                 "action": entry.action, "outcome": entry.outcome.rawValue, "outcomeText": localizer("console.audit.outcome.\(entry.outcome.rawValue)"),
                 "detail": entry.detail ?? ""] as [String: Any]
            },
            "hasEntries": !found.entries.isEmpty,
            "none": found.entries.isEmpty ? localizer("console.audit.none") : "",
            "count": found.total == 0 ? "" : localizer("console.audit.count", [
                "first": String(offset + 1), "last": String(offset + found.entries.count), "total": String(found.total)]),
            "newer": newer, "older": older, "newerText": localizer("console.audit.newer"), "olderText": localizer("console.audit.older"),
            "pagerLabel": localizer("console.audit.pages"),
        ]
    }

    private func clean(_ text: String?) -> String {
        String((text ?? "").trimmingCharacters(in: .whitespacesAndNewlines).prefix(100))
    }

    /// The moment in the school's time zone, as a school reads a register: `2025-03-02 08:15`.
    private static func time(_ date: Date, _ zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        return String(format: "%04d-%02d-%02d %02d:%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0, parts.minute ?? 0)
    }
}

extension ConsoleTemplates {
    static let audit = ConsoleTemplate("""
        <p class="lead">{{intro}}</p>
        {{#error}}<p class="problem" role="alert">{{error}}</p>{{/error}}
        <form method="get" action="{{action}}" class="panel filters" id="audit-filters">
        <p><label for="audit-who">{{whoLabel}}</label><input id="audit-who" name="who" value="{{who}}" dir="ltr"></p>
        <p><label for="audit-action">{{actionLabel}}</label><input id="audit-action" name="action" value="{{actionValue}}" dir="ltr"></p>
        <p><label for="audit-outcome">{{outcomeLabel}}</label><select id="audit-outcome" name="outcome">{{#outcomes}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/outcomes}}</select></p>
        <p><label for="audit-from">{{fromLabel}}</label><input id="audit-from" name="from" type="date" value="{{from}}" dir="ltr"></p>
        <p><label for="audit-to">{{toLabel}}</label><input id="audit-to" name="to" type="date" value="{{to}}" dir="ltr"></p>
        <p><button type="submit">{{show}}</button></p>
        </form>
        {{#count}}<p class="hint" id="audit-count">{{count}}</p>{{/count}}
        {{#none}}<p id="audit-none">{{none}}</p>{{/none}}
        {{#hasEntries}}<div class="table-wrap" tabindex="0"><table class="audit" id="audit-log"><thead><tr><th scope="col">{{timeLabel}}</th><th scope="col">{{whoLabel}}</th><th scope="col">{{roleLabel}}</th>
        <th scope="col">{{actionLabel}}</th><th scope="col">{{outcomeLabel}}</th><th scope="col">{{detailLabel}}</th></tr></thead>
        <tbody>{{/hasEntries}}{{#entries}}<tr class="outcome-{{outcome}}"><td dir="ltr">{{time}}</td><td><code dir="ltr">{{who}}</code></td><td>{{role}}</td>
        <td><code dir="ltr">{{action}}</code></td><td data-outcome="{{outcome}}">{{outcomeText}}</td><td><bdi>{{detail}}</bdi></td></tr>{{/entries}}{{#hasEntries}}</tbody></table></div>{{/hasEntries}}
        <nav class="pager" aria-label="{{pagerLabel}}">{{#newer}}<a href="{{newer}}" rel="prev">{{newerText}}</a> {{/newer}}{{#older}}<a href="{{older}}" rel="next">{{olderText}}</a>{{/older}}</nav>
        """)
}
