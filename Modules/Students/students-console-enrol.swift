import Core
import Foundation

/// Enrolment: a new student and one or two guardians in one form, saved by one `students.admit`
/// (one transaction: the student, their class and their guardians, or nothing). Every problem the
/// action finds is shown beside its field, the form as it was typed; success opens the student's page.
extension StudentsConsole {
    static let enrol = ConsolePage("enrol", title: EnrolWords.title, permission: StudentsPermissions.manage, inMenu: false) { console in
        let classes = try await console.run(ListClasses.self, .init())
        guard console.isPost else { return page(EnrolForm(console.form), problems: [:], summary: "", classes: classes, console) }
        let form = EnrolForm(console.form)
        do {
            let detail = try await console.run(AdmitStudent.self, form.input)
            return .redirect(console.pagePath("students", "student", query: [("id", detail.student.id), ("done", "enrolled")]))
        } catch let error as AdmissionError {
            let problems = Dictionary(error.problems.map { ($0.field, $0.message) }) { first, _ in first }
            let summary = console.say(EnrolWords.problems, ["count": String(error.problems.count)])
            // A problem with no field of its own (how many guardians) is said in the summary.
            let unplaced = error.problems.filter { !EnrolForm.names.contains($0.field) }.map(\.message)
            return page(form, problems: problems, summary: ([summary] + unplaced).joined(separator: " "), classes: classes, console)
        } catch let error where !(error is KernelError) && !(error is CancellationError) {
            return page(form, problems: [:], summary: console.message(for: error), classes: classes, console)
        }
    }

    private static func page(_ form: EnrolForm, problems: [String: String], summary: String, classes: [SchoolClass], _ console: ConsoleRequest) -> ConsoleResponse {
        func field(_ name: String, _ label: LocalizedText, type: String = "text", required: Bool = false, ltr: Bool = false, autocomplete: String = "off",
                   hint: LocalizedText? = nil, choices: [[String: Any]]? = nil) -> [String: Any] {
            ConsoleFormField.make(id: "enrol-" + name.replacingOccurrences(of: ".", with: "-").replacingOccurrences(of: "_", with: "-"), name: name,
                           label: console.say(label), value: form.value(name), type: type, required: required, ltr: ltr, autocomplete: autocomplete,
                           hint: hint.map { console.say($0) } ?? "", problem: problems[name] ?? "", choices: choices)
        }
        func options(_ name: String, _ pairs: [(String, LocalizedText)]) -> [[String: Any]] {
            ConsoleFormField.choices(pairs, selected: form.value(name), console)
        }
        let relations = GuardianRelation.allCases.map { ($0.rawValue, Names.relation($0)) }
        func guardian(_ number: Int, legend: LocalizedText, hint: LocalizedText?, required: Bool) -> [String: Any] {
            let prefix = "guardian\(number)."
            return ["id": "enrol-guardian\(number)", "legend": console.say(legend), "hint": hint.map { console.say($0) } ?? "", "fields": [
                field(prefix + "given_name", EnrolWords.givenName, required: required, autocomplete: "off"),
                field(prefix + "surname", EnrolWords.surname, required: required),
                field(prefix + "relation", EnrolWords.relation, required: required,
                      choices: options(prefix + "relation", [("", EnrolWords.chooseRelation)] + relations)),
                field(prefix + "email", EnrolWords.email, type: "email", ltr: true, hint: EnrolWords.emailHint),
                field(prefix + "phone", EnrolWords.phone, type: "tel", ltr: true),
            ]]
        }
        let student: [String: Any] = ["id": "enrol-student", "legend": console.say(EnrolWords.student), "hint": "", "fields": [
            field("given_name", EnrolWords.givenName, required: true),
            field("surname", EnrolWords.surname, required: true),
            field("name_language", EnrolWords.nameLanguage, choices: options("name_language", [("ar", EnrolWords.arabic), ("en", EnrolWords.english)])),
            field("class", EnrolWords.schoolClass, required: true,
                  choices: classChoices(classes, selected: form.value("class"), blank: Names.chooseClass, console)),
            field("gr_number", EnrolWords.gr, ltr: true, hint: EnrolWords.grHint),
            field("date_of_birth", EnrolWords.birth, type: "date", ltr: true, hint: EnrolWords.birthHint),
            field("gender", EnrolWords.gender, choices: options("gender", [("", Names.notRecorded)] + Gender.allCases.map { ($0.rawValue, Names.gender($0)) })),
        ]]
        return .page(title: console.say(EnrolWords.title), body: EnrolTemplates.page.render(console.common.merging([
            "action": console.pagePath("students", "enrol"), "intro": console.say(EnrolWords.intro), "summary": summary,
            "groups": [student, guardian(1, legend: EnrolWords.firstGuardian, hint: nil, required: true),
                       guardian(2, legend: EnrolWords.secondGuardian, hint: EnrolWords.secondHint, required: false)],
            "submit": console.say(EnrolWords.submit), "cancel": console.pagePath("students", "students"), "cancelText": console.say(EnrolWords.cancel),
        ]) { $1 }))
    }

