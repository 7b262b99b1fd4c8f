import Core
import Foundation
import Students

extension GradesModule {
    /// Published report cards for students and guardians; grade entry for teachers; the term page
    /// (preview and publish) for whoever may publish; the print view, reached by links; the
    /// assessments a teacher sets.
    public var consolePages: [ConsolePage] {
        [GradesConsole.reportCard, GradesEntryConsole.entry, GradesAssessmentsConsole.records.page, GradesPublishConsole.page, GradesPrintConsole.page]
    }
}

/// A student's published report cards, or each of a guardian's children's, term by term. The
/// action shows students and guardians only what is published: the page adds no rule.
enum GradesConsole {
    static let reportCard = ConsolePage("report-card", title: Words.title, permission: GradesPermissions.read) { console in
        let terms = try await console.run(ListTerms.self, .init()).sorted { $0.startsOn < $1.startsOn }
        let chosen = terms.first { $0.id == console.query["term"] } ?? terms.first
        guard let term = chosen else { return .page(title: console.say(Words.title), body: .text(console.say(Words.noTerms))) }
        let students = [.student, .guardian].contains(console.principal.role)
            ? try await console.run(ListStudents.self, .init(pageSize: 20)).students : []
        var cards: [[String: Any]] = []
        for student in students {
            do {
                let card = try await console.run(ReportCard.self, .init(grNumber: student.grNumber, term: term.id))
                cards.append(values(card, console).merging([
                    "print": console.pagePath("grades", "print", query: [("term", term.id), ("student", card.grNumber)]),
                    "printText": console.say(Words.print, ["name": card.studentName]),
                ]) { $1 })
            } catch {
                cards.append(["name": student.fullName, "problem": console.message(for: error)])
            }
        }
        return .page(title: console.say(Words.title), body: Templates.page.render(console.common.merging([
            "terms": terms.map { ["id": $0.id, "name": $0.name.text(in: console.language), "selected": $0.id == term.id] },
            "termLabel": console.say(Words.term), "show": console.say(Words.show), "action": console.pagePath("grades", "report-card"),
            "cards": cards, "none": cards.isEmpty ? console.say(Words.noCards) : "",
        ]) { $1 }))
    }

    private static func values(_ card: ReportCard.Output, _ console: ConsoleRequest) -> [String: Any] {
        [
            "id": card.grNumber, "name": card.studentName, "class": card.classCode, "term": card.term.text(in: console.language),
            "draft": card.published ? "" : console.say(Words.draft),
            "gpa": card.record.gpa.map { String(format: "%.2f", $0) } ?? "-",
            "rank": card.rank.map { console.say(Words.rank, ["rank": String($0), "size": String(card.classSize)]) } ?? "",
            "subjects": card.record.subjects.map { mark in
                ["name": mark.subjectName.text(in: console.language), "letter": mark.letter ?? "-",
                 "percent": mark.percentage.map { String(format: "%.1f%%", $0) } ?? "-", "reason": mark.overrideReason ?? ""]
            },
            "subjectLabel": console.say(Words.subject), "percentLabel": console.say(Words.percent), "letterLabel": console.say(Words.letter),
            "gpaLabel": console.say(Words.gpa),
        ]
    }

    enum Words {
        static let title = LocalizedText(ar: "الشهادات", en: "Report cards")
        static let term = LocalizedText(ar: "الفصل الدراسي", en: "Term")
        static let show = LocalizedText(ar: "عرض", en: "Show")
        static let noTerms = LocalizedText(ar: "لا فصول دراسية بعد.", en: "No terms yet.")
        static let noCards = LocalizedText(ar: "لا شهادات لعرضها.", en: "No report cards to show.")
        static let draft = LocalizedText(ar: "مسودة: لم تُنشر بعد.", en: "Draft: not published yet.")
        static let rank = LocalizedText(ar: "الترتيب {rank} من {size}", en: "Rank {rank} of {size}")
        static let subject = LocalizedText(ar: "المادة", en: "Subject")
        static let percent = LocalizedText(ar: "النسبة", en: "Percentage")
        static let letter = LocalizedText(ar: "التقدير", en: "Grade")
        static let gpa = LocalizedText(ar: "المعدل", en: "GPA")
        static let print = LocalizedText(ar: "عرض شهادة {name} للطباعة", en: "Print view of {name}'s report card")
    }

    enum Templates {
        static let page = ConsoleTemplate("""
            <form method="get" action="{{action}}" class="panel actions">
            <p><label for="term">{{termLabel}}</label><select id="term" name="term">{{#terms}}<option value="{{id}}"{{#selected}} selected{{/selected}}>{{name}}</option>{{/terms}}</select></p>
            <button type="submit">{{show}}</button></form>
            {{#none}}<p>{{none}}</p>{{/none}}
            {{#cards}}<section class="panel" aria-labelledby="card-{{id}}-title"><h2 id="card-{{id}}-title"><bdi>{{name}}</bdi> · <bdi dir="ltr">{{class}}</bdi> · <bdi>{{term}}</bdi></h2>
            {{#problem}}<p class="problem">{{problem}}</p>{{/problem}}
            {{#draft}}<p class="hint">{{draft}}</p>{{/draft}}
            {{^problem}}<table><thead><tr><th scope="col">{{subjectLabel}}</th><th scope="col">{{percentLabel}}</th><th scope="col">{{letterLabel}}</th></tr></thead>
            <tbody>{{#subjects}}<tr><td>{{name}}{{#reason}} <span class="hint">({{reason}})</span>{{/reason}}</td><td dir="ltr">{{percent}}</td><td dir="ltr">{{letter}}</td></tr>{{/subjects}}</tbody></table>
            <p>{{gpaLabel}}: <strong dir="ltr">{{gpa}}</strong>{{#rank}} · {{rank}}{{/rank}}</p>
            <p><a href="{{print}}" class="print-link">{{printText}}</a></p>{{/problem}}
            </section>{{/cards}}
            """)
    }
}
