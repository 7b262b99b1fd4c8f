import Core

/// Turns timetable views into text tables: periods down, school days across.
enum TimetableRender {
    static func dayName(_ weekday: Int) -> String { L("timetable.day.\(weekday)") }

    static func weekName(_ week: CycleWeek) -> String {
        switch week {
        case .week: L("timetable.week-letter", ["letter": week.description])
        case .noSchool: L("timetable.no-school")
        }
    }

    static func cell(_ slot: Slot, showWeek: Bool) -> String {
        (showWeek && slot.week >= 0 ? "\(WeekSpec.name(slot.week)): " : "") + "\(slot.subjectCode) \(slot.classCode) \(slot.room)"
    }

    static func grid(_ view: TimetableView) -> TextTable {
        let showWeek = view.span == .fortnight
        let headers = [L("timetable.heading.period")] + view.days.map { day in
            guard let date = day.date else { return dayName(day.weekday) }
            return "\(dayName(day.weekday)) \(date) \(day.isSchoolDay ? weekName(day.week) : L("timetable.no-school"))"
        }
        let rows = view.periods.map { period in
            ["\(period.code) \(period.startsAt)-\(period.endsAt)"] + view.days.map { day in
                if period.isBreak { return L("timetable.break") }
                let lessons = day.lessons.filter { $0.periodCode == period.code }
                return lessons.isEmpty ? "-" : lessons.map { cell($0, showWeek: showWeek) }.joined(separator: " | ")
            }
        }
        var table = TextTable(headers: headers, rows: rows)
        table.footer = view.title + (view.movedToNextSchoolDay ? " " + L("timetable.moved-to-next-day", ["date": view.requested.description]) : "")
        return table
    }

    /// One day as a list in order, with times.
    static func day(_ view: TimetableView) -> TextTable {
        guard let day = view.days.first else { return TextTable(lines: []) }
        var table = TextTable(
            headers: [L("timetable.heading.time"), L("timetable.heading.subject"), L("timetable.heading.class"), L("timetable.heading.teacher"), L("timetable.heading.room")],
            rows: day.lessons.sorted { $0.startsAt < $1.startsAt }.map {
                ["\($0.startsAt)-\($0.endsAt)", $0.subjectName.text(in: CommandEnvironment.current.localizer.language), $0.classCode, $0.teacherName, $0.room]
            })
        let heading = "\(view.title): \(dayName(day.weekday)) \(day.date?.description ?? "") \(weekName(day.week))"
        table.footer = heading + (view.movedToNextSchoolDay ? " " + L("timetable.moved-to-next-day", ["date": view.requested.description]) : "")
        return table
    }
}
