import Core
import Foundation
import Students

/// The term page for whoever may publish report cards (`grades.manage`): pick a term and a class,
/// read that class's cards as they stand (draft or published: `grades.report-card`), then
/// publish the term (`grades.publish`, which publishes the whole term, every class). The first
/// press only asks, in words, what publishing does; "Yes, publish" does it.
enum GradesPublishConsole {
    static let page = ConsolePage("publish", title: Words.title, permission: GradesPermissions.manage) { console in
        guard console.isPost, console.form.value("do") == "publish" else { return try await preview(console) }
        let terms = try await GradesConsoleCards.terms(console)
        let reference = console.form.value("term") ?? ""
        // A term the list does not have is refused as the action refuses it.
        guard let term = GradesConsoleCards.term(reference, in: terms), !reference.isEmpty else { throw GradesError.unknownTerm(reference) }
        guard console.form.value("confirm") == "yes" else { return try await preview(console, confirming: term) }
        do {
            let count = try await console.run(PublishReportCards.self, .init(term: term.id))
            return .redirect(console.pagePath("grades", "publish", query: [("term", term.id), ("class", console.form.value("class") ?? ""), ("published", String(count))]))
        } catch let error where !(error is CancellationError) {
            // Already published, or refused: said above the preview, nothing written.
            return try await preview(console, error: console.message(for: error))
        }
    }

    /// The pickers, what was done, the confirmation when asked for, and the chosen class's cards.
    private static func preview(_ console: ConsoleRequest, confirming: Term? = nil, error: String = "") async throws -> ConsoleResponse {
        let source = console.isPost ? console.form : ConsoleForm(pairs: console.query.map { ($0.key, $0.value) })
        let terms = try await GradesConsoleCards.terms(console)
        let classes = try await console.run(ListClasses.self, .init())
        guard let term = confirming ?? GradesConsoleCards.term(source.value("term"), in: terms) else {
            return .page(title: console.say(Words.title), body: .text(console.say(GradesConsole.Words.noTerms)))
        }
        let chosenClass = source.value("class").flatMap { GradesConsoleCards.schoolClass($0, in: classes) } ?? classes.first
        var cards: [ReportCard.Output] = []
        if let chosenClass {
            for student in try await GradesConsoleCards.students(of: chosenClass.code, console) {
                cards.append(try await console.run(ReportCard.self, .init(grNumber: student.grNumber, term: term.id)))
            }
        }
        let termName = term.name.text(in: console.language)
        let published = cards.contains { $0.published }
        var values: [String: Any] = [
            "action": console.pagePath("grades", "publish"), "intro": console.say(Words.intro), "error": error,
            "terms": GradesConsoleCards.termOptions(terms, chosen: term, console), "termPick": console.say(GradesConsole.Words.term),
            "classes": classes.map { ["code": $0.code, "name": "\($0.code) · \($0.name.text(in: console.language))", "selected": $0.id == chosenClass?.id] as [String: Any] },
            "classPick": console.say(GradesConsoleCards.Words.classWord), "show": console.say(GradesConsole.Words.show),
            "term": term.id, "class": chosenClass?.code ?? "",
            "state": console.say(published ? Words.isPublished : Words.isDraft, ["term": termName]),
            "mayPublish": !published && confirming == nil, "publish": console.say(Words.publish, ["term": termName]),
            "publishHint": console.say(Words.publishHint),
            "notice": console.query["published"].map { console.say($0 == "0" ? Words.doneEmpty : Words.done, ["term": termName, "count": $0]) } ?? "",
            "heading": console.say(Words.heading, ["class": chosenClass?.code ?? "", "term": termName]),
            "dates": ConsoleDates.range(term.startsOn, term.endsOn),
            "cards": GradesConsoleCards.ranked(cards).map { GradesConsoleCards.values($0, console) },
            "none": cards.isEmpty ? console.say(Words.noStudents) : "",
            "print": chosenClass.map { console.pagePath("grades", "print", query: [("term", term.id), ("class", $0.code)]) } ?? "",
            "printText": console.say(Words.print),
        ]
        if let confirming {
            values["confirm"] = ["text": console.say(Words.confirm, ["term": confirming.name.text(in: console.language)]),
                                 "yes": console.say(Words.yes), "cancelText": console.say(Words.cancel),
                                 "cancel": console.pagePath("grades", "publish", query: [("term", term.id), ("class", chosenClass?.code ?? "")])]
        }
        let body = Templates.page.render(console.common.merging(GradesConsoleCards.labels(console)) { $1 }.merging(values) { $1 })
        return .page(title: console.say(Words.title), body: body)
    }

