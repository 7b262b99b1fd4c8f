import Core
import Foundation

extension GradesModule: ConsoleModule {
    /// The grade distribution card on the dashboard of whoever enters grades.
    public var consoleCards: [ConsoleCard] { [GradesConsoleDashboard.distributionCard] }
}

/// The dashboard card (DASH-001, DASH-002): for each subject, how many marks of the latest term
/// fall at each letter of the school's scale, over the person's reach (`grades.distribution`).
/// One server-drawn SVG per subject, each with its table beneath.
enum GradesConsoleDashboard {
    static let distributionCard = ConsoleCard("distribution", title: Words.title, permission: GradesPermissions.enter) { console in
        let distribution = try await console.run(GradeDistribution.self, .init())
        guard let termName = distribution.termName, !distribution.subjects.isEmpty else { return ConsoleHTML.text(console.say(Words.nothing)) }
        let term = termName.text(in: console.language)
        let charts: [[String: Any]] = distribution.subjects.map { subject in
            let name = subject.name.text(in: console.language)
            let bars = zip(distribution.letters, subject.counts).map { letter, count in
                ConsoleChart.Bar(label: letter, value: Double(count), shown: String(count))
            }
            let id = "grades-distribution-" + subject.code.filter { $0.isLetter || $0.isNumber }
            return ["chart": ConsoleChart.bars(bars, title: console.say(Words.chart, ["subject": name, "term": term, "count": String(subject.total)]),
                                               language: console.language, id: id)]
        }
        return Templates.card.render(["term": console.say(Words.term, ["term": term]), "charts": charts])
    }

    enum Words {
        static let title = LocalizedText(ar: "توزيع الدرجات", en: "Grade distribution")
        static let nothing = LocalizedText(ar: "لا نتائج مُدخلة بعد.", en: "No results entered yet.")
        static let term = LocalizedText(ar: "عدد العلامات عند كل تقدير، لكل مادة، {term}.", en: "Marks at each letter, subject by subject, {term}.")
        static let chart = LocalizedText(ar: "{subject}: توزيع {count} علامة، {term}", en: "{subject}: {count} marks by letter, {term}")
    }

    enum Templates {
        static let card = ConsoleTemplate("""
            <p class="hint">{{term}}</p>{{#charts}}{{{chart}}}{{/charts}}
            """)
    }
}
