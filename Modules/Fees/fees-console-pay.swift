import Core
import Foundation

/// The payment form: a student (GR number), an amount, how it was paid and a reference. Saved by
/// `fees.pay`, which allocates it oldest due first and takes the next receipt number; then the
/// student's statement opens with the receipt named. A refusal keeps what was typed, beside the
/// reason.
extension FeesConsole {
    static let pay = ConsolePage("pay", title: Words.recordPayment, permission: FeesPermissions.manage) { console in
        guard console.isPost else {
            return form(console, student: console.query["student"] ?? "", amount: "", method: .cash, reference: "")
        }
        let student = (console.form.value("student") ?? "").trimmingCharacters(in: .whitespaces)
        let amount = (console.form.value("amount") ?? "").trimmingCharacters(in: .whitespaces)
        let method = FeePaymentMethod(rawValue: console.form.value("method") ?? "")
        let reference = (console.form.value("reference") ?? "").trimmingCharacters(in: .whitespaces)
        guard let method else {
            return form(console, student: student, amount: amount, method: .cash, reference: reference, error: console.say(Words.chooseMethod))
        }
        guard !student.isEmpty, !amount.isEmpty else {
            return form(console, student: student, amount: amount, method: method, reference: reference, error: console.say(Words.studentAndAmount))
        }
        let result: FeeEntryResult
        do {
            result = try await console.run(RecordFeePayment.self, .init(student: student, amount: amount, method: method,
                                                                          reference: reference.isEmpty ? nil : reference))
        } catch let error where !(error is CancellationError) {
            return form(console, student: student, amount: amount, method: method, reference: reference, error: console.message(for: error))
        }
        return .redirect(console.pagePath("fees", "balances", query: [("student", student), ("receipt", result.entry.receipt)]))
    }

    private static func form(_ console: ConsoleRequest, student: String, amount: String, method: FeePaymentMethod, reference: String,
                             error: String = "") -> ConsoleResponse {
        .page(title: console.say(Words.recordPayment), body: Templates.pay.render(console.common.merging([
            "action": console.pagePath("fees", "pay"), "error": error, "intro": console.say(Words.payIntro),
            "studentLabel": console.say(Words.grNumber), "student": student, "amountLabel": console.say(Words.amount), "amount": amount,
            "methodLabel": console.say(Words.method), "referenceLabel": console.say(Words.reference), "reference": reference,
            "methods": FeePaymentMethod.allCases.map { ["value": $0.rawValue, "label": methodText($0, console), "selected": $0 == method] },
            "save": console.say(Words.savePayment),
        ]) { $1 }))
    }
}

extension FeesConsole.Templates {
    static let pay = ConsoleTemplate("""
        <p class="lead">{{intro}}</p>
        {{#error}}<p class="problem" role="alert" id="fees-problem">{{error}}</p>{{/error}}
        <form method="post" action="{{action}}" class="panel" id="fees-pay"><input type="hidden" name="_csrf" value="{{csrf}}">
        <p><label for="fees-student">{{studentLabel}}</label><input id="fees-student" name="student" value="{{student}}" dir="ltr" required autocomplete="off"></p>
        <p><label for="fees-amount">{{amountLabel}}</label><input id="fees-amount" name="amount" value="{{amount}}" dir="ltr" inputmode="decimal" required autocomplete="off"></p>
        <p><label for="fees-method">{{methodLabel}}</label><select id="fees-method" name="method">{{#methods}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/methods}}</select></p>
        <p><label for="fees-reference">{{referenceLabel}}</label><input id="fees-reference" name="reference" value="{{reference}}" maxlength="200" autocomplete="off"></p>
        <button type="submit">{{save}}</button></form>
        """)
}
