import Core

/// Corrects a period of the school day: its names, its times and whether it is a break. Its
/// code stays (lessons and the apps name it). Refused like a new one when it would overlap
/// another period, and refused as a break while lessons are placed in it.
public struct UpdatePeriod: Action {
    public struct Input: Codable, Sendable {
        public var id: String
        public var name: LocalizedText
        public var startsAt: String
        public var endsAt: String
        public var isBreak: Bool
        public init(id: String, name: LocalizedText, startsAt: String, endsAt: String, isBreak: Bool = false) {
            self.id = id
            self.name = name
            self.startsAt = startsAt
            self.endsAt = endsAt
            self.isBreak = isBreak
        }
    }

    public static let id = "timetable.update-period"
    public static let permission = TimetablePermissions.manage

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        let period = try PeriodChanges.period(input.id, context)
        guard !input.name.ar.isEmpty, !input.name.en.isEmpty else { throw InputError("timetable.error.period-name") }
        try PeriodChanges.check(name: input.name, startsAt: input.startsAt, endsAt: input.endsAt)
        let overlapping: String? = try context.database.fetchValue(
            "SELECT code FROM timetable_periods WHERE school_id = :school_id AND id != :id AND starts_at < :end AND ends_at > :start",
            ["id": .text(period.id), "start": .text(input.startsAt), "end": .text(input.endsAt)])
        if let overlapping { throw InputError("timetable.error.period-overlap", ["period": overlapping]) }
        if input.isBreak, try PeriodChanges.lessons(in: period.id, context) > 0 { throw TimetableError.breakPeriod(period.code) }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> String {
        try context.database.execute("""
            UPDATE timetable_periods SET name_ar = :ar, name_en = :en, starts_at = :start, ends_at = :end, is_break = :break
            WHERE school_id = :school_id AND id = :id
            """, ["id": .text(input.id), "ar": .text(input.name.ar), "en": .text(input.name.en), "start": .text(input.startsAt),
                  "end": .text(input.endsAt), "break": .integer(input.isBreak ? 1 : 0)])
        context.auditDetail = "\(input.id) \(input.startsAt)-\(input.endsAt)"
        return input.id
    }
}

/// Takes a period out of the school day, once no lesson is placed in it (move or remove those first).
public struct RemovePeriod: Action {
    public struct Input: Codable, Sendable {
        public var id: String
        public init(id: String) { self.id = id }
    }

    public static let id = "timetable.remove-period"
    public static let permission = TimetablePermissions.manage

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        let period = try PeriodChanges.period(input.id, context)
        let lessons = try PeriodChanges.lessons(in: period.id, context)
        guard lessons == 0 else { throw InputError("timetable.error.period-in-use", ["period": period.code, "count": String(lessons)]) }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> String {
        try context.database.execute("DELETE FROM timetable_periods WHERE school_id = :school_id AND id = :id", ["id": .text(input.id)])
        context.auditDetail = input.id
        return input.id
    }
}

enum PeriodChanges {
    /// A period's names and times, as a new one and a corrected one must have them.
    static func check(name: LocalizedText, startsAt: String, endsAt: String) throws {
        try TextInput.check(name.ar, field: "name-ar", maxLength: TextLimit.name)
        try TextInput.check(name.en, field: "name-en", maxLength: TextLimit.name)
        for time in [startsAt, endsAt] where !CreatePeriod.isTime(time) { throw TimetableError.invalidTime(time) }
        guard startsAt < endsAt else { throw TimetableError.invalidTime("\(startsAt)-\(endsAt)") }
    }

    /// The school's period with this id; another school's answers as one that does not exist.
    static func period(_ id: String, _ context: ActionContext) throws -> Period {
        try TextInput.check(id, field: "id", maxLength: TextLimit.code * 4)
        guard let row = try context.database.fetchOne("SELECT * FROM timetable_periods WHERE school_id = :school_id AND id = :id", ["id": .text(id)])
        else { throw TimetableError.unknownPeriod(id) }
        return Period(row: row)
    }

    static func lessons(in periodID: String, _ context: ActionContext) throws -> Int {
        try context.database.fetchValue("SELECT COUNT(*) FROM timetable_slots WHERE school_id = :school_id AND period_id = :id",
                                        ["id": .text(periodID)]) ?? 0
    }
}
