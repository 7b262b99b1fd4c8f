import Core
import Foundation
import Students

/// A report card ready to print: one student's (`?student=GR`), a class's for staff
/// (`?class=7A`), or with neither, the signed-in student's own or each of a guardian's
/// children's, for one term. Every card comes from `grades.report-card`, so a student or
/// guardian never prints a draft and another family's child answers as a student that does not
/// exist. The print stylesheet leaves out the menu and the buttons and starts each card on a page.
enum GradesPrintConsole {
    static let page = ConsolePage("print", title: Words.title, permission: GradesPermissions.read, inMenu: false) { console in
        let terms = try await GradesConsoleCards.terms(console)
        let reference = console.query["term"]
        guard let term = GradesConsoleCards.term(reference, in: terms) else {
            // A named term the school does not have is refused as the action refuses it.
            if let reference, !reference.isEmpty { throw GradesError.unknownTerm(reference) }
            return .page(title: console.say(Words.title), body: .text(console.say(GradesConsole.Words.noTerms)))
        }
        let cards = try await cards(term, console)
        let body = Templates.page.render(console.common.merging(GradesConsoleCards.labels(console)) { $1 }.merging([
            "stylesheet": GradesPrintStyle.path, "hint": console.say(Words.hint),
            "dates": ConsoleDates.range(term.startsOn, term.endsOn), "school": console.school.name.text(in: console.language),
            "cards": cards.map { GradesConsoleCards.values($0, console) },
            "none": cards.isEmpty ? console.say(Words.none) : "",
        ]) { $1 })
        return .page(title: console.say(Words.heading, ["term": term.name.text(in: console.language)]), body: body)
    }

    /// The cards the query names, each read through `grades.report-card` as this person.
    private static func cards(_ term: Term, _ console: ConsoleRequest) async throws -> [ReportCard.Output] {
        if let student = console.query["student"], !student.isEmpty {
            return [try await console.run(ReportCard.self, .init(grNumber: student, term: term.id))]
        }
        if let reference = console.query["class"], !reference.isEmpty {
            let classes = try await console.run(ListClasses.self, .init())
            guard let schoolClass = GradesConsoleCards.schoolClass(reference, in: classes) else { throw StudentsError.unknownClass(reference) }
            var cards: [ReportCard.Output] = []
            for student in try await GradesConsoleCards.students(of: schoolClass.code, console) {
                cards.append(try await console.run(ReportCard.self, .init(grNumber: student.grNumber, term: term.id)))
            }
            return GradesConsoleCards.ranked(cards)
        }
        // Neither: the student's own card, or each of a guardian's children's.
        guard [.student, .guardian].contains(console.principal.role) else { return [] }
        var cards: [ReportCard.Output] = []
        for student in try await console.run(ListStudents.self, .init(pageSize: 20)).students {
            cards.append(try await console.run(ReportCard.self, .init(grNumber: student.grNumber, term: term.id)))
        }
        return cards
    }

    enum Words {
        static let title = LocalizedText(ar: "طباعة الشهادات", en: "Print report cards")
        static let heading = LocalizedText(ar: "الشهادات للطباعة، {term}", en: "Report cards to print, {term}")
        static let hint = LocalizedText(ar: "اطبع من قائمة المتصفح (أو «مشاركة» ثم «طباعة» على الهاتف). تُطبع كل شهادة في صفحة، بلا القائمة ولا الأزرار.",
                                        en: "Print from your browser's menu (or Share, then Print, on a phone). Each card prints on its own page, without the menu or buttons.")
        static let none = LocalizedText(ar: "لا شهادات هنا للطباعة. افتح هذه الصفحة من صفحة الشهادات أو من صفحة نشر الشهادات.",
                                        en: "No report cards to print here. Open this view from the report cards page or the publish page.")
    }

    enum Templates {
        static let page = ConsoleTemplate("""
            <link rel="stylesheet" href="{{stylesheet}}">
            <p class="hint print-hide">{{hint}}</p>
            {{#none}}<p>{{none}}</p>{{/none}}
            {{#cards}}<article class="panel print-card" id="print-{{gr}}" aria-labelledby="print-{{gr}}-title">
            <h2 id="print-{{gr}}-title"><bdi>{{name}}</bdi></h2>
            <p><bdi>{{school}}</bdi> · {{classLabel}} <bdi dir="ltr">{{class}}</bdi> · {{termLabel}} <bdi>{{term}}</bdi> <span class="print-dates">{{dates}}</span></p>
            {{#draft}}<p class="hint">{{draft}}</p>{{/draft}}
            {{#noSubjects}}<p>{{noSubjects}}</p>{{/noSubjects}}
            {{^noSubjects}}<div class="table-wrap" tabindex="0"><table class="print-subjects"><thead><tr><th scope="col">{{subjectLabel}}</th><th scope="col">{{percentLabel}}</th><th scope="col">{{letterLabel}}</th></tr></thead>
            <tbody>{{#subjects}}<tr><td>{{name}}{{#reason}} <span class="hint">({{reason}})</span>{{/reason}}</td><td dir="ltr">{{percent}}</td><td dir="ltr">{{letter}}</td></tr>{{/subjects}}</tbody></table></div>{{/noSubjects}}
            <p>{{gpaLabel}}: <strong dir="ltr">{{gpa}}</strong>{{#rank}} · {{rank}}{{/rank}}</p>
            </article>{{/cards}}
            """)
    }
}

/// The print view's stylesheet, served by the module (the console's pages allow stylesheets from
/// this site only, never inline ones). On paper: no menu, no skip link, no buttons or forms, no
/// hint, and each card on its own page.
enum GradesPrintStyle {
    static let path = "/api/v1/grades/print.css"

    static var route: APIRoute {
        APIRoute(.get, path, summary: "The stylesheet of the web console's report card print view", access: .everyone,
                 response: .text, contentType: "text/css; charset=utf-8") { _ in
            APIResponse(status: 200, body: Data(css.utf8), headers: ["Content-Type": "text/css; charset=utf-8", "Cache-Control": "public, max-age=300"])
        }
    }

    static let css = """
        .print-card table { inline-size: 100%; border-collapse: collapse; }
        .print-dates { white-space: nowrap; }
        .print-card th, .print-card td { text-align: start; padding-block: 0.25rem; padding-inline: 0.5rem; border-block-end: 1px solid var(--line, #c9d1db); }
        @media print {
          @page { margin: 1.5cm; }
          .skip, header.bar, nav, form, button, .button, .print-hide, .notice, .problem { display: none !important; }
          body { background: #fff; color: #000; }
          main { max-inline-size: none; margin: 0; padding: 0; }
          .print-card { border: none; border-radius: 0; padding: 0; margin: 0; break-after: page; page-break-after: always; break-inside: avoid; }
          .print-card:last-of-type { break-after: auto; page-break-after: auto; }
          .print-card .table-wrap { overflow: visible; }
          .print-card th, .print-card td { border: 1px solid #555; }
          a { color: inherit; text-decoration: none; }
        }
        """
}
