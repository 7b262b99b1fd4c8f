import Core
import Foundation
import Students

/// The week's timetable in the console: a student's own class, or one of a guardian's children
/// (chosen from the children `students.list` shows them). `timetable.view` decides whose grid a
/// person may see: another family's child is refused there, not here.
enum TimetableWeekConsole {
    static let week = ConsolePage("week", title: Words.title, permission: TimetablePermissions.read) { console in
        let family = [.student, .guardian].contains(console.principal.role)
            ? try await console.run(ListStudents.self, .init(pageSize: 20)).students : []
        let asked = console.query["student"].flatMap { $0.isEmpty ? nil : $0 }
        // A guardian with several children sees the first until they choose another.
        let gr = asked ?? (console.principal.role == .guardian ? family.first?.grNumber : nil)
        let target: TimetableTarget = gr.map(TimetableTarget.student) ?? .mine
        var values: [String: Any] = [
            "pick": console.principal.role == .guardian && family.count > 1,
            "children": family.map { ["gr": $0.grNumber, "name": $0.fullName, "selected": $0.grNumber == gr] as [String: Any] },
            "childLabel": console.say(Words.child), "show": console.say(Words.show), "action": console.pagePath("timetable", "week"),
        ]
        let view: TimetableView
        do {
            view = try await console.run(ViewTimetable.self, .init(target: target, date: console.query["date"], span: .week))
        } catch TimetableError.chooseTarget {
            values["none"] = console.say(Words.noGrid)
            return .page(title: console.say(Words.title), body: Templates.page.render(console.common.merging(values) { $1 }))
        }
        values["heading"] = view.title
        values["days"] = view.days.enumerated().map { index, day -> [String: Any] in
            var week = ""
            if case .week = day.week { week = console.say(Words.week, ["letter": day.week.description]) }
            return [
                "index": index, "hasLessons": !day.lessons.isEmpty, "name": console.localizer("timetable.day.\(day.weekday)"), "date": day.date.map { console.day($0) } ?? "", "week": week,
                "off": day.isSchoolDay ? "" : console.say(Words.noSchool),
                "lessons": day.lessons.sorted { $0.startsAt < $1.startsAt }.map { slot in
                    ["period": slot.periodCode, "time": "\(slot.startsAt)–\(slot.endsAt)", "subject": slot.subjectName.text(in: console.language),
                     "room": slot.room, "teacher": slot.teacherName] as [String: Any]
                },
            ]
        }
        values["labels"] = [
            "period": console.say(Words.period), "subject": console.say(Words.subject), "room": console.say(Words.room), "teacher": console.say(Words.teacher),
        ]
        values["empty"] = console.say(Words.noLessons)
        return .page(title: console.say(Words.title), body: Templates.page.render(console.common.merging(values) { $1 }))
    }

    enum Words {
        static let title = LocalizedText(ar: "جدول الأسبوع", en: "This week's timetable")
        static let child = LocalizedText(ar: "الابن أو الابنة", en: "Child")
        static let show = LocalizedText(ar: "عرض", en: "Show")
        static let noGrid = LocalizedText(ar: "لا جدول لك هنا. افتح جدول اليوم واختر فصلًا.", en: "You have no timetable of your own. Open today's timetable and choose a class.")
        static let week = LocalizedText(ar: "الأسبوع {letter}", en: "Week {letter}")
        static let noSchool = LocalizedText(ar: "لا دراسة", en: "No school")
        static let noLessons = LocalizedText(ar: "لا حصص.", en: "No lessons.")
        static let period = LocalizedText(ar: "الحصة", en: "Period")
        static let subject = LocalizedText(ar: "المادة", en: "Subject")
        static let room = LocalizedText(ar: "القاعة", en: "Room")
        static let teacher = LocalizedText(ar: "المعلّم", en: "Teacher")
    }

    enum Templates {
        static let page = ConsoleTemplate("""
            {{#pick}}<form method="get" action="{{action}}" class="panel actions">
            <p><label for="student">{{childLabel}}</label><select id="student" name="student">{{#children}}<option value="{{gr}}"{{#selected}} selected{{/selected}}>{{name}}</option>{{/children}}</select></p>
            <button type="submit">{{show}}</button></form>{{/pick}}
            {{#none}}<p>{{none}}</p>{{/none}}
            {{#heading}}<p class="lead"><bdi>{{heading}}</bdi></p>{{/heading}}
            {{#days}}<section class="panel" aria-labelledby="day-{{index}}"><h2 id="day-{{index}}">{{name}} · {{date}}{{#week}} · <strong class="week">{{week}}</strong>{{/week}}{{#off}} · {{off}}{{/off}}</h2>
            {{^hasLessons}}<p class="hint">{{empty}}</p>{{/hasLessons}}
            {{#hasLessons}}<div class="table-wrap" tabindex="0"><table><thead><tr><th scope="col">{{labels.period}}</th><th scope="col">{{labels.subject}}</th><th scope="col">{{labels.room}}</th><th scope="col">{{labels.teacher}}</th></tr></thead>
            <tbody>{{#lessons}}<tr><td dir="ltr">{{period}} {{time}}</td><td>{{subject}}</td><td>{{room}}</td><td>{{teacher}}</td></tr>{{/lessons}}</tbody></table></div>{{/hasLessons}}
            </section>{{/days}}
            """)
    }
}
