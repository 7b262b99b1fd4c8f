import Core
import Foundation

/// Adds a period of the school day (`P1` 07:45-08:30, or a break).
public struct CreatePeriod: Action {
    public struct Input: Codable, Sendable {
        public var code: String
        public var name: LocalizedText
        public var startsAt: String
        public var endsAt: String
        public var isBreak: Bool
        public init(code: String, name: LocalizedText, startsAt: String, endsAt: String, isBreak: Bool = false) {
            self.code = code
            self.name = name
            self.startsAt = startsAt
            self.endsAt = endsAt
            self.isBreak = isBreak
        }
    }

    public static let id = "timetable.create-period"
    public static let permission = TimetablePermissions.manage

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        guard !input.code.trimmingCharacters(in: .whitespaces).isEmpty, !input.name.ar.isEmpty, !input.name.en.isEmpty else {
            throw InputError("timetable.error.period-name")
        }
        try TextInput.check(input.code, field: "<code>", maxLength: TextLimit.code)
        try PeriodChanges.check(name: input.name, startsAt: input.startsAt, endsAt: input.endsAt)
        let overlapping: String? = try context.database.fetchValue(
            "SELECT code FROM timetable_periods WHERE school_id = :school_id AND (code = :code OR (starts_at < :end AND ends_at > :start))",
            ["code": .text(input.code), "start": .text(input.startsAt), "end": .text(input.endsAt)])
        if let overlapping { throw InputError("timetable.error.period-overlap", ["period": overlapping]) }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> String {
        let id = context.newID()
        try context.database.insert(into: "timetable_periods", [
            "id": .text(id), "code": .text(input.code), "name_ar": .text(input.name.ar), "name_en": .text(input.name.en),
            "starts_at": .text(input.startsAt), "ends_at": .text(input.endsAt), "is_break": .integer(input.isBreak ? 1 : 0),
        ])
        return id
    }

    /// `HH:MM`, 24-hour.
    static func isTime(_ text: String) -> Bool {
        let parts = text.split(separator: ":").compactMap { Int($0) }
        return text.count == 5 && parts.count == 2 && (0...23).contains(parts[0]) && (0...59).contains(parts[1])
    }
}

/// The periods of the school day, the same for every class: anyone who may see a timetable may
/// see them, without naming whose.
public struct ListPeriods: Action {
    public struct Input: Codable, Sendable { public init() {} }

    public static let id = "timetable.list-periods"
    public static let permission = TimetablePermissions.read
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> [Period] {
        try SlotQueries.periods(context)
    }
}

/// A holiday or closure: no school days inside it.
public struct AddClosure: Action {
    public struct Input: Codable, Sendable {
        public var from: String
        public var to: String
        public var name: String
        public init(from: String, to: String, name: String) {
            self.from = from
            self.to = to
            self.name = name
        }
    }

    public static let id = "timetable.add-closure"
    public static let permission = TimetablePermissions.manage

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        guard let from = CivilDate(input.from) else { throw TimetableError.invalidDate(input.from) }
        guard let to = CivilDate(input.to), from <= to else { throw TimetableError.invalidDate(input.to) }
        guard !input.name.trimmingCharacters(in: .whitespaces).isEmpty else { throw InputError("timetable.error.closure-name") }
        try TextInput.check(input.name, field: "name", maxLength: TextLimit.title)
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> String {
        let id = context.newID()
        try context.database.insert(into: "timetable_closures", [
            "id": .text(id), "starts_on": .text(input.from), "ends_on": .text(input.to), "name": .text(input.name),
        ])
        return id
    }
}

/// Pins the week containing a date to a letter, for that week only or as a restart of the cycle.
public struct SetWeekOverride: Action {
    public struct Input: Codable, Sendable {
        public var date: String
        public var week: Int
        public var kind: CycleOverride.Kind
        public var note: String
        public init(date: String, week: Int, kind: CycleOverride.Kind, note: String = "") {
            self.date = date
            self.week = week
            self.kind = kind
            self.note = note
        }
    }

    public static let id = "timetable.set-override"
    public static let permission = TimetablePermissions.manage

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        guard CivilDate(input.date) != nil else { throw TimetableError.invalidDate(input.date) }
        try TextInput.check(input.note, field: "note", maxLength: TextLimit.title)
        let length = try context.setting(TimetableSettings.cycleLength)
        guard (0..<length).contains(input.week) else { throw TimetableError.weekOutsideCycle(WeekSpec.name(input.week)) }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> String {
        let calendar = try SchoolCalendar.load(context)
        let week = calendar.weekStart(of: CivilDate(input.date) ?? context.today)
        try context.database.execute("""
            INSERT INTO timetable_overrides (school_id, week_start, week, kind, note) VALUES (:school_id, :start, :week, :kind, :note)
            ON CONFLICT (school_id, week_start, kind) DO UPDATE SET week = excluded.week, note = excluded.note
            """, ["start": .text(week.description), "week": .integer(Int64(input.week)), "kind": .text(input.kind.rawValue), "note": .text(input.note)])
        context.auditDetail = "\(week) \(input.kind.rawValue) \(WeekSpec.name(input.week))"
        return week.description
    }
}

/// The week letter (or "no school") of every week in a range, to check a calendar at a glance.
public struct CycleWeeks: Action {
    public struct Input: Codable, Sendable {
        public var from: String
        public var to: String
        public init(from: String, to: String) {
            self.from = from
            self.to = to
        }
    }

    public struct Week: Codable, Sendable, Equatable {
        public let weekStart: CivilDate
        public let week: CycleWeek
        public let schoolDays: Int
    }

    public static let id = "timetable.cycle"
    public static let permission = TimetablePermissions.read
    public static let isReadOnly = true

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        guard let from = CivilDate(input.from) else { throw TimetableError.invalidDate(input.from) }
        guard let to = CivilDate(input.to), from <= to, to.dayNumber - from.dayNumber <= 3660 else { throw TimetableError.invalidDate(input.to) }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> [Week] {
        let calendar = try SchoolCalendar.load(context)
        guard let from = CivilDate(input.from), let to = CivilDate(input.to) else { return [] }
        return stride(from: calendar.weekStart(of: from).dayNumber, through: to.dayNumber, by: 7).map { number in
            let start = CivilDate(dayNumber: number)
            return Week(weekStart: start, week: calendar.week(of: start), schoolDays: (0..<7).filter { calendar.isSchoolDay(start.adding(days: $0)) }.count)
        }
    }
}
