import Core
import Foundation

/// The accountant's finance view: what came in today, what is overdue, receivables by age (an
/// SVG chart with its figures as a table), and the families most behind, each a link to their
/// statement.
extension FeesConsole {
    static let finance = ConsolePage("finance", title: Words.financeTitle, permission: FeesPermissions.manage) { console in
        let summary = try await Summary(console)
        let aged = summary.aged, money = summary.money
        let buckets: [(LocalizedText, Int)] = [
            (Words.notYetDue, aged.total.currentMinor), (Words.days30, aged.total.days30Minor), (Words.days60, aged.total.days60Minor),
            (Words.days90, aged.total.days90Minor), (Words.over90, aged.total.over90Minor),
        ]
        let chart = ConsoleChart.bars(buckets.map { ConsoleChart.Bar(label: console.say($0.0), value: Double($0.1), shown: money.text($0.1)) },
                                      title: console.say(Words.agedTitle), language: console.language, id: "fees-aged")
        let rows: [[String: Any]] = summary.behind.prefix(20).map { entry in
            ["name": entry.row.name, "gr": entry.row.grNumber, "overdue": money.text(entry.overdue), "owed": money.text(entry.row.buckets.totalMinor),
             "statement": console.pagePath("fees", "balances", query: [("student", entry.row.grNumber)])]
        }
        let classes = try await console.run(FeeClassTotals.self, .init())
        let classRows: [[String: Any]] = classes.rows.map { row in
            ["class": row.className.map { "\(row.classCode ?? "") · \($0.text(in: console.language))" } ?? console.say(Words.noClass),
             "students": String(row.students), "charged": money.text(row.chargedMinor), "paid": money.text(row.paidMinor),
             "owed": money.text(row.balanceMinor), "overdue": money.text(row.overdueMinor)]
        }
        return .page(title: console.say(Words.financeTitle), body: Templates.finance.render(console.common.merging(summary.values(console)) { $1 }.merging([
            "classesTitle": console.say(Words.byClass), "classRows": classRows, "classLabel": console.say(Words.classLabel),
            "studentsLabel": console.say(Words.studentsLabel), "chargedLabel": console.say(Words.charged), "paidLabel": console.say(Words.paidLabel),
            "paymentsText": console.say(Words.paymentsCount, ["count": String(summary.payments)]),
            "chart": chart, "pay": console.pagePath("fees", "pay"), "payText": console.say(Words.recordPayment),
            "balances": console.pagePath("fees", "balances"), "balancesText": console.say(Words.allBalances),
            "behindTitle": console.say(Words.mostBehind), "rows": rows, "none": rows.isEmpty ? console.say(Words.nothingOverdue) : "",
            "nameLabel": console.say(Words.student), "grLabel": console.say(Words.grNumber), "overdueHeading": console.say(Words.overdue),
            "owedLabel": console.say(Words.owed),
        ]) { $1 }))
    }

    /// What the finance view and its card both show: today's takings and what is overdue, by whom.
    struct Summary {
        let aged: AgedReceivables.Output
        let money: Money
        let collectedMinor: Int
        let payments: Int
        /// The school's today, the day the figures are as of.
        let day: String
        /// Students with anything past its due date, furthest behind first (`overdueCount` counts invoices).
        let behind: [(row: AgedReceivables.Row, overdue: Int)]

        init(_ console: ConsoleRequest) async throws {
            aged = try await console.run(AgedReceivables.self, .init())
            let today = try await console.run(FeeCollections.self, .init())
            money = Money(currency: aged.currency, digits: aged.minorDigits)
            collectedMinor = today.rows.reduce(0) { $0 + $1.netMinor }
            payments = today.rows.reduce(0) { $0 + $1.payments }
            day = today.to
            behind = aged.students
                .map { (row: $0, overdue: $0.buckets.totalMinor - $0.buckets.currentMinor) }
                .filter { $0.overdue > 0 }
                .sorted { $0.overdue != $1.overdue ? $0.overdue > $1.overdue : $0.row.grNumber < $1.row.grNumber }
        }

        func values(_ console: ConsoleRequest) -> [String: Any] {
            ["collectedLabel": console.say(Words.collectedToday), "collected": money.text(collectedMinor),
             "overdueLabel": console.say(Words.overdueTotal), "overdue": money.text(aged.total.totalMinor - aged.total.currentMinor),
             "overdueStudents": console.say(Words.studentsCount, ["count": String(behind.count)])]
        }
    }
}

extension FeesConsole.Templates {
    static let finance = ConsoleTemplate("""
        <div class="panel" id="fees-today"><p><strong>{{collectedLabel}}</strong> <bdi dir="ltr" id="fees-collected">{{collected}}</bdi> <span class="hint">{{paymentsText}}</span></p>
        <p><strong>{{overdueLabel}}</strong> <bdi dir="ltr" id="fees-overdue">{{overdue}}</bdi> <span class="hint">{{overdueStudents}}</span></p>
        <p class="actions"><a href="{{pay}}">{{payText}}</a> <a href="{{balances}}">{{balancesText}}</a></p></div>
        {{{chart}}}
        <h2>{{behindTitle}}</h2>
        {{#none}}<p>{{none}}</p>{{/none}}
        {{^none}}<div class="table-wrap" tabindex="0"><table id="fees-behind"><thead><tr><th scope="col">{{nameLabel}}</th><th scope="col">{{grLabel}}</th><th scope="col">{{overdueHeading}}</th><th scope="col">{{owedLabel}}</th></tr></thead>
        <tbody>{{#rows}}<tr><td><a href="{{statement}}"><bdi>{{name}}</bdi></a></td><td dir="ltr">{{gr}}</td><td dir="ltr">{{overdue}}</td><td dir="ltr">{{owed}}</td></tr>{{/rows}}</tbody></table></div>{{/none}}
        <h2 id="fees-classes-title">{{classesTitle}}</h2>
        <div class="table-wrap" tabindex="0" role="region" aria-labelledby="fees-classes-title"><table id="fees-classes"><thead><tr><th scope="col">{{classLabel}}</th>
        <th scope="col">{{studentsLabel}}</th><th scope="col">{{chargedLabel}}</th><th scope="col">{{paidLabel}}</th><th scope="col">{{owedLabel}}</th><th scope="col">{{overdueHeading}}</th></tr></thead>
        <tbody>{{#classRows}}<tr><td><bdi>{{class}}</bdi></td><td dir="ltr">{{students}}</td><td dir="ltr">{{charged}}</td><td dir="ltr">{{paid}}</td><td dir="ltr">{{owed}}</td>
        <td dir="ltr">{{overdue}}</td></tr>{{/classRows}}</tbody></table></div>
        """)
}
