import Core
import Foundation

/// On a student's page, for administrators: correct the student's details (`students.update`,
/// whose refusal is shown beside its field, the form as it was typed) and archive the student
/// (`students.archive`, after a confirmation that says what archiving does and does not do).
extension StudentsConsole {
    /// The details form's fields, as `StudentChange` names them.
    static let editNames = ["given_name", "surname", "date_of_birth", "gender", "status"]

    /// The page after an edit that was refused, or nil when it was saved (the caller redirects).
    static func edit(_ student: Student, _ console: ConsoleRequest) async throws -> (typed: [String: String], problems: [String: String])? {
        var typed: [String: String] = [:]
        for name in editNames { typed[name] = String((console.form.value(name) ?? "").prefix(1_000)) }
        let change = StudentChange(grNumber: student.id, givenName: typed["given_name"], surname: typed["surname"],
                                   dateOfBirth: typed["date_of_birth"], gender: typed["gender"], status: typed["status"])
        do {
            _ = try await console.run(UpdateStudent.self, change)
            return nil
        } catch let error as InputError {
            // The rule names its column, which is the field's name here; its reason goes beside it.
            // A problem with no field of its own is said above the form (key "").
            let column = error.messageArguments["column"] ?? ""
            let reason = error.messageKey == "students.error.field" ? error.messageArguments["reason"] : nil
            return editNames.contains(column) ? (typed, [column: reason ?? console.message(for: error)]) : (typed, ["": console.message(for: error)])
        }
    }

    /// The details form, filled with what was typed or else with the student's details.
    static func editSection(_ student: Student, typed: [String: String]?, problems: [String: String], _ console: ConsoleRequest) -> [String: Any] {
        let current = ["given_name": student.givenName, "surname": student.surname, "date_of_birth": student.dateOfBirth ?? "",
                       "gender": student.gender?.rawValue ?? "", "status": student.status.rawValue]
        func value(_ name: String) -> String { typed?[name] ?? current[name] ?? "" }
        func field(_ name: String, _ label: LocalizedText, type: String = "text", required: Bool = false, ltr: Bool = false,
                   choices: [(String, LocalizedText)]? = nil) -> [String: Any] {
            ConsoleFormField.make(id: "edit-" + name.replacingOccurrences(of: "_", with: "-"), name: name, label: console.say(label), value: value(name),
                           type: type, required: required, ltr: ltr, problem: problems[name] ?? "",
                           choices: choices.map { ConsoleFormField.choices($0, selected: value(name), console) })
        }
        return [
            "action": console.pagePath("students", "student"), "id": student.id, "heading": console.say(EditWords.heading),
            "summary": problems[""] ?? (problems.isEmpty ? "" : console.say(EditWords.problem)),
            "fields": [
                field("given_name", EnrolWords.givenName, required: true),
                field("surname", EnrolWords.surname, required: true),
                field("date_of_birth", EnrolWords.birth, type: "date", ltr: true),
                field("gender", EnrolWords.gender, choices: [("", Names.notRecorded)] + Gender.allCases.map { ($0.rawValue, Names.gender($0)) }),
                field("status", StudentWords.status, choices: StudentStatus.allCases.map { ($0.rawValue, Names.status($0)) }),
            ],
            "submit": console.say(EditWords.save),
        ]
    }

    /// The archive button, or (once pressed) what archiving does and the button that does it.
    static func archiveSection(_ student: Student, asking: Bool, _ console: ConsoleRequest) -> [String: Any] {
        [
            "action": console.pagePath("students", "student"), "id": student.id, "heading": console.say(EditWords.archiveHeading),
            "asking": asking, "explain": console.say(EditWords.archiveExplain, ["name": student.fullName]),
            "ask": console.say(EditWords.archiveAsk), "confirm": console.say(EditWords.archiveConfirm, ["name": student.fullName]),
            "cancel": console.pagePath("students", "student", query: [("id", student.id)]), "cancelText": console.say(EnrolWords.cancel),
        ]
    }

    enum EditWords {
        static let heading = LocalizedText(ar: "تصحيح البيانات", en: "Correct the details")
        static let problem = LocalizedText(ar: "لم يُحفظ شيء: صحّح الحقل المعلَّم أدناه.", en: "Nothing was saved: correct the field marked below.")
        static let save = LocalizedText(ar: "احفظ البيانات", en: "Save the details")
        static let saved = LocalizedText(ar: "حُفظت بيانات {name}.", en: "The details of {name} were saved.")
        static let archiveHeading = LocalizedText(ar: "أرشفة الطالب", en: "Archive the student")
        static let archiveExplain = LocalizedText(
            ar: "تُخفي الأرشفة {name} من القوائم والسجلات اليومية ويصبح رقم قيده متاحًا لغيره، وتبقى كل سجلاته (الحضور والدرجات والشهادات) كما هي.",
            en: "Archiving takes {name} out of the lists and the daily registers and frees their GR number; every record of theirs (attendance, grades, report cards) stays as it is.")
        static let archiveAsk = LocalizedText(ar: "أرشف هذا الطالب…", en: "Archive this student…")
        static let archiveConfirm = LocalizedText(ar: "نعم، أرشف {name}", en: "Yes, archive {name}")
        static let archived = LocalizedText(ar: "أُرشف الطالب. بقيت سجلاته كما هي.", en: "The student was archived. Their records stay as they are.")
    }

    enum EditTemplates {
        static let sections = ConsoleTemplate("""
            {{#edit}}<form method="post" action="{{action}}" class="panel" id="edit-form" data-submit-once aria-labelledby="edit-heading" novalidate>
            <h2 id="edit-heading">{{heading}}</h2><input type="hidden" name="_csrf" value="{{csrf}}"><input type="hidden" name="id" value="{{id}}"><input type="hidden" name="do" value="edit">
            {{#summary}}<p class="problem" role="alert" id="edit-problems">{{summary}}</p>{{/summary}}
            \(ConsoleFormField.markup)
            <p><button type="submit" class="primary">{{submit}}</button></p></form>{{/edit}}
            {{#archive}}<form method="post" action="{{action}}" class="panel" id="archive-form" data-submit-once aria-labelledby="archive-heading">
            <h2 id="archive-heading">{{heading}}</h2><input type="hidden" name="_csrf" value="{{csrf}}"><input type="hidden" name="id" value="{{id}}">
            {{#asking}}<p role="alert" id="archive-explain" tabindex="-1" data-focus-on-load>{{explain}}</p><input type="hidden" name="do" value="archive">
            <p class="actions"><button type="submit" class="primary" id="archive-confirm">{{confirm}}</button> <a class="button" href="{{cancel}}">{{cancelText}}</a></p>{{/asking}}
            {{^asking}}<input type="hidden" name="do" value="archive-ask"><p><button type="submit" id="archive-ask">{{ask}}</button></p>{{/asking}}
            </form>{{/archive}}
            """)
    }
}
