import Core
import Foundation

/// On a student's page, for those who manage the roster: link a guardian (`students.link-guardian`).
/// A guardian already in the school with the same email (a sibling's parent) is linked, not made
/// twice, and a guardian account with that email then sees this student too.
extension StudentsConsole {
    static let guardianNames = ["given_name", "surname", "relation", "email", "phone", "primary"]

    /// nil when the guardian was linked (the caller redirects), else what was typed and the problem by field.
    static func linkGuardian(_ student: Student, _ console: ConsoleRequest) async throws -> (typed: [String: String], problems: [String: String])? {
        var typed: [String: String] = [:]
        for name in guardianNames { typed[name] = String((console.form.value("guardian." + name) ?? "").prefix(1_000)) }
        func optional(_ name: String) -> String? {
            let text = (typed[name] ?? "").trimmingCharacters(in: .whitespaces)
            return text.isEmpty ? nil : text
        }
        guard let relation = GuardianRelation(rawValue: typed["relation"] ?? "") else {
            return (typed, ["relation": console.say(GuardianWords.chooseRelation)])
        }
        let input = LinkGuardian.Input(grNumber: student.grNumber, givenName: typed["given_name"] ?? "", surname: typed["surname"] ?? "",
                                       email: optional("email"), phone: optional("phone"), relation: relation, isPrimary: typed["primary"] == "true")
        do {
            _ = try await console.run(LinkGuardian.self, input)
            return nil
        } catch let error as InputError {
            let field = error.messageKey == "students.error.guardian-email" ? "email" : error.messageArguments["field"] ?? ""
            let message = error.messageKey == "students.error.required" ? console.say(GuardianWords.required) : console.message(for: error)
            return (typed, [guardianNames.contains(field) ? field : "": message])
        }
    }

    /// The link form, filled with what was typed (after a refusal) or empty.
    static func guardianSection(_ student: Student, typed: [String: String]?, problems: [String: String], _ console: ConsoleRequest) -> [String: Any] {
        func value(_ name: String) -> String { typed?[name] ?? "" }
        func field(_ name: String, _ label: LocalizedText, type: String = "text", ltr: Bool = false, hint: LocalizedText? = nil,
                   choices: [(String, LocalizedText)]? = nil) -> [String: Any] {
            ConsoleFormField.make(id: "guardian-" + name.replacingOccurrences(of: "_", with: "-"), name: "guardian." + name, label: console.say(label),
                           value: value(name), type: type, ltr: ltr, hint: hint.map { console.say($0) } ?? "", problem: problems[name] ?? "",
                           choices: choices.map { ConsoleFormField.choices($0, selected: value(name), console) })
        }
        return [
            "action": console.pagePath("students", "student"), "id": student.id, "heading": console.say(GuardianWords.heading),
            "intro": console.say(GuardianWords.intro),
            "summary": problems[""] ?? (problems.isEmpty ? "" : console.say(EditWords.problem)),
            "fields": [
                field("given_name", EnrolWords.givenName),
                field("surname", EnrolWords.surname),
                field("relation", EnrolWords.relation,
                      choices: [("", EnrolWords.chooseRelation)] + GuardianRelation.allCases.map { ($0.rawValue, Names.relation($0)) }),
                field("email", EnrolWords.email, type: "email", ltr: true, hint: EnrolWords.emailHint),
                field("phone", EnrolWords.phone, type: "tel", ltr: true),
            ],
            "primaryLabel": console.say(GuardianWords.primary), "primaryChecked": value("primary") == "true",
            "submit": console.say(GuardianWords.submit),
        ]
    }

    enum GuardianWords {
        static let heading = LocalizedText(ar: "ربط وليّ أمر", en: "Link a guardian")
        static let intro = LocalizedText(
            ar: "إن كان في المدرسة وليّ أمر بالبريد نفسه (وليّ أمر أخ أو أخت) رُبط هو ولم يُنشأ من جديد.",
            en: "If the school already has a guardian with the same email (a sibling's parent), that guardian is linked rather than made again.")
        static let primary = LocalizedText(ar: "وليّ الأمر الأساسي", en: "Primary guardian")
        static let submit = LocalizedText(ar: "اربط وليّ الأمر", en: "Link the guardian")
        static let required = LocalizedText(ar: "هذا الحقل مطلوب.", en: "Fill this in.")
        static let chooseRelation = LocalizedText(ar: "اختر صلته بالطالب.", en: "Choose their relation to the student.")
        static let linked = LocalizedText(ar: "رُبط وليّ الأمر بـ{name}.", en: "The guardian is linked to {name}.")
    }

    enum GuardianTemplates {
        static let form = ConsoleTemplate("""
            <form method="post" action="{{action}}" class="panel" id="guardian-form" data-submit-once aria-labelledby="guardian-heading" novalidate>
            <h2 id="guardian-heading">{{heading}}</h2><input type="hidden" name="_csrf" value="{{csrf}}"><input type="hidden" name="id" value="{{id}}"><input type="hidden" name="do" value="guardian">
            <p class="hint">{{intro}}</p>
            {{#summary}}<p class="problem" role="alert" id="guardian-problems">{{summary}}</p>{{/summary}}
            \(ConsoleFormField.markup)
            <div class="choices"><label><input type="checkbox" id="guardian-primary" name="guardian.primary" value="true"{{#primaryChecked}} checked{{/primaryChecked}}> {{primaryLabel}}</label></div>
            <p><button type="submit" class="primary">{{submit}}</button></p></form>
            """)
    }
}
