import Core

/// The cycle's per-school settings. Working days are weekday numbers, 0 = Sunday ... 6 = Saturday.
public enum TimetableSettings {
    /// Where Week A begins; empty means the start of the first term.
    public static let anchorDate = Setting<String>("timetable", "anchor-date", default: "", expected: "YYYY-MM-DD", kind: .date) {
        $0.isEmpty || CivilDate($0) != nil
    }
    public static let advanceMode = Setting<String>.choice(
        "timetable", "advance-mode", default: AdvanceMode.calendarWeeks.rawValue, from: AdvanceMode.allCases.map(\.rawValue))
    public static let termReset = Setting<Bool>.flag("timetable", "term-reset", default: false)
    /// 1 = the same week every week; 2 = Week A/B; longer cycles work the same way.
    public static let cycleLength = Setting<Int>.integer("timetable", "cycle-length", default: 2, in: 1...4, unit: .weeks)
    public static let workingDays = Setting<String>("timetable", "working-days", default: "0,1,2,3,4", expected: "0-6,...", kind: .weekdays) {
        parseDays($0) != nil
    }

    static var definitions: [SettingDefinition] {
        [anchorDate.definition, advanceMode.definition, termReset.definition, cycleLength.definition, workingDays.definition]
    }

    /// `0,1,2,3,4` -> {0,1,2,3,4}; nil unless 1 to 7 distinct weekdays.
    static func parseDays(_ text: String) -> Set<Int>? {
        let days = text.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !days.isEmpty, days.allSatisfy({ $0.map { (0...6).contains($0) } ?? false }) else { return nil }
        let set = Set(days.compactMap { $0 })
        return set.count == days.count ? set : nil
    }
}