    enum Words {
        static let title = LocalizedText(ar: "نشر الشهادات", en: "Publish report cards")
        static let intro = LocalizedText(ar: "اختر الفصل الدراسي والصف لترى شهادات الصف كما هي الآن، ثم انشر شهادات الفصل الدراسي ليقرأها الطلاب وأولياء الأمور.",
                                         en: "Choose a term and a class to see that class's report cards as they stand, then publish the term's cards for students and guardians to read.")
        static let heading = LocalizedText(ar: "شهادات {class}، {term}", en: "Report cards of {class}, {term}")
        static let isDraft = LocalizedText(ar: "شهادات {term} مسودة: لا يراها الطلاب ولا أولياء الأمور بعد.",
                                           en: "The report cards of {term} are a draft: students and guardians do not see them yet.")
        static let isPublished = LocalizedText(ar: "شهادات {term} منشورة: يقرؤها الطلاب وأولياء الأمور.",
                                               en: "The report cards of {term} are published: students and guardians can read them.")
        static let publish = LocalizedText(ar: "نشر شهادات {term}", en: "Publish the report cards of {term}")
        static let publishHint = LocalizedText(ar: "النشر يشمل الفصل الدراسي كله، لكل الصفوف لا لهذا الصف وحده. ستُسأل مرة أخرى قبل النشر.",
                                               en: "Publishing covers the whole term, every class, not only this one. You are asked again before anything is published.")
        static let confirm = LocalizedText(ar: "نشر شهادات {term} لكل صفوف المدرسة؟ سيراها كل الطلاب وأولياء أمورهم فورًا، ولا يُلغى النشر من هنا.",
                                           en: "Publish the report cards of {term} for every class of the school? Every student and their guardians will see them at once, and publishing cannot be undone here.")
        static let yes = LocalizedText(ar: "نعم، انشر", en: "Yes, publish")
        static let cancel = LocalizedText(ar: "إلغاء", en: "Cancel")
        static let done = LocalizedText(ar: "نُشرت شهادات {term}: {count} طالبًا وأولياء أمورهم يرونها الآن في صفحة الشهادات.",
                                        en: "The report cards of {term} are published: {count} students and their guardians now see them on the report cards page.")
        static let doneEmpty = LocalizedText(ar: "نُشرت شهادات {term}. لا نتائج فيه لأي طالب بعد: تظهر الشهادات لأصحابها مع إدخال الدرجات.",
                                             en: "The report cards of {term} are published. No student has results in it yet: each card appears to its reader as marks are entered.")
        static let noStudents = LocalizedText(ar: "لا طلاب في هذا الصف.", en: "No students in this class.")
        static let print = LocalizedText(ar: "عرض شهادات الصف للطباعة", en: "Print view of this class's cards")
    }

    enum Templates {
        static let page = ConsoleTemplate("""
            <p class="lead">{{intro}}</p>
            {{#notice}}<p class="notice" role="status" id="published" tabindex="-1" data-focus-on-load>{{notice}}</p>{{/notice}}
            {{#error}}<p class="problem" role="alert" id="publish-problem">{{error}}</p>{{/error}}
            <form method="get" action="{{action}}" class="panel actions" id="publish-pick">
            <p><label for="publish-term">{{termPick}}</label><select id="publish-term" name="term">{{#terms}}<option value="{{id}}"{{#selected}} selected{{/selected}}>{{name}}</option>{{/terms}}</select></p>
            <p><label for="publish-class">{{classPick}}</label><select id="publish-class" name="class">{{#classes}}<option value="{{code}}"{{#selected}} selected{{/selected}}>{{name}}</option>{{/classes}}</select></p>
            <button type="submit">{{show}}</button></form>
            {{#confirm}}<form method="post" action="{{action}}" class="panel" id="publish-confirm" data-submit-once role="alertdialog" aria-labelledby="publish-confirm-text">
            <input type="hidden" name="_csrf" value="{{csrf}}"><input type="hidden" name="do" value="publish"><input type="hidden" name="confirm" value="yes">
            <input type="hidden" name="term" value="{{term}}"><input type="hidden" name="class" value="{{class}}">
            <p id="publish-confirm-text"><strong>{{text}}</strong></p>
            <p class="actions"><button type="submit" class="danger">{{yes}}</button> <a class="button" href="{{cancel}}">{{cancelText}}</a></p></form>{{/confirm}}
            <section class="panel" aria-labelledby="publish-heading"><h2 id="publish-heading"><bdi>{{heading}}</bdi></h2>
            <p class="hint" id="publish-dates">{{dates}}</p><p id="publish-state">{{state}}</p>
            {{#mayPublish}}<form method="post" action="{{action}}" id="publish-form" data-submit-once>
            <input type="hidden" name="_csrf" value="{{csrf}}"><input type="hidden" name="do" value="publish">
            <input type="hidden" name="term" value="{{term}}"><input type="hidden" name="class" value="{{class}}">
            <p class="hint">{{publishHint}}</p><button type="submit" class="primary">{{publish}}</button></form>{{/mayPublish}}
            {{#print}}<p><a href="{{print}}" id="publish-print">{{printText}}</a></p>{{/print}}
            </section>
            {{#none}}<p>{{none}}</p>{{/none}}
            {{#cards}}<details class="panel report-preview" id="preview-{{gr}}"><summary><bdi>{{name}}</bdi> · <bdi dir="ltr">{{gr}}</bdi> · {{gpaLabel}} <bdi dir="ltr">{{gpa}}</bdi>{{#rank}} · {{rank}}{{/rank}}</summary>
            {{#draft}}<p class="hint">{{draft}}</p>{{/draft}}
            {{#noSubjects}}<p>{{noSubjects}}</p>{{/noSubjects}}
            {{^noSubjects}}<div class="table-wrap" tabindex="0"><table><thead><tr><th scope="col">{{subjectLabel}}</th><th scope="col">{{percentLabel}}</th><th scope="col">{{letterLabel}}</th></tr></thead>
            <tbody>{{#subjects}}<tr><td>{{name}}{{#reason}} <span class="hint">({{reason}})</span>{{/reason}}</td><td dir="ltr">{{percent}}</td><td dir="ltr">{{letter}}</td></tr>{{/subjects}}</tbody></table></div>{{/noSubjects}}
            </details>{{/cards}}
            """)
    }
}
