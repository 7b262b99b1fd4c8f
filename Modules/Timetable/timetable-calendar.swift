import Core
import Foundation
import Students

/// Reads a school's cycle calendar (settings, the roster's terms, closures and overrides) once
/// per action; every date question after that is answered from memory.
public enum SchoolCalendar {
    public static func load(_ context: ActionContext) throws -> CycleCalendar {
        let terms = try context.database.fetchAll("SELECT starts_on, ends_on FROM students_v1_terms WHERE school_id = :school_id ORDER BY starts_on")
            .compactMap(span)
        let closures = try context.database.fetchAll("SELECT starts_on, ends_on FROM timetable_closures WHERE school_id = :school_id").compactMap(span)
        let overrides = try context.database.fetchAll("SELECT week_start, week, kind FROM timetable_overrides WHERE school_id = :school_id")
            .compactMap { row -> CycleOverride? in
                guard let week = CivilDate(row.string("week_start")), let kind = CycleOverride.Kind(rawValue: row.string("kind")) else { return nil }
                return CycleOverride(week: week, index: row.int("week"), kind: kind)
            }
        return CycleCalendar(
            cycleLength: try context.setting(TimetableSettings.cycleLength),
            workingDays: TimetableSettings.parseDays(try context.setting(TimetableSettings.workingDays)) ?? [0, 1, 2, 3, 4],
            mode: AdvanceMode(rawValue: try context.setting(TimetableSettings.advanceMode)) ?? .calendarWeeks,
            termReset: try context.setting(TimetableSettings.termReset),
            anchor: CivilDate(try context.setting(TimetableSettings.anchorDate)),
            terms: terms, closures: closures, overrides: overrides)
    }

    /// The time of day now in the school's time zone, `HH:MM`.
    public static func timeOfDay(_ context: ActionContext) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = context.timeZone
        let parts = calendar.dateComponents([.hour, .minute], from: context.now)
        return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }

    private static func span(_ row: SQLRow) -> DateSpan? {
        guard let start = CivilDate(row.string("starts_on")), let end = CivilDate(row.string("ends_on")) else { return nil }
        return DateSpan(start, end)
    }
}
