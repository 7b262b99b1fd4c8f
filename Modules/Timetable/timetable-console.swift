import Core
import Foundation
import Students

extension TimetableModule: ConsoleModule {
    /// Today's lessons with the cycle week, and a "now and next" card.
    public var consolePages: [ConsolePage] { [TimetableConsole.today, TimetableWeekConsole.week, TimetableBuilderConsole.page, TimetablePeriodsConsole.records.page] }
    public var consoleCards: [ConsoleCard] { [TimetableConsole.nowCard] }
}

/// The console's timetable: the person's own day (a teacher's teaching, a student's class, a
/// guardian's child), or a class's day for those who see the whole school. Each lesson of a
/// teacher links to its register where attendance is on (asked by module id and page, the
/// optional-collaborator contract: no import).
enum TimetableConsole {
    static let today = ConsolePage("today", title: Words.title, permission: TimetablePermissions.read) { console in
        let classCode = console.query["class"].flatMap { $0.isEmpty ? nil : $0 }
        // A guardian with several children sees the first until they choose another (as the week does).
        let family = console.principal.role == .guardian ? try await console.run(ListStudents.self, .init(pageSize: 20)).students : []
        let child = console.query["student"].flatMap { $0.isEmpty ? nil : $0 } ?? family.first?.grNumber
        let target: TimetableTarget = classCode.map(TimetableTarget.classCode) ?? child.map(TimetableTarget.student) ?? .mine
        do {
            let view = try await console.run(ViewTimetable.self, .init(target: target, date: console.query["date"], span: .day))
            let now = try? await console.run(NowAndNext.self, .init(target: target))
            let children: [String: Any] = [
                "pickChild": family.count > 1, "childLabel": console.say(TimetableWeekConsole.Words.child),
                "children": family.map { ["gr": $0.grNumber, "name": $0.fullName, "selected": $0.grNumber == child] as [String: Any] },
            ]
            return .page(title: console.say(Words.title), body: try await dayBody(view, now: now, classCode: classCode, children: children, console))
        } catch TimetableError.chooseTarget {
            return .page(title: console.say(Words.title), body: Templates.pick.render(console.common.merging(try await pickValues(console, classCode)) { $1 }))
        }
    }

    static let nowCard = ConsoleCard("now", title: Words.nowTitle, permission: TimetablePermissions.read) { console in
        guard [.teacher, .student, .guardian].contains(console.principal.role) else { return nil }
        let answer = try await console.run(NowAndNext.self, .init())
        return Templates.card.render([
            "now": answer.current.map { lessonLine($0, console) } ?? console.say(Words.noLessonNow),
            "next": answer.next.map { console.say(Words.nextAt, ["lesson": lessonLine($0, console), "date": console.day($0.date)]) } ?? "",
            "link": console.pagePath("timetable", "today"), "linkText": console.say(Words.openDay),
        ])
    }

    private static func dayBody(_ view: TimetableView, now: NowAndNext.Output?, classCode: String?, children: [String: Any],
                                _ console: ConsoleRequest) async throws -> ConsoleHTML {
        let day = view.days.first
        let canRegister = console.enabledModules.contains("attendance") && console.principal.role == .teacher
        let lessons: [[String: Any]] = (day?.lessons ?? []).sorted { $0.startsAt < $1.startsAt }.map { slot in
            let isNow = now?.current?.slot.id == slot.id && now?.current?.date == day?.date
            var row: [String: Any] = [
                "period": slot.periodCode, "time": "\(slot.startsAt)–\(slot.endsAt)", "class": slot.classCode,
                "subject": slot.subjectName.text(in: console.language), "room": slot.room, "teacher": slot.teacherName, "now": isNow,
                "nowLabel": console.say(Words.nowBadge),
            ]
            if canRegister, console.query["date"] == nil, !view.movedToNextSchoolDay {
                row["register"] = console.pagePath("attendance", "register", query: [("class", slot.classCode), ("period", slot.periodCode)])
                row["registerText"] = console.say(Words.takeRegister, ["class": slot.classCode, "period": slot.periodCode])
            }
            return row
        }
        let week = day.map { plan -> String in
            if case .week = plan.week { return console.say(Words.week, ["letter": plan.week.description]) }
            return console.say(Words.noSchool)
        } ?? ""
        return Templates.day.render(console.common.merging(try await pickValues(console, classCode)) { $1 }.merging(children) { $1 }.merging([
            "heading": view.title, "date": day?.date?.description ?? view.requested.description, "week": week,
            "moved": view.movedToNextSchoolDay ? console.say(Words.moved, ["date": console.day(view.requested)]) : "",
            "lessons": lessons, "none": lessons.isEmpty ? console.say(Words.noLessons) : "",
            "periodLabel": console.say(Words.period), "classLabel": console.say(Words.classWord), "subjectLabel": console.say(Words.subject),
            "roomLabel": console.say(Words.room), "teacherLabel": console.say(Words.teacher),
        ]) { $1 })
    }

    /// The school's classes to choose from, for those who see every class's day (not a student or a guardian).
    private static func pickValues(_ console: ConsoleRequest, _ classCode: String?) async throws -> [String: Any] {
        let canPick = console.principal.role != .student && console.principal.role != .guardian
        let classes = canPick ? try await console.run(ListClasses.self, .init()) : []
        return ["canPick": !classes.isEmpty, "pickLabel": console.say(Words.classCode), "show": console.say(Words.show),
                "pickHint": console.say(Words.pickHint), "action": console.pagePath("timetable", "today"),
                "pickClasses": [["value": "", "label": console.say(Words.ownDay), "selected": classCode == nil]]
                    + classes.map { ["value": $0.code, "label": $0.label(in: console.language), "selected": $0.code == classCode] }]
    }

