import Core
import Foundation
import Students

/// The timetable builder, for those who manage the timetable: a class's week as a grid (periods
/// down, school days across, each week of the cycle side by side in a day), a lesson placed in
/// an empty cell by picking its subject and teacher and a room (`timetable.create-slot`, whose
/// clash with a busy teacher, room or class is said beside the field it concerns, nothing
/// saved), and a lesson taken out (`timetable.delete-slot`). Before a placement is tried, the
/// form marks the teachers and rooms already busy at that time (`timetable.builder`).
enum TimetableBuilderConsole {
    static let page = ConsolePage("builder", title: Words.title, permission: TimetablePermissions.manage) { console in
        let classCode = String(((console.isPost ? console.form.value("class") : console.query["class"]) ?? "").prefix(TextLimit.code))
        guard !classCode.isEmpty else { return try await picker(console) }
        guard console.isPost else {
            return try await grid(console, classCode: classCode, placing: Placing(console.query), notice: notice(console.query["done"], console))
        }
        if console.form.value("do") == "remove" {
            do {
                _ = try await console.run(DeleteSlot.self, .init(slot: console.form.value("slot") ?? ""))
                return .redirect(console.pagePath("timetable", "builder", query: [("class", classCode), ("done", "removed")]))
            } catch let error where !(error is CancellationError) {
                return try await grid(console, classCode: classCode, placing: nil, problem: Problem(field: "", text: console.message(for: error)))
            }
        }
        let placing = Placing(console.form)
        guard let placing else { return try await grid(console, classCode: classCode, placing: nil) }
        let (subject, teacher) = split(console.form.value("teaching") ?? "")
        let everyWeek = console.form.value("every_week") == "on"
        let room = String((console.form.value("room") ?? "").prefix(TextLimit.name))
        do {
            _ = try await console.run(CreateSlot.self, SlotPlacement(day: placing.day, periodCode: placing.period, week: everyWeek ? -1 : placing.week,
                                                                      classCode: classCode, subjectCode: subject, teacherEmail: teacher, room: room))
            return .redirect(console.pagePath("timetable", "builder", query: [("class", classCode), ("done", "placed")]))
        } catch let error where !(error is CancellationError) {
            let typed = ["teaching": console.form.value("teaching") ?? "", "room": room, "every_week": everyWeek ? "on" : ""]
            return try await grid(console, classCode: classCode, placing: placing, typed: typed, problem: Problem(error, console))
        }
    }

    /// The cell a lesson is being placed in: a day, a period and a week of the cycle (-1: every week).
    struct Placing {
        let day: Int
        let period: String
        let week: Int

        init?(_ values: [String: String]) {
            guard let day = values["day"].flatMap(Int.init), (0...6).contains(day), let period = values["period"], !period.isEmpty,
                  let week = values["week"].flatMap(Int.init), (-1...3).contains(week) else { return nil }
            (self.day, self.period, self.week) = (day, String(period.prefix(TextLimit.code)), week)
        }

        init?(_ form: ConsoleForm) {
            self.init(["day": form.value("day") ?? "", "period": form.value("period") ?? "", "week": form.value("week") ?? ""])
        }
    }

    /// A refusal, and the field it belongs beside (`""`: above the form).
    struct Problem {
        let field: String
        let text: String

        init(field: String, text: String) {
            (self.field, self.text) = (field, text)
        }

        /// A busy teacher goes beside the teaching, a busy or missing room beside the room.
        init(_ error: any Error, _ console: ConsoleRequest) {
            let key = (error as? any HogwartsError)?.messageKey ?? ""
            let field = switch key {
            case "timetable.error.clash.teacher", "timetable.error.unknown-teacher", "timetable.error.unknown-subject": "teaching"
            case "timetable.error.clash.room", "timetable.error.room-required": "room"
            default: ""
            }
            self.init(field: field, text: console.message(for: error))
        }
    }

    /// `MATH|teacher@school.org` → the subject's code and the teacher's email.
    static func split(_ teaching: String) -> (String, String) {
        let parts = teaching.split(separator: "|", maxSplits: 1).map(String.init)
        return (parts.first ?? "", parts.count > 1 ? parts[1] : "")
    }

    static func notice(_ done: String?, _ console: ConsoleRequest) -> String {
        switch done {
        case "placed": console.say(Words.placed)
        case "removed": console.say(Words.removed)
        default: ""
        }
    }

    /// No class chosen yet: the school's classes to choose from.
    static func picker(_ console: ConsoleRequest) async throws -> ConsoleResponse {
        let classes = try await console.run(ListClasses.self, .init())
        return .page(title: console.say(Words.title), body: Templates.picker.render(console.common.merging([
            "intro": console.say(Words.intro), "action": console.pagePath("timetable", "builder"), "classLabel": console.say(Words.schoolClass),
            "classes": classes.map { ["value": $0.code, "label": $0.label(in: console.language)] },
            "show": console.say(Words.open), "none": classes.isEmpty ? console.say(Words.noClasses) : "",
        ]) { $1 }))
    }
}
