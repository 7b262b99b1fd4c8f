import Core
import Foundation

/// Balances and statements. Without a student it lists everyone the person may see (the whole
/// school for the accountant, a guardian's own children), and a family with one child goes
/// straight to its statement. A statement shows each invoice and every payment, refund and
/// reversal with its receipt number. A student outside the person's reach reads as unknown.
extension FeesConsole {
    static let balances = ConsolePage("balances", title: Words.balancesTitle, permission: FeesPermissions.read) { console in
        do {
            if console.isPost, let student = console.form.value("student") {
                let enabled = console.form.value("reminders") == "on"
                _ = try await console.run(SetFeeReminders.self, .init(student: student, enabled: enabled))
                return .redirect(console.pagePath("fees", "balances", query: [("student", student), ("reminders", enabled ? "on" : "off")]))
            }
            if let student = console.query["student"].flatMap({ $0.isEmpty ? nil : $0 }) {
                return try await statement(console, student: student)
            }
            let list = try await console.run(FeeBalances.self, .init())
            if !console.may(FeesPermissions.manage), list.rows.count == 1, let only = list.rows.first {
                return try await statement(console, student: only.grNumber)
            }
            return overview(console, list)
        } catch let error where !(error is CancellationError) {
            return .page(title: console.say(Words.balancesTitle), body: Templates.problem.render(["error": console.message(for: error)]))
        }
    }

    private static func overview(_ console: ConsoleRequest, _ list: FeeBalances.Output) -> ConsoleResponse {
        let money = Money(currency: list.currency, digits: list.minorDigits)
        let rows: [[String: Any]] = list.rows.map { row in
            ["name": row.name, "gr": row.grNumber, "charged": money.text(row.chargedMinor), "paid": money.text(row.paidMinor),
             "balance": money.text(row.balanceMinor), "overdue": row.overdueMinor > 0 ? money.text(row.overdueMinor) : "",
             "statement": console.pagePath("fees", "balances", query: [("student", row.grNumber)])]
        }
        return .page(title: console.say(Words.balancesTitle), body: Templates.overview.render(console.common.merging([
            "intro": console.say(console.may(FeesPermissions.manage) ? Words.balancesIntro : Words.chooseChild),
            "rows": rows, "none": rows.isEmpty ? console.say(Words.noBalances) : "",
            "nameLabel": console.say(Words.student), "grLabel": console.say(Words.grNumber), "chargedLabel": console.say(Words.charged),
            "paidLabel": console.say(Words.paidLabel), "balanceLabel": console.say(Words.balance), "overdueLabel": console.say(Words.overdue),
        ]) { $1 }))
    }

    private static func statement(_ console: ConsoleRequest, student: String) async throws -> ConsoleResponse {
        let account = try await console.run(StudentFeeAccount.self, .init(student: student))
        let money = Money(currency: account.currency, digits: account.minorDigits)
        let invoices: [[String: Any]] = account.invoices.map { invoice in
            ["label": invoice.label, "due": invoice.dueOn, "amount": money.text(invoice.amountMinor - invoice.cancelledMinor),
             "late": invoice.lateFeeMinor > 0 ? console.say(Words.lateFeeIncluded, ["amount": money.text(invoice.lateFeeMinor)]) : "",
             "paid": money.text(invoice.paidMinor), "outstanding": money.text(max(0, invoice.outstandingMinor)),
             "status": invoice.status.rawValue.lowercased(), "statusText": statusText(invoice.status, console)]
        }
        let entries: [[String: Any]] = account.entries.map { entry in
            ["receipt": entry.receipt, "day": entry.onDay, "kind": kindText(entry.kind, console), "method": methodText(entry.method, console),
             "amount": money.text(entry.kind == .payment ? entry.amountMinor : -entry.amountMinor), "reference": entry.reference ?? ""]
        }
        let receipt = console.query["receipt"] ?? ""
        // Only a guardian chooses reminders, for each child.
        let reminders = console.principal.role == .guardian ? try await console.run(ShowFeeReminders.self, .init(student: account.grNumber)) : nil
        let remindersNotice = console.query["reminders"].map { console.say($0 == "on" ? Words.remindersOn : Words.remindersOff) } ?? ""
        return .page(title: console.say(Words.statementOf, ["name": account.name]), body: Templates.statement.render(console.common.merging([
            "notice": receipt.isEmpty ? remindersNotice : console.say(Words.saved, ["receipt": receipt]),
            "choosesReminders": reminders != nil, "remindersOn": reminders ?? false, "remindLabel": console.say(Words.remindMe),
            "remindHint": console.say(Words.remindHint), "saveReminders": console.say(Words.saveReminders),
            "remindAction": console.pagePath("fees", "balances"),
            "gr": account.grNumber, "grLabel": console.say(Words.grNumber),
            "balanceLabel": console.say(Words.balance), "balance": money.text(account.balanceMinor),
            "overdueLabel": console.say(Words.overdue), "overdue": money.text(account.overdueMinor),
            "invoicesTitle": console.say(Words.invoices), "invoices": invoices, "noInvoices": invoices.isEmpty ? console.say(Words.noInvoices) : "",
            "itemLabel": console.say(Words.item), "dueLabel": console.say(Words.due), "amountLabel": console.say(Words.amount),
            "paidLabel": console.say(Words.paidLabel), "outstandingLabel": console.say(Words.outstanding), "statusLabel": console.say(Words.status),
            "entriesTitle": console.say(Words.payments), "entries": entries, "noEntries": entries.isEmpty ? console.say(Words.noPayments) : "",
            "receiptLabel": console.say(Words.receipt), "dayLabel": console.say(Words.day), "kindLabel": console.say(Words.kind),
            "methodLabel": console.say(Words.method), "referenceLabel": console.say(Words.reference),
            "pay": console.may(FeesPermissions.manage) ? console.pagePath("fees", "pay", query: [("student", account.grNumber)]) : "",
            "payText": console.say(Words.recordPaymentFor, ["name": account.name]),
        ]) { $1 }))
    }
}

