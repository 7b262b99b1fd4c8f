import Core

public struct Period: Codable, Sendable, Equatable {
    public let id: String
    public let code: String
    public let name: LocalizedText
    /// `HH:MM`, school time.
    public let startsAt: String
    public let endsAt: String
    public let isBreak: Bool

    init(row: SQLRow) {
        id = row.string("id")
        code = row.string("code")
        name = LocalizedText(ar: row.string("name_ar"), en: row.string("name_en"))
        startsAt = row.string("starts_at")
        endsAt = row.string("ends_at")
        isBreak = row["is_break"] ?? false
    }
}

/// One lesson in the weekly grid. `week` is -1 for every week, else the cycle week (0 = A).
public struct Slot: Codable, Sendable, Equatable {
    public let id: String
    public let day: Int
    public let periodCode: String
    public let startsAt: String
    public let endsAt: String
    public let week: Int
    public let classCode: String
    public let subjectCode: String
    public let subjectName: LocalizedText
    public let teacherEmail: String
    public let teacherName: String
    public let room: String

    init(row: SQLRow) {
        id = row.string("id")
        day = row.int("day")
        periodCode = row.string("period_code")
        startsAt = row.string("starts_at")
        endsAt = row.string("ends_at")
        week = row.int("week")
        classCode = row.string("class_code")
        subjectCode = row.string("subject_code")
        subjectName = LocalizedText(ar: row.string("subject_ar"), en: row.string("subject_en"))
        teacherEmail = row.string("teacher_email")
        teacherName = row.string("teacher_name")
        room = row.string("room")
    }

    /// Whether the slot runs in a given week of the cycle.
    public func runs(in cycleWeek: Int) -> Bool { week == -1 || week == cycleWeek }
}

/// `ALL`, `A`, `B`, ... <-> -1, 0, 1, ...
public enum WeekSpec {
    public static func parse(_ text: String) -> Int? {
        let upper = text.uppercased()
        if upper == "ALL" { return -1 }
        guard upper.count == 1, let scalar = upper.unicodeScalars.first, (65...68).contains(scalar.value) else { return nil }
        return Int(scalar.value) - 65
    }

    public static func name(_ week: Int) -> String { week < 0 ? "ALL" : CycleWeek.letter(week) }
}

/// Day names for parsing `--day SUN` and headings.
public enum Weekday {
    static let codes = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"]

    public static func parse(_ text: String) -> Int? {
        if let number = Int(text), (0...6).contains(number) { return number }
        return codes.firstIndex(of: String(text.uppercased().prefix(3)))
    }
}
