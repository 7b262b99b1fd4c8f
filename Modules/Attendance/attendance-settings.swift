import Core

public enum AttendanceSettings {
    /// Minutes after the period (or window) starts before a check-in counts as LATE.
    public static let lateThreshold = Setting<Int>.integer("attendance", "late-threshold-minutes", default: 15, in: 1...60, unit: .minutes)
    /// How long a QR check-in code stays valid.
    public static let checkInMinutes = Setting<Int>.integer("attendance", "check-in-minutes", default: 5, in: checkInRange, unit: .minutes)
    /// How long a check-in code may stay valid, whether the school's setting or a teacher's choice sets it.
    public static let checkInRange = 1...30
    /// How many days back a teacher may still change records; admins may always correct.
    public static let editWindowDays = Setting<Int>.integer("attendance", "edit-window-days", default: 7, in: 0...365, unit: .days)
    /// Absence counts that flag a student (the web app's tiers: notify, letter, meeting, referral).
    public static let absenceThresholds = Setting<String>("attendance", "absence-thresholds", default: "3,5,10,15", expected: "n,n,...", kind: .numbers) {
        thresholds($0) != nil
    }

    /// The school's `schoolId` in the Ed-Fi ODS it reports to; 0 (the default): not set.
    public static let edFiSchoolID = Setting<Int>.integer("attendance", "ed-fi-school-id", default: 0, in: 0...2_147_483_647)

    static var definitions: [SettingDefinition] {
        [lateThreshold.definition, checkInMinutes.definition, editWindowDays.definition, absenceThresholds.definition, edFiSchoolID.definition]
    }

    static func thresholds(_ text: String) -> [Int]? {
        let numbers = text.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !numbers.isEmpty, numbers.allSatisfy({ ($0 ?? 0) > 0 }) else { return nil }
        return numbers.compactMap { $0 }.sorted()
    }
}
