import Core
import Foundation

/// The builder's grid and its placement form.
extension TimetableBuilderConsole {
    static func grid(_ console: ConsoleRequest, classCode: String, placing: Placing?, typed: [String: String] = [:],
                     problem: Problem? = nil, notice: String = "") async throws -> ConsoleResponse {
        let plan = try await console.run(ShowTimetableBuilder.self, .init(classCode: classCode, day: placing?.day, periodCode: placing?.period))
        let weeks = plan.cycleLength > 1 ? Array(0..<plan.cycleLength) : [-1]
        let rows: [[String: Any]] = plan.periods.map { period in
            let times = "\(period.startsAt)–\(period.endsAt)"
            guard !period.isBreak else {
                return ["name": period.name.text(in: console.language), "times": times, "isBreak": true,
                        "breakText": console.say(Words.breakTime), "span": plan.workingDays.count]
            }
            return ["name": period.name.text(in: console.language), "times": times, "isBreak": false,
                    "cells": plan.workingDays.map { day in cell(plan, day: day, period: period, weeks: weeks, console) }]
        }
        let form = placing.flatMap { placing in
            plan.periods.first { $0.code == placing.period && !$0.isBreak }.map { placeForm(plan, placing, period: $0, typed: typed, problem: problem, console) }
        }
        return .page(title: console.say(Words.classTitle, ["class": classCode]), body: Templates.grid.render(console.common.merging([
            "notice": notice, "problem": form == nil ? problem?.text ?? "" : "", "intro": console.say(Words.gridIntro),
            "other": console.pagePath("timetable", "builder"), "otherText": console.say(Words.otherClass),
            "periodLabel": console.say(Words.period), "days": plan.workingDays.map { ["name": console.localizer("timetable.day.\($0)")] },
            "rows": rows, "gridLabel": console.say(Words.classTitle, ["class": classCode]), "form": form ?? ConsoleHTML.text(""),
            "empty": plan.periods.isEmpty ? console.say(Words.noPeriods) : "",
            "periods": console.pagePath("timetable", "periods"), "periodsText": console.say(Words.periodsLink),
        ]) { $1 }))
    }

    static func weekName(_ week: Int, _ console: ConsoleRequest) -> String {
        week < 0 ? console.say(Words.everyWeek) : console.localizer("timetable.week-letter", ["letter": CycleWeek.letter(week)])
    }

    /// One day of one period: a lesson held every week once; else each week of the cycle with
    /// its lesson (and a button to take it out) or a link to place one.
    static func cell(_ plan: ShowTimetableBuilder.Output, day: Int, period: Period, weeks: [Int], _ console: ConsoleRequest) -> [String: Any] {
        let here = plan.lessons.filter { $0.day == day && $0.periodCode == period.code }
        let dayName = console.localizer("timetable.day.\(day)")
        func entry(_ week: Int, _ lesson: Slot?) -> [String: Any] {
            let name = weekName(week, console)
            guard let lesson else {
                return ["week": name, "showWeek": weeks.count > 1 || week < 0, "place": console.pagePath("timetable", "builder", query: [
                    ("class", plan.classCode), ("day", String(day)), ("period", period.code), ("week", String(week)),
                ]) + "#place", "placeText": console.say(Words.place), "placeLabel": console.say(Words.placeIn, ["day": dayName, "period": period.code, "week": name])]
            }
            return ["week": name, "showWeek": weeks.count > 1 || week < 0, "lesson": true, "subject": lesson.subjectName.text(in: console.language),
                    "teacher": lesson.teacherName, "room": lesson.room, "slot": lesson.id, "classCode": plan.classCode,
                    "removeText": console.say(Words.remove),
                    "removeLabel": console.say(Words.removeLabel, ["subject": lesson.subjectCode, "day": dayName, "period": period.code, "week": name])]
        }
        if let everyWeek = here.first(where: { $0.week < 0 }) { return ["entries": [entry(-1, everyWeek)]] }
        return ["entries": weeks.map { week in entry(week, here.first { $0.week == week }) }]
    }

    /// The form that places a lesson in the chosen cell; teachers and rooms busy then are named.
    static func placeForm(_ plan: ShowTimetableBuilder.Output, _ placing: Placing, period: Period, typed: [String: String], problem: Problem?,
                          _ console: ConsoleRequest) -> ConsoleHTML {
        let overlapping = plan.busy.filter { $0.week < 0 || placing.week < 0 || $0.week == placing.week }
        let choices: [[String: Any]] = plan.teaching.map { teaching in
            let value = "\(teaching.subjectCode)|\(teaching.teacherEmail)"
            let busyWith = overlapping.first { $0.teacherEmail == teaching.teacherEmail }
            let label = "\(teaching.subjectName.text(in: console.language)) · \(teaching.teacherName)"
                + (busyWith.map { " — " + console.say(Words.busyWith, ["class": $0.classCode]) } ?? "")
            return ["value": value, "label": label, "selected": typed["teaching"] == value]
        }
        let rooms = Set(overlapping.map(\.room)).sorted()
        let fields = [
            ConsoleFormField.make(id: "place-teaching", name: "teaching", label: console.say(Words.teaching), value: typed["teaching"] ?? "", required: true,
                                  problem: problem?.field == "teaching" ? problem?.text ?? "" : "", choices: choices),
            ConsoleFormField.make(id: "place-room", name: "room", label: console.say(Words.room), value: typed["room"] ?? "", required: true,
                                  hint: rooms.isEmpty ? "" : console.say(Words.roomsBusy, ["rooms": "\u{2066}\(rooms.joined(separator: ", "))\u{2069}"]),
                                  problem: problem?.field == "room" ? problem?.text ?? "" : ""),
        ] + (plan.cycleLength > 1 && placing.week >= 0 ? [
            ConsoleFormField.make(id: "place-every-week", name: "every_week", label: console.say(Words.everyWeekBox), value: typed["every_week"] ?? "",
                                  control: .checkbox),
        ] : [])
        let dayName = console.localizer("timetable.day.\(placing.day)")
        return Templates.place.render(console.common.merging([
            "action": console.pagePath("timetable", "builder"), "class": plan.classCode, "day": String(placing.day), "period": placing.period,
            "week": String(placing.week),
            "heading": console.say(Words.placeHeading, ["day": dayName, "period": period.name.text(in: console.language),
                                                        "times": "\u{2066}\(period.startsAt)–\(period.endsAt)\u{2069}", "week": weekName(placing.week, console)]),
            "summary": problem.map { $0.field.isEmpty ? $0.text : console.say(Words.notPlaced) } ?? "",
            "fields": fields, "submit": console.say(Words.placeSubmit), "noTeaching": plan.teaching.isEmpty ? console.say(Words.noTeaching) : "",
            "cancel": console.pagePath("timetable", "builder", query: [("class", plan.classCode)]), "cancelText": console.say(Words.cancel),
        ]) { $1 })
    }
}
