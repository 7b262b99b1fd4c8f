import Core
import Foundation
import Students

/// The attendance dashboard card (DASH-001..003): the rate week by week over the current term
/// and the rate of each class, for whoever may read attendance statistics, over their own
/// reach (the whole school for staff, a teacher's classes). Both charts are server-drawn SVG
/// with a table beneath; the figures are `attendance.stats`'s, the term is Students'.
enum AttendanceConsoleDashboard {
    static let termCard = ConsoleCard("term", title: Words.title, permission: AttendancePermissions.stats) { console in
        let today = try await console.run(AttendanceToday.self, .init()).date
        let terms = (try? await console.run(ListTerms.self, .init())) ?? []
        // The term under way, else the last one begun; with no term at all, the last twelve weeks.
        let term = terms.last { CivilDate($0.startsOn).map { $0 <= today } ?? false && CivilDate($0.endsOn).map { $0 >= today } ?? false }
            ?? terms.last { CivilDate($0.startsOn).map { $0 <= today } ?? false }
        let from = term.flatMap { CivilDate($0.startsOn) } ?? today.adding(days: -83)
        let to = min(today, term.flatMap { CivilDate($0.endsOn) } ?? today)
        let stats = try await console.run(AttendanceStats.self, .init(from: from.description, to: to.description))
        guard stats.school.totals.counted > 0 else { return ConsoleHTML.text(console.say(Words.nothing)) }
        let weeks = weekly(stats.days).map { week in
            ConsoleChart.Bar(label: console.say(Words.week, ["date": ConsoleDates.short(week.start, language: console.language)]), value: week.totals.rate ?? 0,
                             shown: week.totals.rate.map { PercentText.text($0, band: RiskBand.init(rate:)) } ?? "-")
        }
        let classes = stats.classes.map { line in
            ConsoleChart.Bar(label: line.key, value: line.rate ?? 0, shown: line.rate.map { PercentText.text($0, band: RiskBand.init(rate:)) } ?? "-")
        }
        let period = term.map { $0.name.text(in: console.language) } ?? console.say(Words.recent)
        return Templates.card.render([
            "period": console.say(Words.period, ["term": period, "range": ConsoleDates.range(from, to)]),
            "rate": stats.school.rate.map { PercentText.text($0, band: RiskBand.init(rate:)) } ?? "-", "rateLabel": console.say(Words.rate),
            "trend": ConsoleChart.bars(weeks, title: console.say(Words.trend, ["term": period]), maximum: 100, language: console.language, id: "attendance-trend"),
            "byClass": ConsoleChart.bars(classes, title: console.say(Words.byClass, ["term": period]), maximum: 100, language: console.language, id: "attendance-classes"),
        ])
    }

    /// The days' totals added up week by week (weeks start on Sunday, as a Sudanese school's does).
    static func weekly(_ days: [AttendanceStats.GroupLine]) -> [(start: CivilDate, totals: AttendanceTotals)] {
        var weeks: [CivilDate: AttendanceTotals] = [:]
        for day in days {
            guard let date = CivilDate(day.key) else { continue }
            let start = date.adding(days: -date.weekday)
            var week = weeks[start] ?? AttendanceTotals()
            for (status, count) in [(AttendanceStatus.present, day.totals.present), (.late, day.totals.late), (.absent, day.totals.absent),
                                    (.excused, day.totals.excused), (.sick, day.totals.sick), (.holiday, day.totals.holiday)] {
                week.add(status, count: count)
            }
            weeks[start] = week
        }
        return weeks.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    enum Words {
        static let title = LocalizedText(ar: "الحضور خلال الفصل", en: "Attendance this term")
        static let nothing = LocalizedText(ar: "لا سجلات حضور في هذا الفصل بعد.", en: "No attendance recorded this term yet.")
        static let period = LocalizedText(ar: "{term}: {range}", en: "{term}: {range}")
        static let recent = LocalizedText(ar: "آخر اثني عشر أسبوعًا", en: "The last twelve weeks")
        static let rate = LocalizedText(ar: "نسبة الحضور في الفصل", en: "Attendance rate this term")
        static let week = LocalizedText(ar: "أسبوع {date}", en: "Week of {date}")
        static let trend = LocalizedText(ar: "نسبة الحضور أسبوعًا بأسبوع، {term}", en: "Attendance rate week by week, {term}")
        static let byClass = LocalizedText(ar: "نسبة الحضور لكل فصل، {term}", en: "Attendance rate by class, {term}")
    }

    enum Templates {
        static let card = ConsoleTemplate("""
            <p class="hint">{{period}}</p><p class="big" dir="ltr">{{rate}}</p><p class="hint">{{rateLabel}}</p>{{{trend}}}{{{byClass}}}
            """)
    }
}
