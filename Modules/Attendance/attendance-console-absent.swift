import Core
import Foundation

/// Staff's dashboard card: who is absent today across the school, class by class, from today's
/// registers (`attendance.stats` for today, the permission staff hold for the whole school). The
/// front office rings these families; teachers and admins have their registers and charts, so
/// the card is staff's alone.
enum AttendanceConsoleAbsent {
    /// How many names the card lists before "and N more", so it stays short on a phone.
    static let shown = 12

    static let card = ConsoleCard("absent", title: Words.title, permission: AttendancePermissions.stats) { console in
        guard console.principal.role == .staff else { return nil }
        let today = try await console.run(AttendanceToday.self, .init()).date
        let stats = try await console.run(AttendanceStats.self, .init(from: today.description, to: today.description))
        let absent = stats.students.filter { $0.totals.absent > 0 }.sorted { ($0.classCode, $0.name, $0.grNumber) < ($1.classCode, $1.name, $1.grNumber) }
        let late = stats.students.filter { $0.totals.late > 0 && $0.totals.absent == 0 }.count
        guard stats.school.totals.counted > 0 else { return ConsoleHTML.text(console.say(Words.noRegisters, ["date": console.day(today)])) }
        let rows: [[String: Any]] = absent.prefix(shown).map { line in
            ["name": line.name, "class": line.classCode, "gr": line.grNumber,
             "periods": console.say(Words.periods, ["count": String(line.totals.absent)])]
        }
        return Templates.card.render([
            "summary": console.say(Words.summary, ["date": console.day(today), "absent": String(absent.count), "late": String(late)]),
            "rows": rows, "any": !rows.isEmpty, "none": console.say(Words.none),
            "more": absent.count > shown ? console.say(Words.more, ["count": String(absent.count - shown)]) : "",
        ])
    }

    enum Words {
        static let title = LocalizedText(ar: "الغائبون اليوم", en: "Absent today")
        static let summary = LocalizedText(ar: "سجلات يوم {date}: {absent} غائبًا و{late} متأخرًا.",
                                           en: "Registers of {date}: {absent} absent, {late} late.")
        static let noRegisters = LocalizedText(ar: "لم يُسجَّل حضور يوم {date} بعد.", en: "No register taken on {date} yet.")
        static let none = LocalizedText(ar: "لا غياب اليوم.", en: "Nobody is absent today.")
        static let periods = LocalizedText(ar: "(حصص الغياب: {count})", en: "({count} periods missed)")
        static let more = LocalizedText(ar: "و{count} غيرهم.", en: "And {count} more.")
    }

    enum Templates {
        static let card = ConsoleTemplate("""
            <p class="hint">{{summary}}</p>
            {{#any}}<ul id="attendance-absent">{{#rows}}<li><bdi>{{name}}</bdi> · <bdi dir="ltr">{{class}}</bdi> <span class="hint">{{periods}}</span></li>{{/rows}}</ul>{{/any}}
            {{^any}}<p>{{none}}</p>{{/any}}
            {{#more}}<p class="hint">{{more}}</p>{{/more}}
            """)
    }
}
