import Core
import Foundation

/// The accountant's dashboard card: what has been invoiced, paid and is still owed across the
/// school's accounts (`fees.balances`), what of it is overdue and today's takings (the finance
/// view's summary), and the few families furthest behind, each a link to their statement.
/// Lines, not a table, so it reads on a phone; every amount is isolated left to right.
extension FeesConsole {
    /// How many of the families furthest behind the card names; the finance view lists more.
    static let cardBehind = 3

    static let financeCard = ConsoleCard("finance", title: Words.financeTitle, permission: FeesPermissions.manage) { console in
        let summary = try await Summary(console)
        let balances = try await console.run(FeeBalances.self, .init())
        let charged = balances.rows.reduce(0) { $0 + $1.chargedMinor }
        let owed = balances.rows.reduce(0) { $0 + $1.balanceMinor }
        let money = summary.money
        let behind: [[String: Any]] = summary.behind.prefix(cardBehind).map { entry in
            ["name": entry.row.name, "overdue": money.text(entry.overdue),
             "statement": console.pagePath("fees", "balances", query: [("student", entry.row.grNumber)])]
        }
        return Templates.card.render(summary.values(console).merging([
            "asOf": console.say(Words.asOf, ["date": CivilDate(summary.day).map { console.day($0) } ?? ConsoleDates.isolated(summary.day)]),
            "chargedLabel": console.say(Words.invoiced), "charged": money.text(charged),
            // Paid less refunds, so the three figures add up: invoiced = paid + still owed.
            "paidLabel": console.say(Words.paidNet), "paid": money.text(charged - owed),
            "owedLabel": console.say(Words.stillOwed), "owed": money.text(owed),
            "behindTitle": console.say(Words.mostBehind), "behind": behind, "anyBehind": !behind.isEmpty,
            "finance": console.pagePath("fees", "finance"), "financeText": console.say(Words.openFinance),
        ]) { $1 })
    }
}

extension FeesConsole.Templates {
    static let card = ConsoleTemplate("""
        <p class="hint">{{asOf}}</p>
        <p>{{chargedLabel}} <bdi dir="ltr" id="fees-card-charged">{{charged}}</bdi></p>
        <p>{{paidLabel}} <bdi dir="ltr" id="fees-card-paid">{{paid}}</bdi></p>
        <p><strong>{{owedLabel}} <bdi dir="ltr" id="fees-card-owed">{{owed}}</bdi></strong></p>
        <p>{{overdueLabel}} <bdi dir="ltr" id="fees-card-overdue">{{overdue}}</bdi> <span class="hint">{{overdueStudents}}</span></p>
        <p>{{collectedLabel}} <bdi dir="ltr" id="fees-card-collected">{{collected}}</bdi></p>
        {{#anyBehind}}<h3>{{behindTitle}}</h3>
        <ul id="fees-card-behind">{{#behind}}<li><a href="{{statement}}"><bdi>{{name}}</bdi></a>: <bdi dir="ltr">{{overdue}}</bdi></li>{{/behind}}</ul>{{/anyBehind}}
        <p><a href="{{finance}}">{{financeText}}</a></p>
        """)
}