extension FeesConsole.Templates {
    static let problem = ConsoleTemplate(#"<p class="problem" role="alert" id="fees-problem">{{error}}</p>"#)

    static let overview = ConsoleTemplate("""
        <p class="lead">{{intro}}</p>
        {{#none}}<p>{{none}}</p>{{/none}}
        {{^none}}<div class="table-wrap" tabindex="0"><table id="fees-balances"><thead><tr><th scope="col">{{nameLabel}}</th><th scope="col">{{grLabel}}</th><th scope="col">{{chargedLabel}}</th>
        <th scope="col">{{paidLabel}}</th><th scope="col">{{balanceLabel}}</th><th scope="col">{{overdueLabel}}</th></tr></thead>
        <tbody>{{#rows}}<tr><td><a href="{{statement}}"><bdi>{{name}}</bdi></a></td><td dir="ltr">{{gr}}</td><td dir="ltr">{{charged}}</td><td dir="ltr">{{paid}}</td>
        <td dir="ltr">{{balance}}</td><td dir="ltr">{{overdue}}</td></tr>{{/rows}}</tbody></table></div>{{/none}}
        """)

    static let statement = ConsoleTemplate("""
        {{#notice}}<p class="notice" role="status" id="fees-saved">{{notice}}</p>{{/notice}}
        <div class="panel" id="fees-account"><p>{{grLabel}}: <bdi dir="ltr">{{gr}}</bdi></p>
        <p><strong>{{balanceLabel}}</strong> <bdi dir="ltr" id="fees-balance">{{balance}}</bdi></p>
        <p>{{overdueLabel}}: <bdi dir="ltr">{{overdue}}</bdi></p>
        {{#pay}}<p class="actions"><a href="{{pay}}">{{payText}}</a></p>{{/pay}}</div>
        {{#choosesReminders}}<form method="post" action="{{remindAction}}" class="panel" id="fees-reminders"><input type="hidden" name="_csrf" value="{{csrf}}">
        <input type="hidden" name="student" value="{{gr}}">
        <p><input id="fees-remind" name="reminders" type="checkbox"{{#remindersOn}} checked{{/remindersOn}} aria-describedby="fees-remind-hint"><label for="fees-remind">{{remindLabel}}</label></p>
        <p class="hint" id="fees-remind-hint">{{remindHint}}</p><button type="submit">{{saveReminders}}</button></form>{{/choosesReminders}}
        <h2>{{invoicesTitle}}</h2>
        {{#noInvoices}}<p>{{noInvoices}}</p>{{/noInvoices}}
        {{^noInvoices}}<div class="table-wrap" tabindex="0"><table id="fees-invoices"><thead><tr><th scope="col">{{itemLabel}}</th><th scope="col">{{dueLabel}}</th><th scope="col">{{amountLabel}}</th>
        <th scope="col">{{paidLabel}}</th><th scope="col">{{outstandingLabel}}</th><th scope="col">{{statusLabel}}</th></tr></thead>
        <tbody>{{#invoices}}<tr class="status-{{status}}"><td><bdi>{{label}}</bdi></td><td dir="ltr">{{due}}</td><td><bdi dir="ltr">{{amount}}</bdi>{{#late}} <span class="hint">{{late}}</span>{{/late}}</td><td dir="ltr">{{paid}}</td>
        <td dir="ltr">{{outstanding}}</td><td>{{statusText}}</td></tr>{{/invoices}}</tbody></table></div>{{/noInvoices}}
        <h2>{{entriesTitle}}</h2>
        {{#noEntries}}<p>{{noEntries}}</p>{{/noEntries}}
        {{^noEntries}}<div class="table-wrap" tabindex="0"><table id="fees-entries"><thead><tr><th scope="col">{{receiptLabel}}</th><th scope="col">{{dayLabel}}</th><th scope="col">{{kindLabel}}</th>
        <th scope="col">{{methodLabel}}</th><th scope="col">{{amountLabel}}</th><th scope="col">{{referenceLabel}}</th></tr></thead>
        <tbody>{{#entries}}<tr><td dir="ltr">{{receipt}}</td><td dir="ltr">{{day}}</td><td>{{kind}}</td><td>{{method}}</td><td dir="ltr">{{amount}}</td><td><bdi>{{reference}}</bdi></td></tr>{{/entries}}</tbody></table></div>{{/noEntries}}
        """)
}