    enum EnrolWords {
        static let title = LocalizedText(ar: "قيد طالب جديد", en: "Enrol a student")
        static let intro = LocalizedText(ar: "الطالب وفصله ووليّ أمر أو اثنان في نموذج واحد: يُحفظ كله معًا أو لا يُحفظ شيء.",
                                         en: "The student, their class and one or two guardians in one form: all of it is saved together, or nothing is.")
        static let student = LocalizedText(ar: "الطالب", en: "The student")
        static let firstGuardian = LocalizedText(ar: "وليّ الأمر الأول", en: "First guardian")
        static let secondGuardian = LocalizedText(ar: "وليّ الأمر الثاني (اختياري)", en: "Second guardian (optional)")
        static let secondHint = LocalizedText(ar: "اتركه فارغًا إن لم يكن للطالب وليّ أمر ثانٍ.", en: "Leave it empty if the student has no second guardian.")
        static let givenName = LocalizedText(ar: "الاسم الأول", en: "Given name")
        static let surname = LocalizedText(ar: "اسم العائلة", en: "Surname")
        static let nameLanguage = LocalizedText(ar: "لغة كتابة الاسم", en: "Language the name is written in")
        static let arabic = LocalizedText(ar: "العربية", en: "Arabic")
        static let english = LocalizedText(ar: "الإنجليزية", en: "English")
        static let schoolClass = LocalizedText(ar: "الفصل", en: "Class")
        static let gr = LocalizedText(ar: "رقم القيد", en: "GR number")
        static let grHint = LocalizedText(ar: "اتركه فارغًا لتعطيه المدرسة الرقم التالي.", en: "Leave it empty and the school gives the next number.")
        static let birth = LocalizedText(ar: "تاريخ الميلاد", en: "Date of birth")
        static let birthHint = LocalizedText(ar: "اختياري إن لم يُعرف بعد.", en: "Optional when not known yet.")
        static let gender = LocalizedText(ar: "الجنس", en: "Sex")
        static let relation = LocalizedText(ar: "صلته بالطالب", en: "Relation to the student")
        static let chooseRelation = LocalizedText(ar: "اختر الصلة", en: "Choose the relation")
        static let email = LocalizedText(ar: "البريد الإلكتروني", en: "Email")
        static let emailHint = LocalizedText(ar: "إن كان له حساب وليّ أمر بهذا البريد فسيرى هذا الطالب.",
                                             en: "If they have a guardian account with this email, it will see this student.")
        static let phone = LocalizedText(ar: "الهاتف", en: "Phone")
        static let submit = LocalizedText(ar: "قيد الطالب", en: "Enrol the student")
        static let cancel = LocalizedText(ar: "إلغاء", en: "Cancel")
        static let problems = LocalizedText(ar: "لم يُحفظ شيء: صحّح الحقول المعلَّمة أدناه ({count}).",
                                            en: "Nothing was saved: correct the fields marked below ({count}).")
    }

    enum EnrolTemplates {
        static let page = ConsoleTemplate("""
            <p class="lead">{{intro}}</p>
            {{#summary}}<p class="problem" role="alert" id="enrol-problems">{{summary}}</p>{{/summary}}
            <form method="post" action="{{action}}" id="enrol-form" data-submit-once novalidate>
            <input type="hidden" name="_csrf" value="{{csrf}}">
            {{#groups}}<fieldset class="panel" id="{{id}}"><legend><strong>{{legend}}</strong></legend>
            {{#hint}}<p class="hint">{{hint}}</p>{{/hint}}
            \(ConsoleFormField.markup)</fieldset>{{/groups}}
            <p class="actions"><button type="submit" class="primary">{{submit}}</button> <a class="button" href="{{cancel}}">{{cancelText}}</a></p>
            </form>
            """)
    }
}

/// The enrolment form as sent: its values by field name, and the admission they ask for.
struct EnrolForm {
    static let studentNames = ["given_name", "surname", "name_language", "class", "gr_number", "date_of_birth", "gender"]
    static let guardianNames = ["given_name", "surname", "relation", "email", "phone"]
    static let names: Set<String> = Set(studentNames + (1...2).flatMap { number in guardianNames.map { "guardian\(number).\($0)" } })

    private let values: [String: String]

    init(_ form: ConsoleForm) {
        var values: [String: String] = [:]
        for name in Self.names { values[name] = String((form.value(name) ?? "").prefix(1_000)) }
        self.values = values
    }

    func value(_ name: String) -> String { values[name] ?? "" }

    private func optional(_ name: String) -> String? {
        let text = value(name).trimmingCharacters(in: .whitespaces)
        return text.isEmpty ? nil : text
    }

    /// The student and the guardians the form names: the first always, the second when any of its fields is filled in.
    var input: AdmitStudent.Input {
        let student = StudentFields(grNumber: value("gr_number"), givenName: value("given_name"), surname: value("surname"),
                                    nameLanguage: optional("name_language") ?? "ar", dateOfBirth: value("date_of_birth"), gender: value("gender"),
                                    classID: optional("class"))
        let guardians = (1...2).compactMap { number -> AdmissionGuardian? in
            let prefix = "guardian\(number)."
            let typed = Self.guardianNames.contains { optional(prefix + $0) != nil }
            guard number == 1 || typed else { return nil }
            return AdmissionGuardian(givenName: value(prefix + "given_name"), surname: value(prefix + "surname"), email: optional(prefix + "email"),
                                     phone: optional(prefix + "phone"), relation: value(prefix + "relation"), isPrimary: number == 1)
        }
        return AdmitStudent.Input(student: student, guardians: guardians)
    }
}