    private static func lessonLine(_ lesson: NowAndNext.Lesson, _ console: ConsoleRequest) -> String {
        console.say(Words.lessonLine, [
            "class": lesson.slot.classCode, "subject": lesson.slot.subjectName.text(in: console.language), "period": lesson.slot.periodCode,
            "from": lesson.slot.startsAt, "to": lesson.slot.endsAt, "week": lesson.week.description,
        ])
    }

    enum Words {
        static let title = LocalizedText(ar: "جدول اليوم", en: "Today's timetable")
        static let nowTitle = LocalizedText(ar: "الآن والتالي", en: "Now and next")
        static let noLessonNow = LocalizedText(ar: "لا حصة الآن.", en: "No lesson right now.")
        static let nextAt = LocalizedText(ar: "التالي: {lesson}، يوم {date}", en: "Next: {lesson}, on {date}")
        static let openDay = LocalizedText(ar: "جدول اليوم", en: "Today's timetable")
        static let nowBadge = LocalizedText(ar: "الآن", en: "now")
        static let takeRegister = LocalizedText(ar: "تحضير {class} ({period})", en: "Take the register for {class} ({period})")
        static let week = LocalizedText(ar: "الأسبوع {letter}", en: "Week {letter}")
        static let noSchool = LocalizedText(ar: "لا دراسة", en: "No school")
        static let moved = LocalizedText(ar: "{date} يوم عطلة: هذا يوم الدراسة التالي.", en: "{date} is a day off: this is the next school day.")
        static let noLessons = LocalizedText(ar: "لا حصص في هذا اليوم.", en: "No lessons on this day.")
        static let period = LocalizedText(ar: "الحصة", en: "Period")
        static let classWord = LocalizedText(ar: "الفصل", en: "Class")
        static let subject = LocalizedText(ar: "المادة", en: "Subject")
        static let room = LocalizedText(ar: "القاعة", en: "Room")
        static let teacher = LocalizedText(ar: "المعلّم", en: "Teacher")
        static let classCode = LocalizedText(ar: "الفصل", en: "Class")
        static let ownDay = LocalizedText(ar: "يومي أنا", en: "My own day")
        static let show = LocalizedText(ar: "عرض", en: "Show")
        static let pickHint = LocalizedText(ar: "اختر فصلًا لعرض جدول يومه.", en: "Choose a class to see its day.")
        static let lessonLine = LocalizedText(ar: "{class} · {subject} · {period} ({from}–{to}) · الأسبوع {week}",
                                              en: "{class} · {subject} · {period} ({from}–{to}) · Week {week}")
    }

    enum Templates {
        static let pick = ConsoleTemplate("""
            {{#canPick}}<form method="get" action="{{action}}" class="panel actions">
            <p><label for="class">{{pickLabel}}</label><select id="class" name="class">{{#pickClasses}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/pickClasses}}</select></p>
            <button type="submit">{{show}}</button></form><p class="hint">{{pickHint}}</p>{{/canPick}}
            """)
        static let day = ConsoleTemplate("""
            {{#pickChild}}<form method="get" action="{{action}}" class="panel actions">
            <p><label for="student">{{childLabel}}</label><select id="student" name="student">{{#children}}<option value="{{gr}}"{{#selected}} selected{{/selected}}>{{name}}</option>{{/children}}</select></p>
            <button type="submit">{{show}}</button></form>{{/pickChild}}
            {{#canPick}}<form method="get" action="{{action}}" class="panel actions">
            <p><label for="class">{{pickLabel}}</label><select id="class" name="class">{{#pickClasses}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/pickClasses}}</select></p>
            <button type="submit">{{show}}</button></form>{{/canPick}}
            <section class="panel" aria-labelledby="day-title">
            <h2 id="day-title">{{heading}} · <span dir="ltr">{{date}}</span> · <strong class="week">{{week}}</strong></h2>
            {{#moved}}<p class="hint">{{moved}}</p>{{/moved}}
            {{#none}}<p>{{none}}</p>{{/none}}
            {{^none}}<div class="table-wrap" tabindex="0"><table><thead><tr><th scope="col">{{periodLabel}}</th><th scope="col">{{classLabel}}</th><th scope="col">{{subjectLabel}}</th><th scope="col">{{roomLabel}}</th><th scope="col">{{teacherLabel}}</th><th scope="col"></th></tr></thead>
            <tbody>{{#lessons}}<tr{{#now}} class="now"{{/now}}><td><span dir="ltr">{{period}} {{time}}</span>{{#now}} <strong>({{nowLabel}})</strong>{{/now}}</td><td>{{class}}</td><td>{{subject}}</td><td>{{room}}</td><td>{{teacher}}</td>
            <td>{{#register}}<a class="button" href="{{register}}">{{registerText}}</a>{{/register}}</td></tr>{{/lessons}}</tbody></table></div>{{/none}}
            </section>
            """)
        static let card = ConsoleTemplate("""
            <p>{{now}}</p>{{#next}}<p class="hint">{{next}}</p>{{/next}}<p><a href="{{link}}">{{linkText}}</a></p>
            """)
    }
}
